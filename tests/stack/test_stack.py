"""The real multi-process stack: a Celery task and websockets through Redis, across processes."""

import json
import time
from datetime import UTC, datetime

import pytest
import redis

from games.matches.tasks import wake_match
from tests.stack.client import (
    call,
    first_move_if_mine,
    next_state,
    register,
    socket_for,
    started_duel,
    table_with_house_bot,
)

pytestmark = pytest.mark.stack


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


def wake_up_overdue(stack, seconds: float = 30) -> None:
    """Until the worker's queue holds a match's wake-up whose time has come: nobody took it."""
    queue = redis.Redis.from_url(stack["env"]["REDIS_URL"])
    deadline = time.monotonic() + seconds
    while True:
        now = datetime.now(UTC)
        messages = [json.loads(raw)["headers"] for raw in queue.lrange(stack["env"]["CELERY_QUEUE"], 0, -1)]
        if any(m["task"] == wake_match.name and m["eta"] and datetime.fromisoformat(m["eta"]) < now for m in messages):
            return
        assert time.monotonic() < deadline, f"no wake-up overdue in the queue: {messages}"
        time.sleep(0.1)


def test_moves_due_while_the_worker_is_down_are_played_when_it_is_back(stack):
    web1, _ = stack["ports"]
    frank = register(web1, "stack-frank")
    match = table_with_house_bot(web1, frank)
    stack["crash"]("worker")
    call(web1, "POST", f"/api/matches/{match['id']}/start/", {}, frank)
    with socket_for(web1, match["id"], frank) as ws:
        state = first_move_if_mine(ws, next_state(ws, 0))
        wake_up_overdue(stack)
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
