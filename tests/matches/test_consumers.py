"""The websocket protocol, end to end through the ASGI application (docs/protocol.md)."""

import asyncio
import json
import time

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.db import connections
from rest_framework.authtoken.models import Token

from games.engine import get_game
from games.matches import broadcast, consumers, lifecycle
from games.matches.models import Match
from tests.matches.conftest import OPENING_BID

# A socket test takes seconds; one stuck on a lost service connection fails in a minute, not five.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.timeout(60)]


async def connect(application, match_id, user=None, token=None):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if token is None and user is not None:
        token = await token_for(user)
    if token is not None:
        headers.append((b"authorization", f"Token {token}".encode()))
    communicator = WebsocketCommunicator(application, f"/ws/match/{match_id}/", headers=headers)
    connected, code = await communicator.connect()
    return communicator, connected, code


async def next_reply(ws):
    """The next message that is not a state or a seats push (connections announce themselves with one)."""
    message = await ws.receive_json_from()
    while message["type"] in ("state", "seats"):
        message = await ws.receive_json_from()
    return message


async def token_for(user):
    from channels.db import database_sync_to_async

    return (await database_sync_to_async(Token.objects.get_or_create)(user=user))[0].key


@pytest.fixture
def match_ids(alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=42)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    match.refresh_from_db()
    first = get_game("dudo").to_act(match.load_state())[0]
    return {"match": match.pk, "first": first, "users": {0: alice, 1: bob}}


async def test_a_seated_player_gets_their_own_view_on_connecting(application, match_ids):
    first = match_ids["first"]
    ws, connected, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    assert connected
    hello = await ws.receive_json_from()
    assert (hello["type"], hello["seat"], hello["seq"], hello["to_act"]) == ("state", first, 0, [first])
    match = await Match.objects.aget(pk=match_ids["match"])
    assert hello["view"] == get_game("dudo").view(match.load_state(), first)
    await ws.disconnect()


async def test_an_action_reaches_every_seat_and_spectators_with_their_own_views(application, match_ids, carol):
    first = match_ids["first"]
    mover, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    other, _, _ = await connect(application, match_ids["match"], match_ids["users"][1 - first])
    watcher, _, _ = await connect(application, match_ids["match"], carol)
    for ws in (mover, other, watcher):
        await ws.receive_json_from()
    await mover.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    pushed = {}
    for ws, seat in ((mover, first), (other, 1 - first), (watcher, None)):
        message = await ws.receive_json_from()
        while message["seq"] != 1:
            message = await ws.receive_json_from()
        pushed[seat] = message
        await ws.disconnect()
    state = (await Match.objects.aget(pk=match_ids["match"])).load_state()
    engine = get_game("dudo")
    for seat, message in pushed.items():
        assert message["seat"] == seat
        assert message["view"] == engine.view(state, seat)


async def test_no_message_to_a_seat_carries_another_seats_dice(application, match_ids):
    first = match_ids["first"]
    other_seat = 1 - first
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    hello = await ws.receive_json_from()
    match = await Match.objects.aget(pk=match_ids["match"])
    engine = get_game("dudo")
    hidden = engine.view(match.load_state(), other_seat)["dice"]
    assert hello["view"]["dice"] != hidden or hello["view"]["dice"] == engine.view(match.load_state(), first)["dice"]
    for key in ("dice",):
        assert key in hello["view"]
    assert json.dumps(hidden) not in json.dumps({k: v for k, v in hello["view"].items() if k != "dice"})
    await ws.disconnect()


@pytest.mark.parametrize(
    ("raw", "code"),
    [
        ("not json", "bad_message"),
        ("[1, 2]", "bad_message"),
        ('{"no": "type"}', "bad_message"),
        ('{"type": "dance"}', "bad_message"),
        ("x" * 9000, "bad_message"),
        ('{"type": "action", "action": {"type": "bid"}, "seq": 0}', "illegal"),
        ('{"type": "action", "action": "doubt", "seq": 0}', "illegal"),
    ],
)
async def test_bad_input_gets_an_error_message_and_the_connection_stays_open(application, match_ids, raw, code):
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][match_ids["first"]])
    await ws.receive_json_from()
    await ws.send_to(text_data=raw)
    reply = await next_reply(ws)
    assert (reply["type"], reply["code"]) == ("error", code)
    await ws.send_json_to({"type": "ping"})
    assert await next_reply(ws) == {"type": "pong"}
    await ws.disconnect()


async def test_a_stale_move_is_refused(application, match_ids):
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][match_ids["first"]])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "action", "action": OPENING_BID, "seq": 5})
    reply = await next_reply(ws)
    assert reply["code"] == "stale"
    await ws.disconnect()


