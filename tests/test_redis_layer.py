"""The real stack's channel layer sends a group's message in one round trip and delivers it as
channels_redis's own layer does: to every member once, with its expiry and capacity, through
channels_redis's message format. A member in the sending process is handed the message in
memory; the others take it from Redis, all that waits for their process at once. Needs Redis
(REDIS_URL, a database of its own: the test flushes its prefix).

`layer` is the process under test; `far` is another web process on the same Redis."""

import asyncio
import threading
import time
import uuid

import pytest
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError

from dubium import redis_layer
from dubium.redis_layer import OneTripRedisChannelLayer
from tests.conftest import services_required

REDIS_URL = settings.REDIS_URL

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


@pytest.fixture
async def far(layer):
    return OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=layer.prefix)


async def test_a_move_s_groups_go_in_one_round_trip_and_this_process_s_members_hear_them_without_redis(
    layer, far, monkeypatch
):
    seat, spectator = await layer.new_channel(), await far.new_channel()
    await layer.group_add("match-1-seat-0", seat)
    await far.group_add("match-1-watch", spectator)
    await layer.group_send("match-1-watch", PUSH)  # Redis loads the script once
    await far.receive(spectator)
    sent, received = count_commands(layer, monkeypatch), count_commands(far, monkeypatch)

    await layer.group_send_many([("match-1-seat-0", PUSH), ("match-1-watch", {**PUSH, "text": "watch"})])
    await layer.group_send("match-1-seat-0", {**PUSH, "text": "again"})
    assert await layer.receive(seat) == PUSH
    assert await layer.receive(seat) == {**PUSH, "text": "again"}
    assert sent == ["EVALSHA", "EVALSHA"], "one script a send; nothing to take back for the seat of this process"
    assert await far.receive(spectator) == {**PUSH, "text": "watch"}
    # the other process takes it in one round trip: its reader's take, or its blocking pop
    assert received[0] in ("EVALSHA", "BZPOPMIN")


async def test_each_member_hears_a_group_message_once_and_other_groups_hear_nothing(layer, far):
    first, second, elsewhere = [await layer.new_channel() for _ in range(3)]
    distant = await far.new_channel()
    for channel in (first, second):
        await layer.group_add("match-1", channel)
    await far.group_add("match-1", distant)
    await layer.group_add("match-2", elsewhere)
    await layer.group_send("match-1", PUSH)
    await layer.group_send("match-2", {**PUSH, "text": "for match 2"})
    await far.group_send("match-1", {**PUSH, "text": "next"})
    for channel in (first, second):
        assert [await layer.receive(channel), await layer.receive(channel)] == [PUSH, {**PUSH, "text": "next"}]
    # far's own message reaches its channel at once, maybe before the one still in Redis: messages
    # of different processes have no order (a state older than one sent is not sent on: consumers.py)
    assert sorted([(await far.receive(distant))["text"], (await far.receive(distant))["text"]]) == sorted(
        [PUSH["text"], "next"]
    )
    assert await layer.receive(elsewhere) == {**PUSH, "text": "for match 2"}
    for channel in (first, second, elsewhere):
        assert layer.receive_buffer[channel].empty()
    assert far.receive_buffer[distant].empty()


@pytest.mark.parametrize("where", ["here", "far"])
async def test_messages_sent_together_arrive_in_the_order_given(layer, far, where):
    receiver = layer if where == "here" else far
    listener = await receiver.new_channel()
    await receiver.group_add_many(["match-1-seat-0", "match-1"], listener)
    states = [("match-1-seat-0" if seq % 2 else "match-1", {"type": "push", "seq": seq}) for seq in range(20)]
    await layer.group_send_many(states)
    assert [(await receiver.receive(listener))["seq"] for _ in states] == list(range(20))


async def test_any_message_arrives_as_channels_redis_would_deliver_it(layer, far):
    listener = await far.new_channel()
    await far.group_add("table", listener)
    many_fields = {"type": "table.update", **{f"field{n}": n for n in range(20)}}  # a map of more than 15 entries
    odd = {"type": "x", "none": None, "yes": True, "pi": 3.25, "list": [1, "two", {"3": [4]}], "big": 2**40}
    long_text = {"type": "match.push", "text": "é" * 70_000}
    for message in (many_fields, odd, long_text):
        await layer.group_send("table", message)
        assert await far.receive(listener) == layer.deserialize(layer.serialize(message)) == message


@pytest.mark.parametrize("where", ["here", "far"])
async def test_a_full_channel_is_sent_no_more_until_it_is_read(layer, where):
    small = OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=layer.prefix, capacity=2)
    receiver = small if where == "here" else OneTripRedisChannelLayer(hosts=[REDIS_URL], prefix=layer.prefix)
    receiver.capacity = 2
    listener = await receiver.new_channel()
    await receiver.group_add("table", listener)
    for text in "123":
        await small.group_send("table", {"type": "push", "text": text})
    assert [(await receiver.receive(listener))["text"] for _ in range(2)] == ["1", "2"]
    await small.group_send("table", {"type": "push", "text": "4"})
    assert (await receiver.receive(listener))["text"] == "4"


