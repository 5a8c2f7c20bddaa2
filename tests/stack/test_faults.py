"""Faults on the real stack: Redis restarted empty, the database away for seconds, a worker
killed while an uploaded bot thinks. Whatever breaks, no move is lost or played twice and
every match goes on once the service is back."""

import time
import urllib.error
import urllib.request

import pytest

from tests.stack.client import (
    Player,
    call,
    first_move_if_mine,
    next_state,
    register,
    socket_for,
    started_duel,
    table_with_house_bot,
)

pytestmark = pytest.mark.stack
BID = {"type": "bid", "quantity": 1, "face": 2}
RAISE = {"type": "bid", "quantity": 2, "face": 2}


def duel_players(stack, host: str, guest: str) -> tuple[dict, dict[int, Player]]:
    """A started Dudo duel, host on the first web process and guest on the second, by seat."""
    web1, web2 = stack["ports"]
    host_token, guest_token = register(web1, host), register(web2, guest)
    match = started_duel(web1, host_token, web2, guest_token)
    players = [Player(web1, match["id"], host_token), Player(web2, match["id"], guest_token)]
    hello = [player.state(0) for player in players]
    return hello[0], {state["seat"]: player for state, player in zip(hello, players, strict=True)}


def connections_by_seat(stack, match_id: int) -> dict[int, int]:
    """What the site believes: how many sockets each seat has open (drives grace and forfeits)."""
    import psycopg

    with psycopg.connect(stack["env"]["DATABASE_URL"].replace("postgres://", "postgresql://")) as db:
        rows = db.execute("SELECT number, connections FROM matches_seat WHERE match_id = %s", [match_id])
        return dict(rows.fetchall())


def test_a_redis_restart_mid_match_loses_no_move(stack):
    hello, players = duel_players(stack, "redis-ann", "redis-ben")
    first = hello["to_act"][0]
    players[first].move(BID, 0)
    assert all(player.state(1)["seq"] == 1 for player in players.values())

    stack["restart"]("redis")  # back at once, and empty: groups, queues and cache are gone

    second = 1 - first
    assert players[second].play(RAISE, 1)["seq"] == 2
    heard = players[first].state(2)
    assert heard["view"]["bid"]["quantity"] == 2, "the other seat hears the move made after the restart"
    detail = call(stack["ports"][0], "GET", f"/api/matches/{hello['match']}/")
    assert detail["seq"] == 2
    assert connections_by_seat(stack, hello["match"]) == {0: 1, 1: 1}, "sockets that died were counted out"


def test_the_sockets_of_a_crashed_web_process_are_counted_out(stack):
    web1, web2 = stack["ports"]
    host, guest = register(web1, "crash-gus"), register(web2, "crash-hal")
    match = started_duel(web1, host, web2, guest)
    Player(web1, match["id"], host).state(0)
    assert connections_by_seat(stack, match["id"]) == {0: 1, 1: 0}
    stack["restart"]("web0")  # the socket dies without a goodbye
    deadline = time.monotonic() + 20  # three missed one-second beats, then the beat task's turn
    while connections_by_seat(stack, match["id"])[0] and time.monotonic() < deadline:
        time.sleep(0.5)
    assert connections_by_seat(stack, match["id"]) == {0: 0, 1: 0}


def test_a_house_bot_move_lost_with_the_redis_queue_is_still_played(stack):
    web1, _ = stack["ports"]
    token = register(web1, "redis-cat")
    match = table_with_house_bot(web1, token)
    stack["crash"]("worker")  # the bot's wake-up waits in the Redis queue...
    call(web1, "POST", f"/api/matches/{match['id']}/start/", {}, token)
    with socket_for(web1, match["id"], token) as ws:
        state = first_move_if_mine(ws, next_state(ws, 0))
    stack["restart"]("redis")  # ...and is gone with it
    stack["restart"]("worker")
    answered = Player(web1, match["id"], token).state(state["seq"] + 1)
    assert answered["to_act"] == [answered["seat"]], "the beat sweep woke the bot from the stored wake-up time"


def test_a_database_outage_mid_match_loses_no_move(stack):
    hello, players = duel_players(stack, "db-dan", "db-eve")
    first, second = hello["to_act"][0], 1 - hello["to_act"][0]
    players[first].move(BID, 0)
    assert players[second].state(1)["seq"] == 1

    stack["cut_database"](3)
    with pytest.raises(urllib.error.HTTPError) as unhealthy:
        urllib.request.urlopen(f"http://127.0.0.1:{stack['ports'][0]}/healthz", timeout=5)
    assert unhealthy.value.code == 503
    assert players[second].play(RAISE, 1)["seq"] == 2, "the move is taken once the database is back"
    assert players[first].state(2)["view"]["bid"]["quantity"] == 2
    assert call(stack["ports"][0], "GET", f"/api/matches/{hello['match']}/")["seq"] == 2


def test_a_worker_killed_while_an_uploaded_bot_thinks_loses_nothing(stack):
    web1, _ = stack["ports"]
    token = register(web1, "crash-fay")
    call(web1, "POST", "/api/bots/", {"name": "slow-bot"}, token)
    source = (
        "import time\n"
        "def choose(view, legal):\n"
        "    time.sleep(0.6)\n"
        "    bids = [a for a in legal if a['type'] == 'bid']\n"
        "    return bids[0] if bids and view['bid'] is None else legal[-1]\n"
    )
    call(web1, "POST", "/api/bots/slow-bot/code/", {"game": "dudo", "source": source}, token)
    match = call(web1, "POST", "/api/bots/slow-bot/matches/", {"game": "dudo", "opponents": ["house:random"]}, token)
    deadline = time.monotonic() + 30
    while call(web1, "GET", f"/api/matches/{match['id']}/")["seq"] < 2:  # under way: the bot thinks 0.6 s a move
        assert time.monotonic() < deadline, "the match did not get going"
        time.sleep(0.1)
    stack["restart"]("bots", down_seconds=1)  # the sandbox and the bot worker's threads die mid-move
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        detail = call(web1, "GET", f"/api/matches/{match['id']}/")
        if detail["status"] == "finished":
            break
        time.sleep(0.5)
    assert detail["status"] == "finished", detail
    version = call(web1, "GET", "/api/bots/", token=token)[0]["versions"][0]
    assert version["failures"] == 0, "a crash of ours is not held against the bot"
