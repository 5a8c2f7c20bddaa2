"""How many websockets one account may hold open and how fast it may open them; a visitor is
counted by address, with more room (a school or a café shares one), and a bot account has room
for many tables at once.

A page opens one or two sockets and reopens them after a drop; a loop that reconnects as fast
as it can opened hundreds a second in a tester's attack, each answered with its table's whole
state and each open one sent every push. Past either limit the handshake is accepted and closed
at once with TOO_MANY_SOCKETS and a reason in words, so a page can say so and wait (a refused
handshake reads to a browser as a dropped line, retried at once).

Counted in each web process's memory, not in a shared store: nothing to reach (or to be away)
before a socket opens. With N processes behind the proxy an account may hold N times as many.
"""

import time
from collections import Counter

from django.conf import settings

from accounts.addresses import socket_address

TOO_MANY_SOCKETS = 4429
# A visitor's address stands for this many people; a bot account may play this many people's
# share of tables at once.
VISITOR_ROOM = 4
BOT_ROOM = 10


class OpeningRate:
    """A bucket per opener: SOCKET_OPENS_BURST handshakes at once, then SOCKET_OPENS_PER_SECOND."""

    def __init__(self):
        self.buckets = {}  # opener -> (handshakes still allowed, when counted)

    def allows(self, opener: str, room: int, now: float) -> bool:
        burst = settings.SOCKET_OPENS_BURST * room
        left, counted = self.buckets.get(opener, (burst, now))
        left = min(burst, left + (now - counted) * settings.SOCKET_OPENS_PER_SECOND * room)
        if left < 1:
            return False
        self.buckets[opener] = (left - 1, now)
        if len(self.buckets) > 10_000:
            self.forget_the_full(now)
        return True

    def forget_the_full(self, now: float) -> None:
        """Openers whose bucket has filled again (a burst's time after their last handshake,
        whatever their room) are as if never seen: forgotten, so the table does not grow with
        every address that ever came."""
        refilled = settings.SOCKET_OPENS_BURST / settings.SOCKET_OPENS_PER_SECOND
        self.buckets = {opener: kept for opener, kept in self.buckets.items() if now - kept[1] < refilled}


OPENING = OpeningRate()
OPEN_NOW = Counter()


def opener_of(scope) -> tuple[str, int]:
    """Who opens the socket, and how many people that may stand for."""
    user = scope.get("user")
    if user is not None and user.is_authenticated:
        return f"account {user.pk}", BOT_ROOM if user.is_bot else 1
    return f"address {socket_address(scope)}", VISITOR_ROOM


class SocketLimitMiddleware:
    """Refuses a handshake past the opener's limits (inside the authentication middleware, which
    tells who it is); counts its socket open until the consumer returns."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        opener, room = opener_of(scope)
        if OPEN_NOW[opener] >= settings.SOCKETS_OPEN_AT_ONCE * room:
            return await refuse(receive, send, f"At most {settings.SOCKETS_OPEN_AT_ONCE * room} open at once.")
        if not OPENING.allows(opener, room, time.monotonic()):
            return await refuse(receive, send, "Opened too often: wait a few seconds.")
        OPEN_NOW[opener] += 1
        try:
            return await self.inner(scope, receive, send)
        finally:
            OPEN_NOW[opener] -= 1
            if not OPEN_NOW[opener]:
                del OPEN_NOW[opener]


async def refuse(receive, send, reason: str) -> None:
    """Accept, then close with TOO_MANY_SOCKETS and `reason`."""
    message = await receive()
    if message["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.close", "code": TOO_MANY_SOCKETS, "reason": f"Too many sockets. {reason}"})
