"""The embedded stack's channel layer: Channels' in-memory layer without its sweep per message.

`channels.layers.InMemoryChannelLayer` looks through every channel and every group membership
of the process for expired entries on each send and receive, so a message costs more the more
sockets the process holds (a fifth of a move's CPU with 60 sockets, bench/move_cpu.py). Here
that sweep runs at most once a second: messages expire after a minute and memberships after a
day, so a second late changes nothing. Its `group_send` also starts a task per receiver, while a
put on an in-memory queue never waits: here they are put in turn.
"""

import time

from channels.exceptions import ChannelFull
from channels.layers import InMemoryChannelLayer

SWEEP_SECONDS = 1.0


class MemoryChannelLayer(InMemoryChannelLayer):
    swept_at = 0.0

    def _clean_expired(self):
        now = time.monotonic()
        if now - self.swept_at >= SWEEP_SECONDS:
            self.swept_at = now
            super()._clean_expired()

    async def group_send(self, group, message):
        assert isinstance(message, dict), "Message is not a dict"
        self.require_valid_group_name(group)
        self._clean_expired()
        for channel in list(self.groups.get(group, {})):
            try:
                await self.send(channel, message)
            except ChannelFull:
                pass
