"""The real multi-process stack: a Celery task and websockets through Redis, across processes."""

import json
import time
import urllib.request

import pytest
from websockets.sync.client import connect

pytestmark = pytest.mark.stack


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})},
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read() or b"null")


def register(port: int, username: str) -> str:
    password = "a long enough password 42"
    call(
        port,
        "POST",
        "/api/accounts/register/",
        {"username": username, "email": f"{username}@example.com", "password": password},
    )
    return call(port, "POST", "/api/accounts/token/", {"username": username, "password": password})["token"]


def socket_for(port: int, match_id: int, token: str):
    return connect(
        f"ws://127.0.0.1:{port}/ws/match/{match_id}/",
        additional_headers={"Authorization": f"Token {token}", "Origin": f"http://127.0.0.1:{port}"},
    )


def next_state(ws, seq: int, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "state" and message["seq"] >= seq:
            return message
    raise TimeoutError(f"no state with seq >= {seq}")


def started_duel(host_port: int, host: str, guest_port: int, guest: str) -> dict:
    """A running two-player Dudo match: the host creates and starts it, the guest joins."""
    match = call(host_port, "POST", "/api/matches/", {"game": "dudo", "players": 2}, host)
    call(guest_port, "POST", f"/api/matches/{match['id']}/join/", {}, guest)
    call(host_port, "POST", f"/api/matches/{match['id']}/start/", {}, host)
    return match


def table_with_house_bot(port: int, token: str) -> dict:
    """A two-player Dudo table of the token's owner and the heuristic house bot, not started yet."""
    match = call(port, "POST", "/api/matches/", {"game": "dudo", "players": 2}, token)
    call(port, "POST", f"/api/matches/{match['id']}/bots/", {"bot": "heuristic"}, token)
    return match


def first_move_if_mine(ws, state: dict) -> dict:
    """Play the first legal move when it is this socket's turn; the state the bot then faces."""
    if state["to_act"] == [state["seat"]]:
        ws.send(json.dumps({"type": "action", "action": state["legal"][0], "seq": state["seq"]}))
        return next_state(ws, state["seq"] + 1)
    return state


def test_players_on_two_web_processes_play_one_match_through_redis(stack):
    web1, web2 = stack["ports"]
    alice, bob = register(web1, "stack-alice"), register(web2, "stack-bob")
    match = started_duel(web1, alice, web2, bob)
    with socket_for(web1, match["id"], alice) as ws_alice, socket_for(web2, match["id"], bob) as ws_bob:
        hello = next_state(ws_alice, 0)
        first = hello["to_act"][0]
        mover = ws_alice if first == hello["seat"] else ws_bob
        mover.send(json.dumps({"type": "action", "action": {"type": "bid", "quantity": 1, "face": 2}, "seq": 0}))
        seen_by_alice, seen_by_bob = next_state(ws_alice, 1), next_state(ws_bob, 1)
    assert seen_by_alice["seq"] == seen_by_bob["seq"] == 1
    assert seen_by_alice["seat"] != seen_by_bob["seat"]
    assert seen_by_alice["view"]["history"] and seen_by_bob["view"]["history"]


def test_the_celery_worker_plays_the_house_bot_and_the_socket_hears_it(stack):
    web1, web2 = stack["ports"]
    carol = register(web1, "stack-carol")
    match = table_with_house_bot(web1, carol)
    call(web1, "POST", f"/api/matches/{match['id']}/start/", {}, carol)
    with socket_for(web2, match["id"], carol) as ws:
        state = first_move_if_mine(ws, next_state(ws, 0))
        bot_move = next_state(ws, state["seq"] + 1)
    bot_seat = 1 - bot_move["seat"]
    moves = [e for e in bot_move["view"]["history"] if e["type"] in ("bid", "doubt")]
    assert moves and moves[-1]["seat"] == bot_seat
    detail = call(web1, "GET", f"/api/matches/{match['id']}/")
    assert detail["seq"] >= bot_move["seq"]


def test_a_web_process_killed_mid_match_loses_nothing(stack):
    web1, _ = stack["ports"]
    dave, erin = register(web1, "stack-dave"), register(web1, "stack-erin")
    match = started_duel(web1, dave, web1, erin)
    with socket_for(web1, match["id"], dave) as ws:
        first = next_state(ws, 0)["to_act"][0]
    mover = dave if first == 0 else erin
    call(
        web1,
        "POST",
        f"/api/matches/{match['id']}/actions/",
        {"action": {"type": "bid", "quantity": 2, "face": 3}, "seq": 0},
        mover,
    )
    stack["restart"]("web0")
    with socket_for(web1, match["id"], erin) as ws:
        again = next_state(ws, 1)
    assert again["seq"] == 1
    assert again["view"]["bid"] == {"quantity": 2, "face": 3, "seat": first}


def test_moves_due_while_the_worker_is_down_are_played_when_it_is_back(stack):
    web1, _ = stack["ports"]
    frank = register(web1, "stack-frank")
    match = table_with_house_bot(web1, frank)
    stack["processes"]["worker"].kill()
    stack["processes"]["worker"].wait(timeout=10)
    call(web1, "POST", f"/api/matches/{match['id']}/start/", {}, frank)
    with socket_for(web1, match["id"], frank) as ws:
        state = first_move_if_mine(ws, next_state(ws, 0))
        time.sleep(2)
        assert call(web1, "GET", f"/api/matches/{match['id']}/")["seq"] == state["seq"], "nobody plays the bot"
        stack["restart"]("worker")
        answered = next_state(ws, state["seq"] + 1, timeout=30)
    assert answered["to_act"] == [answered["seat"]], "the house bot moved once the worker was back"


def test_an_uploaded_bot_plays_a_whole_match_in_the_celery_worker(stack):
    web1, _ = stack["ports"]
    grace = register(web1, "stack-grace")
    bot = call(web1, "POST", "/api/bots/", {"name": "stack-bot"}, grace)
    source = (
        "def choose(view, legal):\n"
        "    bids = [a for a in legal if a['type'] == 'bid']\n"
        "    return bids[0] if bids and view['bid'] is None else legal[-1]\n"
    )
    assert (
        call(web1, "POST", "/api/bots/stack-bot/code/", {"game": "dudo", "source": source}, grace)["code_version"] == 1
    )
    match = call(web1, "POST", "/api/bots/stack-bot/matches/", {"game": "dudo", "opponents": ["house:random"]}, grace)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        detail = call(web1, "GET", f"/api/matches/{match['id']}/")
        if detail["status"] == "finished":
            break
        time.sleep(0.5)
    assert detail["status"] == "finished" and detail["seq"] > 2
    mine = call(web1, "GET", "/api/bots/", token=grace)[0]["versions"][0]
    assert mine["moves"] > 0 and mine["failures"] == 0, mine
    assert bot["token"]
