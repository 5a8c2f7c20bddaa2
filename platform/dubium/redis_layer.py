"""The real stack's channel layer: channels_redis's, with a group send in one round trip.

channels_redis's `RedisChannelLayer.group_send` makes four round trips to Redis a group (drop
expired members, read the members, drop their expired messages, then its Lua script sent whole
with EVAL), and a move sends to three groups: most of a move's web CPU on the real stack
(docs/performance.md). Here one Lua script, loaded once and called by its SHA (EVALSHA), does all
of that inside Redis for every group of a move at once (`group_send_many`). What lands in each
channel's sorted set is what channels_redis writes: the same random prefix, the same msgpack map
with the receiving channels under `__asgi_channel__`, the same expiry and capacity, so its
receive side reads it unchanged.

The script builds each message around the receivers it finds, so it supports what Dubium uses:
one Redis server (no sharding), msgpack without encryption, one capacity for every channel.
Like channels_redis's own scripts, it writes keys it is not given (the members' channels): fine
on one server, not on Redis Cluster, which channels_redis does not support either.

Its receive takes a message that is already waiting in one script too (channels_redis's takes
three round trips: put back what an interrupted receive left, pop, keep a backup copy), and
waits on the blocking pop as channels_redis does when nothing is waiting.
"""

import asyncio
import logging
import os
import time

import msgpack
from channels_redis.core import RedisChannelLayer

log = logging.getLogger(__name__)

RANDOM_PREFIX_BYTES = 12  # channels_redis's default, which its receive strips

# KEYS: the groups' sorted sets. ARGV: now, the group and message expiries in seconds, the
# capacity, the channel-key prefix, then per group its message's random prefix, its time (the
# score that orders a channel's messages), its number of entries and its entries packed (a
# msgpack map without its header).
GROUP_SEND = """
local now, group_expiry, expiry = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local capacity, prefix = tonumber(ARGV[4]), ARGV[5]
local second = math.floor(tonumber(now))
local over_capacity = 0
for g = 1, #KEYS do
    local salt, score, entries, body = ARGV[2 + 4 * g], ARGV[3 + 4 * g], tonumber(ARGV[4 + 4 * g]) + 1, ARGV[5 + 4 * g]
    local header
    if entries < 16 then
        header = string.char(0x80 + entries)
    else
        header = string.char(0xde, math.floor(entries / 256), entries % 256)
    end
    redis.call('ZREMRANGEBYSCORE', KEYS[g], 0, second - group_expiry)
    local receivers, keys = {}, {}
    for _, channel in ipairs(redis.call('ZRANGE', KEYS[g], 0, -1)) do
        local bang = string.find(channel, '!', 1, true)
        local key = prefix .. (bang and string.sub(channel, 1, bang) or channel)
        if receivers[key] == nil then
            receivers[key] = {}
            table.insert(keys, key)
        end
        table.insert(receivers[key], channel)
    end
    for _, key in ipairs(keys) do
        redis.call('ZREMRANGEBYSCORE', key, 0, second - expiry)
        if redis.call('ZCARD', key) < capacity then
            local message = salt .. header .. body .. cmsgpack.pack('__asgi_channel__') .. cmsgpack.pack(receivers[key])
            redis.call('ZADD', key, score, message)
            redis.call('EXPIRE', key, expiry)
        else
            over_capacity = over_capacity + 1
        end
    end
end
return over_capacity
"""

# KEYS: a process's channel and its backup set. As channels_redis does before each receive, put
# back what an interrupted receive left in the backup; then take the oldest waiting message, if
# any, and keep a copy in the backup until it is handed over (the caller's cleaner drops it).
TAKE = """
local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
for i = #backed_up, 1, -2 do
    redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
end
redis.call('DEL', KEYS[2])
local taken = redis.call('ZPOPMIN', KEYS[1])
if taken[1] then
    redis.call('ZADD', KEYS[2], taken[2], taken[1])
    return taken[1]
end
return false
"""


class OneTripRedisChannelLayer(RedisChannelLayer):
    """channels_redis's layer with a group send, and a waiting message's receive, in one round
    trip (see the module's docstring)."""

    def __init__(self, hosts=None, prefix="asgi", expiry=60, group_expiry=86400, capacity=100):
        super().__init__(hosts, prefix, expiry, group_expiry, capacity)
        if self.ring_size != 1:
            raise ValueError(f"{type(self).__name__} works with one Redis server")
        self.scripts = {}

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, events: list[tuple[str, dict]]) -> None:
        """Send each (group, message) to every member of its group, all in one round trip."""
        if not events:
            return
        now = time.time()
        args = [now, self.group_expiry, self.expiry, self.capacity, self.prefix]
        for order, (group, message) in enumerate(events):
            assert self.require_valid_group_name(group), "Group name not valid"
            assert isinstance(message, dict) and "__asgi_channel__" not in message
            entries = b"".join(msgpack.packb(key) + msgpack.packb(value) for key, value in message.items())
            # channels_redis's random prefix: equal messages stay apart in a channel's sorted set
            # and a microsecond apart, so that a channel hears them in the order they were given
            args += [os.urandom(RANDOM_PREFIX_BYTES), now + order / 1e6, len(message), entries]
        over_capacity = await self.run(GROUP_SEND, [self._group_key(group) for group, _ in events], args)
        if over_capacity:
            log.info("%d channel(s) over capacity, not sent to, in groups %s", over_capacity, [g for g, _ in events])

    async def receive_single(self, channel):
        """channels_redis's receive, but a message already waiting is taken in one round trip
        instead of three (put back, pop, back up): a move's pushes to one process come together."""
        assert self.require_valid_channel_name(channel, receive=True), "Channel name invalid"
        channel_key = self.prefix + channel
        backup = self._backup_channel_name(channel_key)
        connection = self.connection(0)
        await self.receive_clean_locks.acquire(channel_key)
        try:
            content = None
            while content is None:
                content = await self.run(TAKE, [channel_key, backup])
                if content is None:  # nothing waiting: block until something comes, as channels_redis does
                    popped = await connection.bzpopmin(channel_key, timeout=self.brpop_timeout)
                    if popped is not None:
                        _, content, score = popped
                        await connection.zadd(backup, {content: float(score)})
            # Drop the backup copy once the message is handed over; the next receive of this
            # channel waits for that (the lock), so it cannot put the message back.
            cleaner = asyncio.ensure_future(self._clean_receive_backup(0, channel_key))
            self.receive_cleaners.append(cleaner)

            def cleaned(cleaner):
                self.receive_cleaners.remove(cleaner)
                self.receive_clean_locks.release(channel_key)

            cleaner.add_done_callback(cleaned)
        except BaseException:
            self.receive_clean_locks.release(channel_key)
            raise
        message = self.deserialize(content)
        if "__asgi_channel__" in message:
            channel = message.pop("__asgi_channel__")
        return channel, message

    async def run(self, script: str, keys: list, args: list = ()):
        """Run a Lua script by its SHA, sending it whole only the first time (or after a restart)."""
        connection = self.connection(0)
        if script not in self.scripts:
            self.scripts[script] = connection.register_script(script)
        return await self.scripts[script](keys=keys, args=args, client=connection)