async def test_a_player_cannot_act_for_another_seat(application, match_ids):
    waiting = 1 - match_ids["first"]
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][waiting])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "action", "seat": match_ids["first"], "action": OPENING_BID, "seq": 0})
    reply = await next_reply(ws)
    assert (reply["code"], reply["message"]) == ("not_your_turn", "It is not your turn.")
    await ws.disconnect()


async def test_a_spectator_cannot_act(application, match_ids, carol):
    ws, _, _ = await connect(application, match_ids["match"], carol)
    hello = await ws.receive_json_from()
    assert hello["seat"] is None
    await ws.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    reply = await next_reply(ws)
    assert reply["code"] == "not_seated"
    await ws.disconnect()


async def test_an_anonymous_visitor_watches_but_a_bad_token_is_refused_at_the_handshake(application, match_ids):
    """A bot with a mistyped or retired token was let in as a spectator, its moves refused as "not seated"."""
    ws, connected, _ = await connect(application, match_ids["match"], token="not-a-token")
    assert not connected
    anonymous = WebsocketCommunicator(
        application, f"/ws/match/{match_ids['match']}/", headers=[(b"origin", b"http://127.0.0.1:8000"),
        (b"host", b"127.0.0.1:8000")],
    )  # fmt: skip
    assert (await anonymous.connect())[0]
    assert (await anonymous.receive_json_from())["seat"] is None
    await anonymous.disconnect()


async def test_an_unknown_match_closes_the_socket_with_4404_after_the_handshake(application, alice):
    """Not a refused handshake (a 403 the page cannot tell from a dropped line): the page
    reads 4404, says the match does not exist and stops reconnecting."""
    ws, connected, _ = await connect(application, 999999, alice)
    assert connected
    assert (await ws.receive_output())["code"] == 4404
    # The page goes away after a close; a consumer left waiting on Redis outlives the test's loop.
    await ws.disconnect()


async def test_a_reconnecting_player_gets_the_full_current_view(application, match_ids):
    first = match_ids["first"]
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    await ws.receive_json_from()
    await ws.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    await ws.receive_json_from()
    await ws.disconnect()
    again, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    hello = await again.receive_json_from()
    assert hello["seq"] == 1 and hello["view"]["history"]
    await again.disconnect()


async def test_chat_reaches_the_table_as_plain_text_and_is_rate_limited(application, match_ids, carol):
    player, _, _ = await connect(application, match_ids["match"], match_ids["users"][0])
    watcher, _, _ = await connect(application, match_ids["match"], carol)
    await player.receive_json_from()
    await watcher.receive_json_from()
    await player.send_json_to({"type": "chat", "text": "<b>good luck</b>"})
    heard = await next_reply(watcher)
    assert (heard["player"], heard["text"]) == ("alice", "<b>good luck</b>")
    for _ in range(5):
        await player.send_json_to({"type": "chat", "text": "spam"})
    replies = [await next_reply(player) for _ in range(6)]
    assert {
        "type": "error",
        "code": "rate_limited",
        "message": "Slow down: at most 5 messages every 10 seconds.",
    } in replies
    await player.disconnect()
    await watcher.disconnect()


async def test_a_socket_beats_while_open_and_is_counted_out_when_it_closes(application, match_ids, settings):
    from channels.db import database_sync_to_async

    from games.matches.models import Seat, SeatSocket

    settings.MATCH_SOCKET_HEARTBEAT_SECONDS = 0.05
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][0])
    await ws.receive_json_from()
    socket = await database_sync_to_async(SeatSocket.objects.get)(seat__number=0)
    beaten = socket
    for _ in range(200):  # a beat every 50 ms, at the busy machine's pace
        beaten = await database_sync_to_async(SeatSocket.objects.get)(pk=socket.pk)
        if beaten.last_seen > socket.last_seen:
            break
        await asyncio.sleep(0.05)
    assert beaten.last_seen > socket.last_seen
    await ws.disconnect()
    assert not await database_sync_to_async(SeatSocket.objects.exists)()
    seat = await database_sync_to_async(Seat.objects.get)(match_id=match_ids["match"], number=0)
    assert seat.connections == 0


async def test_an_opening_socket_is_sent_the_whole_state_once_and_the_table_hears_that_it_came(application, match_ids):
    first = match_ids["first"]
    there, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    assert [seat["connected"] for seat in (await there.receive_json_from())["seats"]] == [
        number == first for number in range(2)
    ]
    coming, _, _ = await connect(application, match_ids["match"], match_ids["users"][1 - first])
    whole = await coming.receive_json_from()
    assert "history_start" not in whole and [seat["connected"] for seat in whole["seats"]] == [True, True]
    heard = await there.receive_json_from()
    assert (heard["type"], heard["seq"], heard["seats"][1 - first]["connected"]) == ("seats", 0, True)
    assert "view" not in heard and "legal" not in heard, "who is at the table, not every seat's view again"
    assert await coming.receive_nothing(timeout=0.3), "its own coming is no news to it: its whole state said so"
    await there.disconnect()
    await coming.disconnect()


