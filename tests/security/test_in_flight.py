"""A client has at most 4 HTTP requests in flight on a web process (24 from one address); more are
refused with 429, before Django, once their Retry-After has passed. A flood of one token's requests,
20 at a time, stayed under the rate limits and held a web process: a house bot's move reached its
table 17.7 s late."""

import asyncio
import json

import pytest

from dubium import inflight, lateness
from dubium.inflight import InFlightLimit


@pytest.fixture(autouse=True)
def no_waiting(monkeypatch):
    assert inflight.REFUSAL_WAIT_SECONDS == 1, "a refusal waits out the Retry-After it is sent with"
    monkeypatch.setattr(inflight, "REFUSAL_WAIT_SECONDS", 0)
    lateness.forget()
    yield
    lateness.forget()


class HeldApp:
    """An HTTP application that answers each request only when told to."""

    def __init__(self):
        self.release = asyncio.Event()
        self.entered = 0

    async def __call__(self, scope, receive, send):
        self.entered += 1
        await self.release.wait()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})


def request(path="/api/matches/", token="alice-token", address="203.0.113.7", cookie=None):
    headers = [(b"authorization", f"Token {token}".encode())] if token else []
    headers += [(b"cookie", cookie.encode())] if cookie else []
    return {"type": "http", "path": path, "headers": headers, "client": (address, 50000)}


async def answer(limited, scope) -> tuple[int, dict, bytes]:
    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "http.request", "body": b"", "more_body": False}

    await limited(scope, receive, send)
    return sent[0]["status"], dict(sent[0]["headers"]), sent[1]["body"]


@pytest.mark.asyncio
async def test_a_fifth_request_in_flight_from_one_token_is_refused_and_the_next_after_one_ends_is_served():
    app = HeldApp()
    limited = InFlightLimit(app)
    held = [asyncio.create_task(answer(limited, request())) for _ in range(4)]
    await asyncio.sleep(0)
    status, headers, body = await asyncio.wait_for(answer(limited, request()), timeout=5)
    assert (status, headers[b"retry-after"], json.loads(body)["code"]) == (429, b"1", "throttled")
    assert app.entered == 4, "the refused request never reached the application"
    other = asyncio.create_task(answer(limited, request(token="bob-token")))  # another client is served
    await asyncio.sleep(0)
    assert app.entered == 5
    app.release.set()
    assert [status for status, _, _ in await asyncio.gather(*held, other)] == [200] * 5
    assert not limited.in_flight, "every count went back to nothing"
    assert (await answer(limited, request()))[0] == 200


@pytest.mark.asyncio
async def test_tokens_made_up_for_each_request_are_counted_by_their_address_and_static_files_are_free():
    app = HeldApp()
    limited = InFlightLimit(app)
    held = [asyncio.create_task(answer(limited, request(token=f"made-up-{n}"))) for n in range(24)]
    await asyncio.sleep(0)
    assert (await asyncio.wait_for(answer(limited, request(token="made-up-24")), timeout=5))[0] == 429
    assert (await asyncio.wait_for(answer(limited, request(cookie="sessionid=abc", token=None)), timeout=5))[0] == 429
    static = asyncio.create_task(answer(limited, request(path="/static/css/site.css")))
    await asyncio.sleep(0)
    assert app.entered == 25
    app.release.set()
    await asyncio.gather(*held, static)


class ThrottlingApp:
    """An HTTP application that answers every request as Django does past a rate: 429, Retry-After 30."""

    def __init__(self):
        self.entered = self.answered = 0

    async def __call__(self, scope, receive, send):
        self.entered += 1
        await send({"type": "http.response.start", "status": 429, "headers": [(b"retry-after", b"30")]})
        self.answered += 1
        await send({"type": "http.response.body", "body": b"{}"})


@pytest.mark.asyncio
async def test_a_429_of_the_site_is_held_for_its_retry_after_and_counts_in_flight_meanwhile():
    """A flood past the API's rates was refused by Django at 131 a second, each refusal costing the
    process nearly what serving did; held, one client's refusals cost at most 4 a second."""
    app = ThrottlingApp()
    limited = InFlightLimit(app)
    held = [asyncio.create_task(answer(limited, request())) for _ in range(4)]
    while app.entered < 4:
        await asyncio.sleep(0)
    assert not any(task.done() for task in held), "the 429s are held, not sent at once"
    status, _, body = await asyncio.wait_for(answer(limited, request()), timeout=5)
    assert (status, json.loads(body)["code"], app.entered) == (429, "throttled", 4)
    assert [(status, headers[b"retry-after"]) for status, headers, _ in await asyncio.gather(*held)] == [
        (429, b"30")
    ] * 4
    assert app.answered == 4 and not limited.in_flight


@pytest.mark.asyncio
async def test_while_the_process_runs_late_a_client_has_two_requests_in_flight_and_more_get_503():
    """Under a flood the embedded ticker fell behind: a house bot's move came 44.8 s late."""
    app = HeldApp()
    limited = InFlightLimit(app)
    first = [asyncio.create_task(answer(limited, request())) for _ in range(2)]
    while app.entered < 2:
        await asyncio.sleep(0)
    lateness.note("ticker", 5.0)  # its last round took 5 s
    status, headers, body = await asyncio.wait_for(answer(limited, request()), timeout=5)
    assert (status, headers[b"retry-after"], json.loads(body)["code"]) == (503, b"1", "busy")
    made_up = [asyncio.create_task(answer(limited, request(token=f"made-up-{n}"))) for n in range(10)]
    while app.entered < 12:
        await asyncio.sleep(0)
    assert (await asyncio.wait_for(answer(limited, request(token="made-up-10")), timeout=5))[0] == 503, (
        "an address has 12 in flight while late"
    )
    lateness.forget()  # on time again: the room comes back
    again = asyncio.create_task(answer(limited, request()))
    while app.entered < 13:
        await asyncio.sleep(0)
    app.release.set()
    assert [status for status, _, _ in await asyncio.gather(*first, again, *made_up)] == [200] * 13
