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
serving had. A waiting refusal costs a sleeping coroutine.
"""

import asyncio
import json
from collections import Counter
from http.cookies import SimpleCookie

from django.conf import settings

from accounts.addresses import socket_address

REFUSAL_WAIT_SECONDS = 1  # the Retry-After it is sent with
REFUSAL = json.dumps(
    {
        "type": "error",
        "code": "throttled",
        "message": "Too many of your requests are being answered at once: wait for them, then try again.",
        "fields": {},
    }
).encode()


class InFlightLimit:
    def __init__(self, app):
        self.app = app
        self.in_flight: Counter = Counter()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or scope["path"].startswith(settings.STATIC_URL):
            return await self.app(scope, receive, send)
        keys = client_keys(scope)
        if any(self.in_flight[key] >= limit for key, limit in keys):
            return await refuse(send)
        for key, _ in keys:
            self.in_flight[key] += 1
        try:
            return await self.app(scope, receive, send)
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


async def refuse(send) -> None:
    await asyncio.sleep(REFUSAL_WAIT_SECONDS)
    await send(
        {
            "type": "http.response.start",
            "status": 429,
            "headers": [(b"content-type", b"application/json"), (b"retry-after", b"1")],
        }
    )
    await send({"type": "http.response.body", "body": REFUSAL})
