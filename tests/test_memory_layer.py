"""The embedded channel layer delivers as Channels' in-memory layer does, and still lets a
stuck socket's channel go, while it sweeps for expired entries at most once a second."""

import time

import pytest

from dubium import memory_layer
from dubium.memory_layer import MemoryChannelLayer

pytestmark = pytest.mark.asyncio


async def test_a_group_message_reaches_every_member_once():
    layer = MemoryChannelLayer()
    one, other = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", one)
    await layer.group_add("table", other)
    await layer.group_send("table", {"type": "match.push", "text": "hi"})
    assert [await layer.receive(one), await layer.receive(other)] == [{"type": "match.push", "text": "hi"}] * 2
    assert layer.channels == {}, "nothing left queued"


async def test_a_channel_whose_message_expired_leaves_its_groups_at_the_next_sweep(monkeypatch):
    layer = MemoryChannelLayer(expiry=60)
    stuck, alive = await layer.new_channel(), await layer.new_channel()
    await layer.group_add("table", stuck)
    await layer.group_add("table", alive)
    await layer.group_send("table", {"type": "match.push", "text": "first"})
    await layer.receive(alive)
    later = time.time() + 61
    layer.swept_at -= memory_layer.SWEEP_SECONDS  # a second has passed since the last sweep
    monkeypatch.setattr("channels.layers.time.time", lambda: later)
    await layer.group_send("table", {"type": "match.push", "text": "second"})
    assert list(layer.groups["table"]) == [alive]
    assert await layer.receive(alive) == {"type": "match.push", "text": "second"}
