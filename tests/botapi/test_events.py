"""A bot driven from outside hears of its games on an event stream and reaches the ladder (docs/bots.md)."""

import json
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import ApplicationCommunicator, WebsocketCommunicator
from django.utils import timezone
from rest_framework.authtoken.models import Token

from botapi import events as events_module
from botapi import ladder, services
from botapi.models import BotProfile
from games.matches.models import Match
from ratings.models import RatingChange

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.timeout(60)]
HEADERS = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@database_sync_to_async
def driven_bot(owner, name: str, ladder_game: str = "dudo"):
    bot, token = services.create_bot(owner, name)
    BotProfile.objects.create(bot=bot, ladder=bool(ladder_game), ladder_game=ladder_game)
    return bot, token


async def listen(application, token: str) -> WebsocketCommunicator:
    socket = WebsocketCommunicator(
        application, "/ws/events/", headers=[*HEADERS, (b"authorization", f"Token {token}".encode())]
    )
    assert (await socket.connect())[0]
    return socket


async def test_the_ladder_seats_driven_bots_that_listen_tells_them_and_calls_off_a_match_they_skip(
    application, alice, bob
):
    ace, ace_token = await driven_bot(alice, "Ace")
    bee, bee_token = await driven_bot(bob, "Bee")
    assert await database_sync_to_async(ladder.run_ladder)() == []  # nobody listens: nobody is seated
    ace_events, bee_events = await listen(application, ace_token), await listen(application, bee_token)
    [match] = await database_sync_to_async(ladder.run_ladder)()
    players = await database_sync_to_async(lambda: match.players_label)()
    assert players in ("Ace v Bee", "Bee v Ace")
    for events in (ace_events, bee_events):
        told = await events.receive_json_from()
        assert (told["type"], told["match"]) == ("match_found", match.pk)
        assert told["about"] == f"Bot ladder: ranked Dudo, {players}"
    # A bot that connects again is told the same of the running match (it was told "" there).
    again = await listen(application, ace_token)
    reopened = await again.receive_json_from()
    assert (reopened["match"], reopened["about"]) == (match.pk, f"Bot ladder: ranked Dudo, {players}")
    later = timezone.now() + timedelta(seconds=ladder.SHOW_UP_SECONDS + 1)
    assert await database_sync_to_async(ladder.call_off_no_shows)(later) == [match]
    await match.arefresh_from_db()
    assert match.status == Match.Status.ABORTED
    assert not await RatingChange.objects.filter(match=match).aexists()
    notice = await ace_events.receive_json_from()
    assert notice["type"] == "notice" and "called off, not rated" in notice["text"]
    # a driven bot that stops moving loses on time
    assert (match.clock, match.clock_initial_ms) == (Match.Clock.PER_GAME, 180_000)
    # Listening but not playing: a tester's silent bot was called to a dead match every minute.
    assert await database_sync_to_async(ladder.run_ladder)(later) == []
    rested = later + ladder.NO_SHOW_REST
    assert len(await database_sync_to_async(ladder.run_ladder)(rested)) == 1
    for events in (ace_events, bee_events, again):
        await events.disconnect()
    assert not events_module.listening(ace.pk), "a bot that stopped listening is not seated again"


async def test_the_event_socket_opens_with_the_running_matches_and_waiting_challenges(application, alice, bob):
    ace, ace_token = await driven_bot(alice, "Ace", "")
    await driven_bot(bob, "Bee", "")
    started = await database_sync_to_async(services.challenge)(alice, "Ace", "dudo", ["house:random"])
    offer = await database_sync_to_async(services.challenge)(bob, "Bee", "dudo", ["Ace"], ranked=False)
    events = await listen(application, ace_token)
    first, second = await events.receive_json_from(), await events.receive_json_from()
    assert (first["type"], first["match"]) == ("match_found", started.pk)
    players = await database_sync_to_async(lambda: started.players_label)()
    assert first["about"] == f"ranked Dudo, {players}"  # what the match is, where no event names it
    assert (second["type"], second["id"], second["ranked"]) == ("bot_challenge", offer.pk, False)
    await events.disconnect()


async def http_stream(application, token: str) -> ApplicationCommunicator:
    scope = {
        "type": "http",
        "method": "GET",
        "path": "/api/stream/event",
        "query_string": b"",
        "headers": [*HEADERS, (b"authorization", f"Token {token}".encode())],
    }
    stream = ApplicationCommunicator(application, scope)
    await stream.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await stream.receive_output(10)
    assert start["status"] == 200 and (b"Content-Type", b"application/x-ndjson") in start["headers"]
    return stream


async def next_line(stream: ApplicationCommunicator) -> dict:
    while True:
        chunk = await stream.receive_output(10)
        if chunk["body"].strip():
            return json.loads(chunk["body"])


async def test_the_streamed_http_endpoint_gives_one_json_event_a_line_as_it_happens(application, alice, bob):
    ace, ace_token = await driven_bot(alice, "Ace", "")
    await driven_bot(bob, "Bee", "")
    stream = await http_stream(application, ace_token)
    offer = await database_sync_to_async(services.challenge)(bob, "Bee", "dudo", ["Ace"])
    assert (await next_line(stream))["id"] == offer.pk
    accepted = await database_sync_to_async(services.answer_challenge)(ace, offer.pk, accept=True)
    told = await next_line(stream)
    assert (told["type"], told["match"]) == ("match_found", accepted.match_id)
    await stream.send_input({"type": "http.disconnect"})
    await stream.wait(5)


async def test_the_stream_refuses_a_wrong_token(application):
    scope = {"type": "http", "method": "GET", "path": "/api/stream/event", "query_string": b"", "headers": HEADERS}
    stream = ApplicationCommunicator(application, scope)
    await stream.send_input({"type": "http.request", "body": b"", "more_body": False})
    assert (await stream.receive_output(10))["status"] == 401
    assert await Token.objects.acount() == 0


@pytest.mark.parametrize("transport", ["socket", "http"])
async def test_a_challenge_sent_while_the_stream_opens_is_told_once(application, alice, bob, monkeypatch, transport):
    """The stream listens, then reads the challenges waiting: one sent in between is both heard
    and read, and the bot is told of it once (accepting it a second time would fail)."""
    ace, ace_token = await driven_bot(alice, "Ace", "")
    await driven_bot(bob, "Bee", "")
    read = events_module.opening_events
    sent = []

    def challenged_meanwhile(user):
        sent.append(services.challenge(bob, "Bee", "dudo", ["Ace"], ranked=False))
        return read(user)

    monkeypatch.setattr(events_module, "opening_events", challenged_meanwhile)
    if transport == "socket":
        socket = await listen(application, ace_token)
        next_event, close = socket.receive_json_from, socket.disconnect
    else:
        stream = await http_stream(application, ace_token)

        async def next_event():
            return await next_line(stream)

        async def close():
            await stream.send_input({"type": "http.disconnect"})
            await stream.wait(5)

    assert (await next_event())["id"] == sent[0].pk
    accepted = await database_sync_to_async(services.answer_challenge)(ace, sent[0].pk, accept=True)
    told = await next_event()
    assert (told["type"], told["match"]) == ("match_found", accepted.match_id), "the challenge once"
    await close()
