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

A message for a channel of this process goes straight into that channel's receive buffer, where
channels_redis's own receive puts what it takes from Redis: the process knows which of its
channels are in which group (it added them), and the script leaves this process's channels out.
With one web process every push of a move is heard that way, without the two or four round
trips a message costs to take back from Redis and the receive loop's work around them; the
script is still called, for the group's members in other processes. Joining or leaving groups
is one round trip for all of them (channels_redis's: two a group to join, one to leave), and the
joins (or leaves) of the sockets asked for while one is in flight go together in the next.
"""

import asyncio
import logging
import os
import time
from collections import Counter, defaultdict

import msgpack
from channels_redis.core import RedisChannelLayer

from games.matches.together import Together

log = logging.getLogger(__name__)

RANDOM_PREFIX_BYTES = 12  # channels_redis's default, which its receive strips

# KEYS: the groups' sorted sets. ARGV: now, the group and message expiries in seconds, the
# capacity, the channel-key prefix, the channel key of the sending process (its channels have
# been sent to already, or "" to send to them too), then per group its message's random prefix,
# its time (the score that orders a channel's messages), its number of entries and its entries
# packed (a msgpack map without its header).
GROUP_SEND = """
local now, group_expiry, expiry = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local capacity, prefix, sender = tonumber(ARGV[4]), ARGV[5], ARGV[6]
local second = math.floor(tonumber(now))
local over_capacity = 0
for g = 1, #KEYS do
    local salt, score, entries, body = ARGV[3 + 4 * g], ARGV[4 + 4 * g], tonumber(ARGV[5 + 4 * g]) + 1, ARGV[6 + 4 * g]
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
        if key ~= sender then  -- the sender has put the message in its own channels' buffers
            if receivers[key] == nil then
                receivers[key] = {}
                table.insert(keys, key)
            end
            table.insert(receivers[key], channel)
        end
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

# KEYS: the process's channel and its backup set. ARGV: "handed" when what the backup holds
# was handed over (the reader's last take), else it is put back first, as channels_redis does
# before each receive (a take interrupted before its messages reached their buffers). Then
# take every message waiting, oldest first, up to ARGV[2], and keep copies in the backup until
# the next take says they were handed over.
TAKE = """
if ARGV[1] == 'handed' then
    redis.call('DEL', KEYS[2])
else
    local backed_up = redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES')
    for i = #backed_up, 1, -2 do
        redis.call('ZADD', KEYS[1], backed_up[i], backed_up[i - 1])
    end
    redis.call('DEL', KEYS[2])
end
local taken = redis.call('ZPOPMIN', KEYS[1], tonumber(ARGV[2]))
for i = 1, #taken, 2 do
    redis.call('ZADD', KEYS[2], taken[i + 1], taken[i])
end
return taken
"""

# KEYS: the groups' sorted sets. ARGV: now, the group expiry in seconds, then the channel to add
# to each key in turn. A script rather than a pipeline of ZADD and EXPIRE a group: redis-py
# builds and parses a pipeline in Python, a sixth of a socket's opening (docs/performance.md).
GROUP_ADD = """
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[1], ARGV[2 + i])
    redis.call('EXPIRE', key, ARGV[2])
end
"""

# KEYS: the groups' sorted sets. ARGV: the channel to take out of each key in turn.
GROUP_DISCARD = """
for i, key in ipairs(KEYS) do
    redis.call('ZREM', key, ARGV[i])
end
"""


def drained(buffer: asyncio.Queue) -> list:
    """What waits in the queue, oldest first, taken out of it."""
    return [buffer.get_nowait() for _ in range(buffer.qsize())]


class ReadFailed:
    """Put in a waiting channel's buffer when the process's reader failed (Redis away): its
    receive raises the error, as channels_redis's receive would have."""

    def __init__(self, error: BaseException):
        self.error = error


class OneTripRedisChannelLayer(RedisChannelLayer):
    """channels_redis's layer with a group send in one round trip, this process's channels
    served from memory, and one reader a process (see the module's docstring)."""

    def __init__(self, hosts=None, prefix="asgi", expiry=60, group_expiry=86400, capacity=100):
        super().__init__(hosts, prefix, expiry, group_expiry, capacity)
        if self.ring_size != 1:
            raise ValueError(f"{type(self).__name__} works with one Redis server")
        self.scripts = {}
        self.process_channel = f"specific.{self.client_prefix}!"  # what new_channel's names start with
        # This process's channels in each group, as it added them on `loop` (the one its
        # consumers receive on); a send from another loop (a thread's) goes through Redis.
        self.members_here = defaultdict(set)
        self.loop = None
        self.reader = None
        self.listening = Counter()  # channels waiting in receive, and how many waits each
        self.handed = True  # the reader's last take reached its buffers
        self.joining, self.leaving = Together(self.add_all), Together(self.discard_all)

    def here(self, channel: str) -> bool:
        return channel.startswith(self.process_channel)

    def at_home(self, adopt: bool = False) -> bool:
        """Is this the loop this process's channels live on, the one that receives? With `adopt`
        (a channel of ours joins a group, or receives) a first loop, or a new one once the last
        has closed (sync code's: each `async_to_sync` call runs a loop of its own), becomes it.
        The channels stay in their groups, and what waits in their buffers moves to buffers of
        the new loop: a take hands a channel every message waiting for it at once, and the
        ones its receive did not return before its loop closed are still to be received."""
        loop = asyncio.get_running_loop()
        if adopt and (self.loop is None or self.loop.is_closed()):
            self.loop, self.reader = loop, None
            self.listening.clear()
            waiting = {channel: drained(buffer) for channel, buffer in self.receive_buffer.items()}
            self.receive_buffer.clear()  # asyncio queues belong to the loop that first waited on them
            for channel, messages in waiting.items():
                for message in messages:
                    self.receive_buffer[channel].put_nowait(message)
        return self.loop is loop

    async def group_add(self, group, channel):
        await self.group_add_many([group], channel)

    async def group_add_many(self, groups: list[str], channel: str) -> None:
        """Add the channel to every group, in one round trip."""
        if not groups:
            return
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        assert all(self.require_valid_group_name(group) for group in groups), "Group name not valid"
        if self.at_home():  # together with the other joins asked for meanwhile
            await self.joining.run((groups, channel))
        else:
            await self.add_all([(groups, channel)])
        if self.here(channel) and self.at_home(adopt=True):
            for group in groups:
                self.members_here[group].add(channel)

    async def group_discard(self, group, channel):
        await self.group_discard_many([group], channel)

    async def group_discard_many(self, groups: list[str], channel: str) -> None:
        """Take the channel out of every group, in one round trip."""
        if not groups:
            return
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        for group in groups:
            members = self.members_here.get(group)
            if members is not None:
                members.discard(channel)
                if not members:
                    del self.members_here[group]
        assert all(self.require_valid_group_name(group) for group in groups), "Group name not valid"
        if self.at_home():  # together with the other leaves asked for meanwhile
            await self.leaving.run((groups, channel))
        else:
            await self.discard_all([(groups, channel)])

    async def add_all(self, joins: list[tuple[list[str], str]]) -> None:
        """Each (groups, channel): the channel added to the groups, all in one script call."""
        keys = [self._group_key(group) for groups, _ in joins for group in groups]
        channels = [channel for groups, channel in joins for _ in groups]
        await self.run(GROUP_ADD, keys, [time.time(), self.group_expiry, *channels])

    async def discard_all(self, leaves: list[tuple[list[str], str]]) -> None:
        """Each (groups, channel): the channel taken out of the groups, all in one script call."""
        keys = [self._group_key(group) for groups, _ in leaves for group in groups]
        await self.run(GROUP_DISCARD, keys, [channel for groups, channel in leaves for _ in groups])

    async def group_send(self, group, message):
        await self.group_send_many([(group, message)])

    async def group_send_many(self, events: list[tuple[str, dict]]) -> None:
        """Send each (group, message) to every member of its group: the members in other
        processes in one round trip, then this process's into their buffers."""
        if not events:
            return
        here = self.at_home()
        now = time.time()
        sender = self.prefix + self.process_channel if here else ""
        args = [now, self.group_expiry, self.expiry, self.capacity, self.prefix, sender]
        for order, (group, message) in enumerate(events):
            assert self.require_valid_group_name(group), "Group name not valid"
            assert isinstance(message, dict) and "__asgi_channel__" not in message
            entries = b"".join(msgpack.packb(key) + msgpack.packb(value) for key, value in message.items())
            # channels_redis's random prefix: equal messages stay apart in a channel's sorted set
            # and a microsecond apart, so that a channel hears them in the order they were given
            args += [os.urandom(RANDOM_PREFIX_BYTES), now + order / 1e6, len(message), entries]
        over_capacity = await self.run(GROUP_SEND, [self._group_key(group) for group, _ in events], args)
        if here:
            over_capacity += sum(self.put_here(group, message) for group, message in events)
        if over_capacity:
            log.info("%d channel(s) over capacity, not sent to, in groups %s", over_capacity, [g for g, _ in events])

    def put_here(self, group: str, message: dict) -> int:
        """Put the message in the buffer of each of this process's channels in the group; how
        many were full (as in Redis, a full channel is sent nothing more until it is read)."""
        full = 0
        for channel in self.members_here.get(group, ()):
            buffer = self.receive_buffer[channel]
            if buffer.qsize() >= self.capacity:
                full += 1
            else:
                buffer.put_nowait(dict(message))
        return full

    async def receive(self, channel):
        """The next message of one of this process's channels, from its buffer. One reader task
        fills the buffers from Redis (`read`); channels_redis's receive has the waiting channels
        take turns at reading, with two tasks made and cancelled for each wait."""
        assert self.require_valid_channel_name(channel), "Channel name not valid"
        if "!" not in channel:
            return (await self.receive_single(channel))[1]
        assert self.here(channel), "Wrong client prefix"
        if not self.at_home(adopt=True):
            raise RuntimeError("Two event loops are trying to receive() on one channel layer at once!")
        if self.reader is None or self.reader.done():
            self.reader = asyncio.ensure_future(self.read())
        buffer = self.receive_buffer[channel]
        self.listening[channel] += 1
        try:
            message = await buffer.get()
        finally:
            self.listening[channel] -= 1
            if not self.listening[channel]:
                del self.listening[channel]
        if buffer.empty() and self.receive_buffer.get(channel) is buffer:
            del self.receive_buffer[channel]
        if isinstance(message, ReadFailed):
            raise message.error
        return message

    async def read(self) -> None:
        """Take what Redis holds for this process, all that is waiting at once, into the
        channels' buffers, while any channel is listening. A failure is raised in every
        listening channel's receive; the next receive starts reading again."""
        try:
            while self.listening:
                for channels, message in await self.take():
                    for channel in channels if isinstance(channels, list) else [channels]:
                        self.receive_buffer[channel].put_nowait(message)
                self.handed = True
        except Exception as error:
            for channel in list(self.listening):
                self.receive_buffer[channel].put_nowait(ReadFailed(error))

    async def take(self) -> list[tuple[object, dict]]:
        """[(channel or channels, message)] waiting for the process, oldest first: every one
        waiting, in one round trip, or else the next to come (a blocking pop, up to
        brpop_timeout). A popped message needs no backup copy: nothing awaits between its pop
        and its buffers."""
        key = self.prefix + self.process_channel
        # From the moment the script is sent, Redis may hold backup copies of messages not yet in
        # their buffers: a take cancelled meanwhile (its loop closed) leaves them to be put back.
        handed, self.handed = self.handed, False
        taken = await self.run(TAKE, [key, self._backup_channel_name(key)], ["handed" if handed else "", 100])
        contents = taken[::2]
        if not contents:
            self.handed = True  # the backup is empty
            if not self.listening:
                # Every channel stopped listening during the script: no blocking pop for nobody.
                # redis-py shields a command from cancelling, so a loop closing meanwhile waited
                # out the pop's brpop_timeout (5 s, in every test whose socket was refused).
                return []
            popped = await self.connection(0).bzpopmin(key, timeout=self.brpop_timeout)
            contents = [] if popped is None else [popped[1]]
        messages = []
        for content in contents:
            message = self.deserialize(content)
            messages.append((message.pop("__asgi_channel__", None), message))
        return messages

    async def run(self, script: str, keys: list, args: list = ()):
        """Run a Lua script by its SHA, sending it whole only the first time (or after a restart)."""
        connection = self.connection(0)
        if script not in self.scripts:
            self.scripts[script] = connection.register_script(script)
        return await self.scripts[script](keys=keys, args=args, client=connection)
