"""Writes asked for at once share one commit (one file sync on SQLite), a refused one rolls
back alone, and nobody hears of any of them before all are committed."""

import asyncio
import json
import threading
import time

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import transaction
from django.utils import timezone

from games.lobby.models import LobbySocket
from games.matches import broadcast, lifecycle, signals, writes
from games.matches.actions import submit_action
from games.matches.errors import MatchError
from games.matches.models import Match

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


async def test_a_write_without_a_savepoint_that_fails_undoes_itself_and_the_others_are_written_again():
    heard = []

    def write(name: str, fault: bool = False) -> str:
        with transaction.atomic(savepoint=not name.startswith("opening")):
            LobbySocket.objects.create(channel_name=name, last_seen=timezone.now())
            transaction.on_commit(lambda: heard.append(name))
            if fault:
                raise RuntimeError("a fault")
        return name

    group = writes.WriteGroup()
    outcomes = await asyncio.gather(
        group.run(1, write, "a"),
        group.run(2, write, "opening-1", True),
        group.run(3, write, "opening-2"),
        group.run(4, write, "b"),
        return_exceptions=True,
    )

    assert outcomes[0] == "a" and outcomes[2:] == ["opening-2", "b"]
    assert isinstance(outcomes[1], RuntimeError), "the failed write gets its own error"
    assert heard == ["a", "opening-2", "b"], "only what was committed is heard of, once"
    names = await database_sync_to_async(list)(LobbySocket.objects.values_list("channel_name", flat=True))
    assert sorted(names) == ["a", "b", "opening-2"]


async def test_a_lone_write_is_written_at_once_in_its_own_transaction():
    def write() -> bool:
        return transaction.get_connection().in_atomic_block

    assert await writes.WriteGroup().run(1, write) is False


@pytest.mark.parametrize("choice", ["group", "pool"])
async def test_a_writes_broadcasts_leave_from_the_event_loop_after_its_commit(choice, settings, monkeypatch):
    settings.MATCH_WRITES = choice
    layer = get_channel_layer()
    listener = await layer.new_channel()
    await layer.group_add("written", listener)
    monkeypatch.setattr(broadcast, "async_to_sync", None)  # no hop from the database thread to the loop

    def write(name: str) -> str:
        with transaction.atomic():
            LobbySocket.objects.create(channel_name=name, last_seen=timezone.now())
            transaction.on_commit(lambda: broadcast.deliver([("written", broadcast.push({"name": name}))]))
        return name

    assert await asyncio.gather(writes.write(1, write, "a"), writes.write(2, write, "b")) == ["a", "b"]
    heard = sorted([json.loads((await layer.receive(listener))["text"])["name"] for _ in range(2)])
    assert heard == ["a", "b"]


async def test_a_finished_match_is_scored_after_its_last_moves_pushes_have_left(alice, bob, monkeypatch):
    """Scoring (eager Celery here) is work nobody at the table waits for: done before the pushes,
    it held up the last move's and every move queued behind it."""
    match = await database_sync_to_async(one_die_duel)(alice, bob)
    happened = []
    sent = broadcast.send_collected

    async def send_collected(events):
        happened.extend("pushed" for _ in events[:1])
        await sent(events)

    def scored(sender, match_id, **kwargs):
        happened.append("scored")

    monkeypatch.setattr(broadcast, "send_collected", send_collected)
    signals.match_finished.connect(scored, dispatch_uid="test-order")
    try:
        for action in ({"type": "bid", "quantity": 1, "face": 2}, {"type": "doubt"}):
            seat = (await database_sync_to_async(to_act)(match.pk))[0]
            match = await writes.write(match.pk, submit_action, match.pk, [alice, bob][seat], action, match.seq)
        for _ in range(200):  # the mover has its answer; the scoring follows on the database thread
            if "scored" in happened:
                break
            await asyncio.sleep(0.01)
    finally:
        signals.match_finished.disconnect(dispatch_uid="test-order")

    assert match.status == Match.Status.FINISHED
    assert happened == ["pushed", "pushed", "scored"]


async def test_a_finished_matchs_scoring_reads_and_writes_only_between_the_moves_being_written(monkeypatch):
    """Scoring on its own thread still shares the interpreter and SQLite's one writer with the moves:
    each of its statements waits until the writes in hand are written."""
    monkeypatch.setattr(writes, "SCORING_WAITS_AT_MOST", 10)  # the condition decides here, not the cap
    scoring_asks, seen = threading.Event(), []

    def move() -> None:
        scoring_asks.wait(5)
        time.sleep(0.05)  # the move is still being written when the scoring's statement comes
        LobbySocket.objects.create(channel_name="a move", last_seen=timezone.now())

    def score() -> None:
        scoring_asks.set()
        seen.append(LobbySocket.objects.count())

    group = writes.WriteGroup()
    outbox = broadcast.Outbox(later=[(score, ())])
    written = asyncio.ensure_future(group.run(1, move))
    while group.idle.is_set():  # the move is in hand
        await asyncio.sleep(0)
    group.call_apart(outbox)
    await written
    await asyncio.gather(*group.calling_apart)

    assert seen == [1], "the scoring read the database only once the move was committed"
    assert group.idle.is_set()


def one_die_duel(alice, bob) -> Match:
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=3, options={"dice": 1})
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice)


def to_act(match_id: int) -> list[int]:
    match = Match.objects.get(pk=match_id)
    return match.engine.to_act(match.load_state())
