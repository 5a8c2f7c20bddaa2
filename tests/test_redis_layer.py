"""The real stack's channel layer sends a group's message in one round trip and delivers it as
channels_redis's own layer does: to every member once, through channels_redis's receive, with
its expiry and capacity. Needs Redis (REDIS_URL, a database of its own: the test flushes its prefix)."""

import asyncio
import os
import time
import uuid

import pytest

from dubium import redis_layer
from dubium.redis_layer import OneTripRedisChannelLayer
from tests.conftest import services_required

REDIS_URL = os.environ.get("REDIS_URL", "")

pytestmark = [
    pytest.mark.asyncio,
    pytest.mark.skipif(not REDIS_URL and not services_required(), reason="needs Redis: set REDIS_URL"),
]

PUSH = {"type": "match.push", "text": '{"seq": 3, "view": "ace of hearts \u2665"}'}


@pytest.fixture
async def layer():
    layer = OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=f"test-{uuid.uuid4().hex[:8]}")
    yield layer
    await layer.flush()


async def test_a_move_s_groups_go_in_one_round_trip(layer, monkeypatch):
    seat, spectator = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("match-1-seat-0", seat)
    await layer.group_add("match-1-watch", spectator)
    await layer.group_send("match-1-watch", PUSH)  # Redis loads the script once
    await layer.receive(spectator)
    await layer.wait_received()  # its receive's last command, in the background
    calls = count_commands(layer, monkeypatch)
    await layer.group_send_many([("match-1-seat-0", PUSH), ("match-1-watch", {**PUSH, "text": "watch"})])
    await layer.group_send("match-1-seat-0", {**PUSH, "text": "again"})
    assert calls == ["EVALSHA", "EVALSHA"]
    assert await layer.receive(seat) == PUSH
    assert await layer.receive(seat) == {**PUSH, "text": "again"}
    assert await layer.receive(spectator) == {**PUSH, "text": "watch"}


async def test_each_member_hears_a_group_message_once_and_other_groups_hear_nothing(layer):
    first, second, elsewhere = [await layer.new_channel() for _ in range(3)]
    other_process = OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=layer.prefix)
    far = await other_process.new_channel()
    for channel in (first, second, far):
        await layer.group_add("match-1", channel)
    await layer.group_add("match-2", elsewhere)
    await layer.group_send("match-1", PUSH)
    await layer.group_send("match-2", {**PUSH, "text": "for match 2"})
    await layer.group_send("match-1", {**PUSH, "text": "next"})
    for channel in (first, second):
        assert [await layer.receive(channel), await layer.receive(channel)] == [PUSH, {**PUSH, "text": "next"}]
    assert [await other_process.receive(far), await other_process.receive(far)] == [PUSH, {**PUSH, "text": "next"}]
    assert await layer.receive(elsewhere) == {**PUSH, "text": "for match 2"}


async def test_messages_sent_together_arrive_in_the_order_given(layer):
    listener = await layer.new_channel()
    await layer.group_add("match-1-seat-0", listener)
    await layer.group_add("match-1", listener)
    states = [("match-1-seat-0" if seq % 2 else "match-1", {"type": "push", "seq": seq}) for seq in range(20)]
    await layer.group_send_many(states)
    assert [(await layer.receive(listener))["seq"] for _ in states] == list(range(20))


async def test_any_message_arrives_as_channels_redis_would_deliver_it(layer):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    many_fields = {"type": "table.update", **{f"field{n}": n for n in range(20)}}  # a map of more than 15 entries
    odd = {"type": "x", "none": None, "yes": True, "pi": 3.25, "list": [1, "two", {"3": [4]}], "big": 2**40}
    long_text = {"type": "match.push", "text": "é" * 70_000}
    for message in (many_fields, odd, long_text):
        await layer.group_send("table", message)
        assert await layer.receive(listener) == layer.deserialize(layer.serialize(message)) == message