async def test_expired_messages_and_memberships_are_dropped(layer, far, monkeypatch):
    listener, gone = await far.new_channel(), await far.new_channel()
    await far.group_add("table", listener)
    now = time.time()
    monkeypatch.setattr(redis_layer.time, "time", lambda: now - layer.expiry - 5)
    await layer.group_send("table", {"type": "push", "text": "stale"})
    monkeypatch.setattr(redis_layer.time, "time", lambda: now)
    await layer.group_send("table", {"type": "push", "text": "fresh"})
    assert (await far.receive(listener))["text"] == "fresh"

    await far.group_add("table", gone)
    monkeypatch.setattr(redis_layer.time, "time", lambda: now + layer.group_expiry + 5)
    await layer.group_send("table", PUSH)
    assert await layer.connection(0).zrange(layer._group_key("table"), 0, -1) == []


async def test_a_redis_that_forgot_the_script_is_sent_it_again(layer, far):
    listener = await far.new_channel()
    await far.group_add("table", listener)
    await layer.group_send("table", PUSH)
    await layer.connection(0).script_flush()  # as after a Redis restart
    await layer.group_send("table", {**PUSH, "text": "after"})
    assert [await far.receive(listener), await far.receive(listener)] == [PUSH, {**PUSH, "text": "after"}]


async def test_groups_are_joined_and_left_in_one_round_trip(layer, far, monkeypatch):
    listener, another = await layer.new_channel(), await layer.new_channel()
    await layer.group_add_many(["match-2"], another)  # its scripts loaded
    await layer.group_discard_many(["match-2"], another)
    calls = count_commands(layer, monkeypatch)
    await layer.group_add_many(["match-1", "match-1-seat-0", "account-7"], listener)
    assert calls == ["EVALSHA"]
    await layer.group_discard_many(["match-1", "account-7"], listener)
    assert calls == ["EVALSHA", "EVALSHA"]
    assert await layer.connection(0).zrange(layer._group_key("match-1-seat-0"), 0, -1) == [listener.encode()]

    await far.group_send_many([("match-1", PUSH), ("match-1-seat-0", {**PUSH, "text": "seat"})])
    await layer.group_send("account-7", {**PUSH, "text": "left"})
    assert await layer.receive(listener) == {**PUSH, "text": "seat"}
    assert layer.receive_buffer[listener].empty(), "nothing from the groups it left"


async def test_sockets_leaving_at_once_leave_together(layer, far, monkeypatch):
    """400 sockets closing at once opened 200 connections to Redis, one a leave in flight."""
    listeners = [await layer.new_channel() for _ in range(20)]
    for number, listener in enumerate(listeners):
        await layer.group_add_many([f"match-{number}", "lobby"], listener)
    calls = count_commands(layer, monkeypatch)
    await asyncio.gather(*(layer.group_add_many(["late"], listener) for listener in listeners))
    await asyncio.gather(*(layer.group_discard_many([f"match-{n}", "lobby"], c) for n, c in enumerate(listeners)))
    assert calls == ["EVALSHA", "EVALSHA"], "the joins in one round trip, the leaves in one"
    await far.group_send_many([("lobby", PUSH), ("match-3", PUSH)])
    assert all(layer.receive_buffer[listener].empty() for listener in listeners), "none is in those groups"
    assert len(await layer.connection(0).zrange(layer._group_key("late"), 0, -1)) == 20


async def test_every_message_waiting_for_the_process_is_taken_in_one_round_trip(layer, far, monkeypatch):
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", first)
    await layer.group_add("seat", second)
    await far.group_send_many([("table", PUSH), ("seat", {**PUSH, "text": "second"}), ("table", {**PUSH, "text": "3"})])
    calls = count_commands(layer, monkeypatch)
    assert await layer.receive(first) == PUSH
    assert calls[0] == "EVALSHA"
    assert [layer.receive_buffer[first].qsize(), layer.receive_buffer[second].qsize()] == [1, 1], "all in one take"
    assert await layer.receive(second) == {**PUSH, "text": "second"}
    assert await layer.receive(first) == {**PUSH, "text": "3"}


async def test_a_receive_waiting_for_a_message_gets_it_when_another_process_sends_it(layer, far):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    waiting = asyncio.ensure_future(layer.receive(listener))
    await blocked_in_redis(layer)
    assert not waiting.done()
    await far.group_send("table", PUSH)
    assert await asyncio.wait_for(waiting, 5) == PUSH


