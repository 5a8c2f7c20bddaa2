"""At most a few HTTP requests in flight at once per client on a web process; the rest are refused
before Django (no session, no database), with 429 and Retry-After: 1, a second after they came.

The API's rate limits count requests over time. A flood of one token's requests, 20 at a time,
stayed under them (the web process it hit could serve only 11 a second) and held that process: a
house bot's move reached its table up to 17.7 s late and a 1 s clock's timeout 8.8 s, through the
sockets on that process (docs/security.md, "Bots cannot stall the site"). This bounds the share of
a web process one client holds at any moment. A client is counted twice: by its credential (an API
token or the session cookie) and by its address (accounts.addresses), so new tokens made up for
each request do not get around it. Static files are not counted (a page loads several at once);
a bot's open event stream (`GET /api/stream/event`) is one of its requests for as long as it lasts.

A refusal waits out its Retry-After before it is sent: answered at once, the refused requests of
a flood came straight back, 10,000 in a minute, and refusing them took the web process as
serving had. A waiting refusal costs a sleeping coroutine. So does Django's own 429 (the API's
rates, login lockouts): it is held for its Retry-After, at most REFUSAL_WAIT_SECONDS, and counts in
flight meanwhile, so a client past its rate costs the process at most its 4 requests a second.

While the process runs late (dubium/lateness.py: the embedded ticker's round or the event loop
behind by more than HTTP_SHED_WHEN_LATE_SECONDS), each client and address has half of its room
(2 requests in flight for a token or session, 12 for an address), and the rest are refused
with 503 and Retry-After: the process sheds load before doing any of its work, so that the
house bots, clocks, queue and tournaments it runs keep their time.
"""

import asyncio
import json
from collections import Counter
from http.cookies import SimpleCookie

from django.conf import settings

from accounts.addresses import socket_address
from dubium import lateness

REFUSAL_WAIT_SECONDS = 1  # the Retry-After it is sent with
HOLD_AT_MOST_SECONDS = 1  # how long Django's own 429 is held at most
# While the process runs late, each client and address has this fraction of its room: half, not 1 request
# for a token, since a client's next request may come before its last one's clean-up is over.
ROOM_WHEN_LATE = 2


def refusal(code: str, message: str) -> bytes:
    return json.dumps({"type": "error", "code": code, "message": message, "fields": {}}).encode()


REFUSAL = refusal("throttled", "Too many of your requests are being answered at once: wait for them, then try again.")
BUSY = refusal("busy", "The site is busy: try again in a second.")


class InFlightLimit:
    def __init__(self, app, watch_event_loop: bool = False):
        self.app = app
        self.in_flight: Counter = Counter()
        self.watch_event_loop = watch_event_loop
        self.watcher: asyncio.Task | None = None

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"].startswith(settings.STATIC_URL):
            return await self.app(scope, receive, send)
        if self.watch_event_loop and self.watcher is None:
            self.watcher = asyncio.get_running_loop().create_task(lateness.watch_event_loop())
        late = lateness.recent() > settings.HTTP_SHED_WHEN_LATE_SECONDS
        keys = [(key, max(1, limit // ROOM_WHEN_LATE) if late else limit) for key, limit in client_keys(scope)]
        if any(self.in_flight[key] >= limit for key, limit in keys):
            return await refuse(send, 503 if late else 429, BUSY if late else REFUSAL)
        for key, _ in keys:
            self.in_flight[key] += 1
        try:
            return await self.app(scope, receive, hold_refusals(send))
        finally:
            for key, _ in keys:
                self.in_flight[key] -= 1
                if not self.in_flight[key]:
                    del self.in_flight[key]


def client_keys(scope) -> list[tuple[str, int]]:
    """(key, limit) for the request's address and, when it carries one, its credential."""
    keys = [("address " + socket_address(scope), settings.HTTP_IN_FLIGHT_PER_ADDRESS)]
    headers = dict(scope.get("headers", []))
    credential = headers.get(b"authorization", b"").decode("latin-1")
    if not credential:
        cookie = SimpleCookie(headers.get(b"cookie", b"").decode("latin-1")).get(settings.SESSION_COOKIE_NAME)
        credential = cookie.value if cookie else ""
    if credential:
        keys.append(("credential " + credential, settings.HTTP_IN_FLIGHT_PER_CLIENT))
    return keys


async def refuse(send, status: int, body: bytes) -> None:
    await asyncio.sleep(REFUSAL_WAIT_SECONDS)
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
        }
    )
    await send({"type": "http.response.body", "body": body})


def hold_refusals(send):
    """`send`, except that the start of a 429 waits out its Retry-After (at most HOLD_AT_MOST_SECONDS)."""

    async def held(message):
        if message["type"] == "http.response.start" and message["status"] == 429:
            retry_after = dict(message.get("headers", [])).get(b"retry-after", b"")
            wait = int(retry_after) if retry_after.isdigit() else HOLD_AT_MOST_SECONDS
            await asyncio.sleep(min(wait, HOLD_AT_MOST_SECONDS))
        await send(message)

    return held