async def test_a_full_channel_is_sent_no_more_until_it_is_read(layer):
    small = OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=layer.prefix, capacity=2)
    listener = await small.new_channel()
    await small.group_add("table", listener)
    for text in "123":
        await small.group_send("table", {"type": "push", "text": text})
    assert [(await small.receive(listener))["text"] for _ in range(2)] == ["1", "2"]
    await small.group_send("table", {"type": "push", "text": "4"})
    assert (await small.receive(listener))["text"] == "4"


async def test_expired_messages_and_memberships_are_dropped(layer, monkeypatch):
    listener, gone = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", listener)
    now = time.time()
    monkeypatch.setattr(redis_layer.time, "time", lambda: now - layer.expiry - 5)
    await layer.group_send("table", {"type": "push", "text": "stale"})
    monkeypatch.setattr(redis_layer.time, "time", lambda: now)
    await layer.group_send("table", {"type": "push", "text": "fresh"})
    assert (await layer.receive(listener))["text"] == "fresh"

    await layer.group_add("table", gone)
    monkeypatch.setattr(redis_layer.time, "time", lambda: now + layer.group_expiry + 5)
    await layer.group_send("table", PUSH)
    assert await layer.connection(0).zrange(layer._group_key("table"), 0, -1) == []


async def test_a_redis_that_forgot_the_script_is_sent_it_again(layer):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    await layer.group_send("table", PUSH)
    await layer.connection(0).script_flush()  # as after a Redis restart
    await layer.group_send("table", {**PUSH, "text": "after"})
    assert [await layer.receive(listener), await layer.receive(listener)] == [PUSH, {**PUSH, "text": "after"}]


async def test_a_waiting_message_is_taken_in_one_round_trip(layer, monkeypatch):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    await layer.group_send_many([("table", PUSH), ("table", {**PUSH, "text": "second"})])
    calls = count_commands(layer, monkeypatch)
    assert await layer.receive(listener) == PUSH
    assert calls == ["EVALSHA"]
    await layer.wait_received()
    assert calls == ["EVALSHA", "ZPOPMIN"], "then the backup copy is dropped"
    assert await layer.receive(listener) == {**PUSH, "text": "second"}


async def test_a_receive_waiting_for_a_message_gets_it_when_it_is_sent(layer):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    waiting = asyncio.ensure_future(layer.receive(listener))
    await blocked_in_redis(layer)
    assert not waiting.done()
    await layer.group_send("table", PUSH)
    assert await asyncio.wait_for(waiting, 5) == PUSH


async def test_a_message_taken_by_an_interrupted_receive_is_received_next_time(layer):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    await layer.group_send_many([("table", PUSH), ("table", {**PUSH, "text": "second"})])
    key = layer.prefix + layer.non_local_name(listener)
    await layer.run(redis_layer.TAKE, [key, key + "$inflight"])  # its answer lost with the cancelled task
    assert [await layer.receive(listener), await layer.receive(listener)] == [PUSH, {**PUSH, "text": "second"}]


async def blocked_in_redis(layer) -> None:
    """Until a receive of the layer's database waits in Redis for a message (BZPOPMIN)."""
    connection = layer.connection(0)
    db = int(connection.connection_pool.connection_kwargs.get("db", 0))
    deadline = time.monotonic() + 10
    while not any(c["cmd"] == "bzpopmin" and int(c["db"]) == db for c in await connection.client_list()):
        assert time.monotonic() < deadline, "no receive waits in Redis"
        await asyncio.sleep(0.01)


def count_commands(layer, monkeypatch) -> list[str]:
    """The names of the commands the layer's connection sends from now on."""
    calls = []
    connection = layer.connection(0)
    execute = connection.execute_command

    async def counted(*args, **options):
        calls.append(str(args[0]).upper())
        return await execute(*args, **options)

    monkeypatch.setattr(connection, "execute_command", counted)
    return calls