async def test_a_receive_waiting_while_the_reader_blocks_gets_a_message_sent_here_at_once(layer, far):
    reading, waiting = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("one", reading)
    await layer.group_add("two", waiting)
    blocked = asyncio.ensure_future(layer.receive(reading))  # starts the reader, which waits on Redis
    heard = asyncio.ensure_future(layer.receive(waiting))
    await asyncio.sleep(0.2)
    await layer.group_send("two", PUSH)
    assert await asyncio.wait_for(heard, 1) == PUSH
    await layer.group_send("one", {**PUSH, "text": "one"})
    assert await asyncio.wait_for(blocked, 1) == {**PUSH, "text": "one"}


async def test_a_reader_whose_listeners_all_left_during_its_take_makes_no_blocking_pop(layer, monkeypatch):
    """A socket refused at once: its receive starts the reader and is gone before the reader's
    take comes back. A blocking pop for nobody held the loop's close for its brpop_timeout, as
    redis-py shields a command from cancelling (5.3 s in each such test's teardown)."""
    listener = await layer.new_channel()
    calls = count_commands(layer, monkeypatch)
    receiving = asyncio.ensure_future(layer.receive(listener))
    await asyncio.sleep(0)  # the receive has started the reader, which sends its take next
    receiving.cancel()
    await asyncio.wait_for(layer.reader, 1)
    assert "EVALSHA" in calls and "BZPOPMIN" not in calls


async def test_a_message_sent_from_another_thread_s_loop_reaches_this_process_s_channel_through_redis(layer):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    sender = threading.Thread(target=lambda: asyncio.run(layer.group_send("table", PUSH)))
    sender.start()
    await asyncio.to_thread(sender.join)
    assert await asyncio.wait_for(layer.receive(listener), 5) == PUSH


async def test_messages_taken_by_an_interrupted_take_are_received_next_time(layer, far):
    listener = await layer.new_channel()
    await layer.group_add("table", listener)
    await far.group_send_many([("table", PUSH), ("table", {**PUSH, "text": "second"})])
    key = layer.prefix + layer.process_channel
    await layer.run(redis_layer.TAKE, [key, layer._backup_channel_name(key)], ["", 100])  # the answer lost
    layer.handed = False  # as after a reader cancelled before its messages reached their buffers
    assert [await layer.receive(listener), await layer.receive(listener)] == [PUSH, {**PUSH, "text": "second"}]


async def test_sync_code_receiving_on_a_loop_a_call_hears_every_message_sent_to_its_channel(layer, far):
    """Sync code (a test, a script) reaches the layer through `async_to_sync`, each call on a
    loop of its own: a message that one take brought with the one received stays for the next
    call's receive, and a channel that joined on an earlier loop still hears a send of the new one."""
    listener = await layer.new_channel()
    await on_a_loop_of_its_own(layer.group_add("user-3", listener))
    await far.group_send_many([("user-3", PUSH), ("user-3", {**PUSH, "text": "second"})])
    assert await on_a_loop_of_its_own(layer.receive(listener)) == PUSH
    assert await on_a_loop_of_its_own(asyncio.wait_for(layer.receive(listener), 5)) == {**PUSH, "text": "second"}

    async def join_another_then_send():
        await layer.group_add("user-4", await layer.new_channel())
        await layer.group_send("user-3", {**PUSH, "text": "third"})
        return await asyncio.wait_for(layer.receive(listener), 5)

    assert await on_a_loop_of_its_own(join_another_then_send()) == {**PUSH, "text": "third"}


def on_a_loop_of_its_own(coroutine):
    """Run the coroutine as an `async_to_sync` call from sync code does: on a new loop, closed after."""
    return asyncio.to_thread(asyncio.run, coroutine)


async def blocked_in_redis(layer) -> None:
    """Until a receive of the layer's database waits in Redis for a message (BZPOPMIN)."""
    connection = layer.connection(0)
    db = int(connection.connection_pool.connection_kwargs.get("db", 0))
    deadline = time.monotonic() + 10
    while not any(c["cmd"] == "bzpopmin" and int(c["db"]) == db for c in await connection.client_list()):
        assert time.monotonic() < deadline, "no receive waits in Redis"
        await asyncio.sleep(0.01)


async def test_a_reader_that_fails_raises_in_every_waiting_receive_and_the_next_receive_reads_again(
    layer, far, monkeypatch
):
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", first)
    await layer.group_add("table", second)
    taken = layer.take

    async def away():
        raise RedisConnectionError("Redis is restarting")

    monkeypatch.setattr(layer, "take", away)
    waits = [asyncio.ensure_future(layer.receive(channel)) for channel in (first, second)]
    for wait in waits:
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(wait, 5)
    monkeypatch.setattr(layer, "take", taken)
    await far.group_send("table", PUSH)
    assert await asyncio.wait_for(layer.receive(first), 5) == PUSH


def count_commands(layer, monkeypatch) -> list:
    """The names of the commands the layer's connection sends from now on."""
    calls = []
    connection = layer.connection(0)
    execute = connection.execute_command

    async def counted(*args, **options):
        calls.append(str(args[0]).upper())
        return await execute(*args, **options)

    monkeypatch.setattr(connection, "execute_command", counted)
    return calls
