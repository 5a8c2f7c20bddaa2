"""Writes asked for at once share one commit (one file sync on SQLite), a refused one rolls
back alone, and nobody hears of any of them before all are committed."""

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.db import transaction
from django.utils import timezone

from games.lobby.models import LobbySocket
from games.matches import writes
from games.matches.errors import MatchError

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def test_writes_asked_together_share_one_commit_and_are_heard_of_only_after_it():
    heard = []

    def write(name: str, refuse: bool = False) -> bool:
        inside_the_group = transaction.get_connection().in_atomic_block
        with transaction.atomic():
            LobbySocket.objects.create(channel_name=name, last_seen=timezone.now())
            committed = LobbySocket.objects.values_list("channel_name", flat=True)
            transaction.on_commit(lambda: heard.append((name, sorted(committed))))
            if refuse:
                raise MatchError("illegal", "Refused.")
        return inside_the_group

    group = writes.WriteGroup()
    outcomes = await asyncio.gather(
        group.run(2, write, "b"), group.run(1, write, "a"), group.run(3, write, "c", True), return_exceptions=True
    )

    assert outcomes[:2] == [True, True], "written inside one shared transaction"
    assert isinstance(outcomes[2], MatchError), "the refused write gets its own error"
    assert heard == [("a", ["a", "b"]), ("b", ["a", "b"])], "heard of after both committed, in match order"
    assert sorted(await database_sync_to_async(list)(LobbySocket.objects.values_list("channel_name", flat=True))) == [
        "a",
        "b",
    ]


async def test_a_lone_write_is_written_at_once_in_its_own_transaction():
    def write() -> bool:
        return transaction.get_connection().in_atomic_block

    assert await writes.WriteGroup().run(1, write) is False