async def test_a_player_who_leaves_a_running_table_is_shown_away_with_their_grace_to_come_back(
    application, match_ids, settings
):
    first = match_ids["first"]
    there, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    await there.receive_json_from()
    leaving, _, _ = await connect(application, match_ids["match"], match_ids["users"][1 - first])
    await leaving.receive_json_from()
    await there.receive_json_from()  # the other came
    await there.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    assert (await there.receive_json_from())["seq"] == 1
    await leaving.receive_json_from()
    await leaving.disconnect()
    heard = await there.receive_json_from()
    assert (heard["type"], heard["seq"], heard["seats"][1 - first]["connected"]) == ("seats", 1, False)
    grace = settings.MATCH_DISCONNECT_GRACE_SECONDS * 1000
    assert 0 < heard["clocks"]["away_ms_left"][str(1 - first)] <= grace, "its turn: the grace to come back counts"
    await there.disconnect()


async def test_a_push_carries_the_latest_history_entries_and_a_sync_all_of_them(application, match_ids):
    first = match_ids["first"]
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    hello = await ws.receive_json_from()
    assert "history_start" not in hello
    await ws.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    pushed = await ws.receive_json_from()
    await ws.send_json_to({"type": "sync"})
    whole = await ws.receive_json_from()
    assert pushed["seq"] == whole["seq"] == 1 and "history_start" not in whole
    assert whole["view"]["history"][pushed["history_start"] :] == pushed["view"]["history"]
    assert whole["view"]["history"][: pushed["history_start"]] == hello["view"]["history"][: pushed["history_start"]]
    await ws.disconnect()


async def test_a_push_reaches_the_socket_while_the_database_thread_is_busy(application, match_ids):
    """A socket forwards what its match pushes without waiting for the process's database
    thread: at a busy table that thread is writing other moves (Channels' default dispatch hopped
    to it before every message)."""
    import threading

    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from games.matches import broadcast

    first = match_ids["first"]
    ws, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    await ws.receive_json_from()
    holding, release = threading.Event(), threading.Event()

    def hold():
        holding.set()
        release.wait(30)

    busy = asyncio.ensure_future(database_sync_to_async(hold)())
    try:
        assert await asyncio.to_thread(holding.wait, 10), "the database thread is now waiting on `release`"
        pushed = broadcast.push({"type": "chat", "text": "heard at once"})
        await get_channel_layer().group_send(
            broadcast.player_group(match_ids["match"], match_ids["users"][first].pk), pushed
        )
        message = await ws.receive_json_from(timeout=5)
        while message["type"] == "state":  # a connection announces itself with one
            message = await ws.receive_json_from(timeout=5)
        assert message == {"type": "chat", "text": "heard at once"}
        assert not busy.done(), "the database thread was busy all along"
    finally:
        release.set()
        await busy
    await ws.disconnect()


async def test_a_push_a_seat_missed_is_made_good_at_the_heartbeat_after_next(application, match_ids):
    """The seat was counted out while its process could not reach the database, so the move's
    push left without it: the heartbeats find the socket behind its match and send the state."""
    from channels.db import database_sync_to_async

    from games.matches.actions import submit_action
    from games.matches.consumers import SEAT_SOCKETS
    from games.matches.models import Seat

    first = match_ids["first"]
    waiting, _, _ = await connect(application, match_ids["match"], match_ids["users"][1 - first])
    assert (await waiting.receive_json_from())["seq"] == 0
    missed = Seat.objects.filter(match_id=match_ids["match"], number=1 - first)
    await database_sync_to_async(missed.update)(connections=0)
    await database_sync_to_async(submit_action)(match_ids["match"], match_ids["users"][first], OPENING_BID, 0)
    assert await waiting.receive_nothing(timeout=0.3), "the push went to the seats counted in"

    await SEAT_SOCKETS.beat_once()
    assert await waiting.receive_nothing(timeout=0.3), "a push may still be on its way: it has a beat"
    await SEAT_SOCKETS.beat_once()
    repaired = await waiting.receive_json_from(timeout=5)
    assert (repaired["type"], repaired["seq"], repaired["seat"]) == ("state", 1, 1 - first)
    assert (repaired["view"]["bid"]["quantity"], repaired["view"]["bid"]["face"]) == (1, 2)
    await SEAT_SOCKETS.beat_once()
    assert await waiting.receive_nothing(timeout=0.3), "a socket that has heard the latest is sent nothing more"
    await waiting.disconnect()


