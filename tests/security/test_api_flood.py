"""A flood of API requests is answered 429 with Retry-After, per account and per address, while a
fast bot playing a whole game at the documented pace never is (docs/security.md, "API limits").

The throttles' clock is replaced by one the test moves, so "per second" means game time here and
no test depends on how fast the machine is.
"""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.test import APIClient
from rest_framework.throttling import SimpleRateThrottle

from accounts.throttles import API_THROTTLES

pytestmark = pytest.mark.django_db


class Clock:
    """The throttles' time.time: it moves only when the test says."""

    def __init__(self):
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch, api_limits):
    clock = Clock()
    monkeypatch.setattr(SimpleRateThrottle, "timer", clock)
    return clock


def as_user(user, address: str = "10.1.0.1") -> APIClient:
    client = APIClient(REMOTE_ADDR=address)
    client.force_authenticate(user)
    return client


def statuses(client, count: int, path: str = "/api/matches/?mine=1") -> list[int]:
    return [client.get(path).status_code for _ in range(count)]


def test_a_flood_from_one_token_is_refused_past_the_burst_with_retry_after(clock, alice):
    codes = statuses(as_user(alice), 60)
    assert codes == [200] * 40 + [429] * 20
    refused = as_user(alice).get("/api/matches/?mine=1")
    assert refused.status_code == 429 and refused["Retry-After"] == "1"
    assert refused.json()["code"] == "throttled" and refused.json()["message"].startswith("Request was throttled.")
    clock.now += 1
    assert as_user(alice).get("/api/matches/?mine=1").status_code == 200


def test_a_steady_stream_from_one_token_is_refused_past_the_minute_s_rate(clock, alice):
    client, codes = as_user(alice), []
    for _ in range(1300):  # 25 a second: inside the burst, over the minute's 1,200
        clock.now += 0.04
        codes.append(client.get("/api/games/").status_code)
    assert codes[:1200] == [200] * 1200 and set(codes[1200:]) == {429}
    assert 1 <= int(client.get("/api/games/")["Retry-After"]) <= 60


def test_more_tokens_from_one_address_do_not_buy_more_room(clock, make_user):
    clients = [as_user(make_user(f"sock{n}")) for n in range(3)]
    codes = [code for client in clients for code in statuses(client, 30)]
    assert codes == [200] * 80 + [429] * 10
    assert as_user(make_user("elsewhere"), address="10.1.0.2").get("/api/games/").status_code == 200


def test_a_visitor_is_counted_by_address_and_a_forged_forwarded_for_does_not_reset_it(clock, db):
    visitor = APIClient(REMOTE_ADDR="10.2.0.1")
    codes = [visitor.get("/api/games/", HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(90)]
    assert codes == [200] * 80 + [429] * 10
    assert APIClient(REMOTE_ADDR="10.2.0.2").get("/api/games/").status_code == 200


def test_a_throttled_login_answers_retry_after_too(clock, alice):
    visitor = APIClient(REMOTE_ADDR="10.3.0.1")
    for _ in range(20):
        visitor.post("/api/accounts/token/", {"username": "alice", "password": "wrong"}, format="json")
    refused = visitor.post("/api/accounts/token/", {"username": "alice", "password": "wrong"}, format="json")
    assert refused.status_code == 429 and 1 <= int(refused["Retry-After"]) <= 60


def api_views(patterns=None, prefix=""):
    """(path, view class) of every DRF view under /api/."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from api_views(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern) and route.startswith("api/") and hasattr(pattern.callback, "cls"):
            yield route, pattern.callback.cls


def test_every_api_operation_counts_against_the_account_and_address_limits():
    views = dict(api_views())
    assert len(views) > 30 and "api/matches/" in views and "api/schema/" in views
    unguarded = [route for route, view in views.items() if not set(API_THROTTLES) <= set(view.throttle_classes)]
    assert unguarded == []


def right_claim(view: dict) -> dict:
    """Towering inferno: the one symbol on both the seat's top card and the pile's."""
    mine = set(view["seats"][view["seat"]]["top"]["symbols"])
    (symbol,) = mine & set(view["pile"]["top"]["symbols"])
    return {"type": "claim", "symbol": symbol, "target": "pile", "at_ms": view["now_ms"]}


def test_a_fast_bot_plays_a_whole_dobble_game_over_http_without_a_429(clock, make_user):
    """The reference pace of docs/security.md: it polls `?mine=1` every 200 ms, and takes each new
    card 100 ms after it turned up (a person needs most of a second): it reads the table, then claims."""
    bot = as_user(make_user("Spotter"))
    table = bot.post("/api/matches/", {"game": "dobble", "players": 2}, format="json").json()
    assert bot.post(f"/api/matches/{table['id']}/bots/", {"bot": "heuristic"}, format="json").status_code == 201
    assert bot.post(f"/api/matches/{table['id']}/start/").status_code == 200
    codes, claims, next_poll = [], 0, clock.now
    while True:
        if clock.now >= next_poll:
            polled = bot.get("/api/matches/?mine=1")
            codes.append(polled.status_code)
            next_poll += 0.2
            if not polled.json():
                break  # the match is over: no running table of the bot's any more
        clock.now += 0.1
        state = bot.get(f"/api/matches/{table['id']}/")
        codes.append(state.status_code)
        if state.json()["status"] != "running":
            continue
        message = state.json()["state"]
        played = bot.post(
            f"/api/matches/{table['id']}/actions/",
            {"action": right_claim(message["view"]), "seq": message["seq"]},
            format="json",
        )
        codes.append(played.status_code)
        claims += 1
    assert claims > 20
    assert set(codes) == {200}
