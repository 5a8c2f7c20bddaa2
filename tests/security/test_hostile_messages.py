"""Hostile websocket messages and actions: refused before parsing or storing, and a consumer
that fails anyway closes its socket and lets go of its seat."""

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from rest_framework.authtoken.models import Token

from games.engine import get_game
from games.matches import actions, lifecycle
from games.matches.consumers import SYNC_SECONDS
from games.matches.models import Match, MatchAction, Seat, SeatSocket

NESTED = "[" * 4000 + "]" * 4000  # 8,000 bytes


@pytest.fixture
def running_dudo(alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=42)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    match.refresh_from_db()
    return match


async def open_socket(application, path, user=None):
    headers = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]
    if user is not None:
        key = (await database_sync_to_async(Token.objects.get_or_create)(user=user))[0].key
        headers.append((b"authorization", f"Token {key}".encode()))
    socket = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await socket.connect()
    assert connected
    return socket


async def close_frame(socket):
    output = await socket.receive_output(timeout=3)
    while output["type"] == "websocket.send":
        output = await socket.receive_output(timeout=3)
    return output


async def reply_after_state(socket):
    message = await socket.receive_json_from()
    while message["type"] == "state":
        message = await socket.receive_json_from()
    return message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_deeply_nested_arrays_are_refused_before_parsing(application, running_dudo, alice):
    socket = await open_socket(application, f"/ws/match/{running_dudo.pk}/", alice)
    await socket.send_to(text_data=NESTED)
    reply = await reply_after_state(socket)
    assert reply["code"] == "bad_message" and "Nest at most" in reply["message"]
    await socket.send_json_to({"type": "ping"})
    assert (await reply_after_state(socket))["type"] == "pong", "the socket lives on"
    await socket.disconnect()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_consumer_that_fails_closes_its_socket_and_its_seat_counts_out(
    application, running_dudo, alice, monkeypatch
):
    from games.matches import consumers

    async def broken(self, message):
        raise RuntimeError("a bug")

    monkeypatch.setattr(consumers.MatchConsumer, "on_ping", broken)
    socket = await open_socket(application, f"/ws/match/{running_dudo.pk}/", alice)
    await socket.receive_json_from()
    seat = await database_sync_to_async(Seat.objects.get)(match=running_dudo, number=0)
    assert seat.connections == 1
    await socket.send_json_to({"type": "ping"})
    assert await close_frame(socket) == {"type": "websocket.close", "code": 1011}
    seat = await database_sync_to_async(Seat.objects.get)(match=running_dudo, number=0)
    assert seat.connections == 0 and seat.disconnected_at is not None
    assert not await database_sync_to_async(SeatSocket.objects.filter(seat=seat).exists)()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_junk_on_the_lobby_socket_closes_it_cleanly(application):
    socket = await open_socket(application, "/ws/lobby/dudo/")
    await socket.send_to(text_data=NESTED)
    assert (await close_frame(socket))["type"] == "websocket.close"


def opening_bid(match):
    state = match.load_state()
    seat = get_game("dudo").to_act(state)[0]
    return seat, {"type": "bid", "quantity": 1, "face": 2}


@pytest.mark.django_db
@pytest.mark.parametrize(
    "extra, message",
    [
        ({"junk": "x"}, "no key 'junk'"),
        ({"face": 2, "quantity": 1, "type": "bid", "pad": "x" * 2_000_000}, "no key 'pad'"),
    ],
)
def test_unknown_keys_and_oversized_actions_are_refused_on_every_path(running_dudo, extra, message):
    seat, bid = opening_bid(running_dudo)
    user = running_dudo.seats.get(number=seat).user
    with pytest.raises(actions.MatchError, match=message):
        actions.submit_action(running_dudo.pk, user, {**bid, **extra}, running_dudo.seq)
    assert not MatchAction.objects.filter(match=running_dudo).exists()


@pytest.mark.django_db
def test_an_action_of_known_keys_but_too_many_bytes_is_refused(running_dudo):
    seat, bid = opening_bid(running_dudo)
    match = Match.objects.select_for_update().get(pk=running_dudo.pk)
    with pytest.raises(actions.MatchError, match="at most 4096 bytes"):
        actions.apply_action(match, seat, {**bid, "face": "6" * 5000}, seq=match.seq, source="api", now=None)


@pytest.mark.django_db
def test_the_http_api_refuses_a_nested_body_with_a_400(client, running_dudo):
    seat, _ = opening_bid(running_dudo)
    client.force_login(running_dudo.seats.get(number=seat).user)
    body = '{"seq": 0, "action": ' + NESTED + "}"
    answer = client.post(f"/api/matches/{running_dudo.pk}/actions/", body, content_type="application/json")
    assert answer.status_code == 400 and "Nest at most" in json.dumps(answer.json())



@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_flood_of_syncs_is_answered_at_the_socket_s_pace_not_a_state_each_at_once(
    application, running_dudo, alice
):
    """A tester's 500 `sync` messages got 500 whole states in 1.5 s."""
    socket = await open_socket(application, f"/ws/match/{running_dudo.pk}/", alice)
    for _ in range(40):
        await socket.send_json_to({"type": "sync"})
    loop = asyncio.get_running_loop()
    until = loop.time() + 1.0
    states = 0
    while loop.time() < until:
        if not await socket.receive_nothing(timeout=0.05, interval=0.01):
            states += (await socket.receive_json_from())["type"] == "state"
    await socket.disconnect()
    # The connection's own state and its announcement, then one answer a quarter second.
    assert 2 <= states <= 3 + 1.0 / SYNC_SECONDS, states


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_client_gone_while_its_socket_opened_is_no_failure_and_its_seat_counts_out(
    application, running_dudo, alice, caplog
):
    """uvicorn accepts no message after a handshake whose client left meanwhile (a page closed as
    its socket opened): the whole state it refuses is logged as a client gone, not a failure."""

    async def gone_at_handshake(scope, receive, send):
        async def refusing(message):
            if message["type"] == "websocket.send":
                raise RuntimeError("Expected ASGI message 'websocket.accept', 'websocket.close' ...")
            await send(message)

        await application(scope, receive, refusing)

    socket = await open_socket(gone_at_handshake, f"/ws/match/{running_dudo.pk}/", alice)
    assert (await close_frame(socket))["type"] == "websocket.close"
    seat = await database_sync_to_async(Seat.objects.get)(match=running_dudo, number=0)
    assert seat.connections == 0 and seat.disconnected_at is not None
    assert not [record for record in caplog.records if record.levelname == "ERROR"], caplog.text
    assert "left while the socket opened" in caplog.text