async def test_a_socket_that_hears_every_push_is_never_resynced(application, match_ids):
    from games.matches.consumers import SEAT_SOCKETS

    first = match_ids["first"]
    mover, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    await mover.receive_json_from()
    for _ in range(2):
        await SEAT_SOCKETS.beat_once()
    await mover.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    assert (await mover.receive_json_from(timeout=5))["seq"] == 1
    for _ in range(3):
        await SEAT_SOCKETS.beat_once()
    assert await mover.receive_nothing(timeout=0.3)
    await mover.disconnect()


async def test_a_socket_opened_with_a_token_closes_when_the_token_is_replaced(application, match_ids, alice):
    """A leaked bot token replaced by its owner kept working on a socket the thief had left open."""
    ws, connected, _ = await connect(application, match_ids["match"], alice)
    assert connected
    await ws.receive_json_from()
    await database_sync_to_async(lambda: Token.objects.filter(user=alice).delete())()
    await database_sync_to_async(broadcast.close_token_sockets)(alice.pk)
    output = await ws.receive_output()
    while output["type"] != "websocket.close":  # pushes already on their way
        output = await ws.receive_output()
    assert output["code"] == 4401


async def test_a_socket_is_not_sent_a_state_older_than_one_it_has(application, match_ids):
    """Two web processes' pushes have no order between them (a process hands its own sockets theirs
    at once, the other's come through Redis): an older state arriving late is not sent on, so a
    page never goes back to a move it has seen superseded."""
    from channels.layers import get_channel_layer

    first = match_ids["first"]
    mover, _, _ = await connect(application, match_ids["match"], match_ids["users"][first])
    assert (await mover.receive_json_from())["seq"] == 0
    await mover.send_json_to({"type": "action", "action": OPENING_BID, "seq": 0})
    message = await mover.receive_json_from(timeout=5)
    while message["seq"] != 1:
        message = await mover.receive_json_from(timeout=5)
    group = broadcast.player_group(match_ids["match"], match_ids["users"][first].pk)
    late = broadcast.push({"type": "state", "seq": 0, "late": True})
    same = broadcast.push({"type": "state", "seq": 1, "again": True})
    await get_channel_layer().group_send(group, late)
    await get_channel_layer().group_send(group, same)
    assert (await mover.receive_json_from(timeout=5)).get("again"), "the older one was dropped, the same seq sent"
    await mover.disconnect()


def committed_seq(match_id: int) -> tuple[int, list[int]]:
    """The match's seq and its logged moves' seqs as a connection of the test's own reads them:
    what is committed, not what the server's transaction holds."""
    reader = connections.create_connection("default")
    try:
        with reader.cursor() as cursor:
            cursor.execute("SELECT seq FROM matches_match WHERE id = %s", [match_id])
            (seq,) = cursor.fetchone()
            cursor.execute("SELECT seq FROM matches_matchaction WHERE match_id = %s ORDER BY seq", [match_id])
            return seq, [row[0] for row in cursor.fetchall()]
    finally:
        reader.close()


async def test_every_seat_hears_of_a_move_only_once_it_is_committed(application, match_ids, monkeypatch):
    """Each move's commit is held back 0.3 s after the move is written: a push sent before the
    commit would reach the sockets meanwhile. As each seat's push arrives, a database connection
    of the test's own already reads the move, and the match at its seq."""
    move = consumers.submit_action

    def slow_to_commit(*args):
        written = move(*args)
        time.sleep(0.3)  # inside the write group's transaction: its commit waits
        return written

    monkeypatch.setattr(consumers, "submit_action", slow_to_commit)
    match_id, first = match_ids["match"], match_ids["first"]
    sockets = {}
    for number in (first, 1 - first):
        sockets[number], _, _ = await connect(application, match_id, match_ids["users"][number])
        latest = await sockets[number].receive_json_from()
    assert (await sockets[first].receive_json_from())["type"] == "seats"
    mover = first
    for _ in range(3):
        await sockets[mover].send_json_to(
            {"type": "action", "action": latest["legal"][0] if latest["legal"] else OPENING_BID, "seq": latest["seq"]}
        )
        for number in (1 - mover, mover):  # the mover's own socket waits for its move's answer
            pushed = await sockets[number].receive_json_from(timeout=10)
            seq, logged = await asyncio.to_thread(committed_seq, match_id)
            assert pushed["type"] == "state" and seq == pushed["seq"] and logged[-1] == pushed["seq"]
            if number == 1 - mover:
                latest = pushed
        mover = 1 - mover
    for socket in sockets.values():
        await socket.disconnect()
