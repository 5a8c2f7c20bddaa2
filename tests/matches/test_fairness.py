"""Fair real-time races: claims judged by when they were made (games/matches/fairness.py)."""

import asyncio
from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import get_game
from games.matches import actions, broadcast, fairness, lifecycle, scheduling, wakeups
from games.matches.errors import MatchError
from games.matches.fairness import DelayMeter
from games.matches.models import Match, MatchAction
from tests.engines.test_dobble_helpers import right_claim, wrong_claim
from tests.matches.test_consumers import connect


def test_the_delay_is_half_the_median_round_trip_capped(settings):
    settings.REALTIME_LAG_CAP_MS = 150
    meter = DelayMeter()
    assert meter.delay_ms() == 0 and meter.hold_seconds() == 0.15
    for sent, answered in ((0.0, 0.080), (2.0, 2.120), (4.0, 4.100)):
        ping = meter.ping(sent)
        assert meter.pong(ping, answered)
    assert meter.delay_ms() == 50  # median round trip 100 ms
    assert meter.hold_seconds() == pytest.approx(0.1)
    ping = meter.ping(6.0)
    assert meter.pong(ping, 7.0) and meter.pong(meter.ping(8.0), 9.0)
    assert meter.delay_ms() == 60  # median of 80, 100, 120, 1000, 1000 is 120
    meter.pong(meter.ping(10.0), 12.0)
    assert meter.delay_ms() == 150  # a client that answers late gains at most the cap


def test_an_unknown_stale_or_repeated_answer_is_not_counted():
    meter = DelayMeter()
    first = meter.ping(0.0)
    second = meter.ping(1.0)
    assert not meter.pong(first, 1.1)  # only the latest ping counts
    assert not meter.pong("x", 1.1)
    assert meter.pong(second, 1.2)
    assert not meter.pong(second, 1.3)
    assert meter.delay_ms() == 100


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_dobble_seat_is_pinged_and_its_claim_is_stamped_when_it_was_made(alice, bob, settings):
    from channels.db import database_sync_to_async

    settings.REALTIME_LAG_CAP_MS = 150

    def start():
        match = lifecycle.create_match(game="dobble", players=2, host=alice, seed=5)
        lifecycle.join_match(match.pk, bob)
        return lifecycle.start_match(match.pk, alice)

    match = await database_sync_to_async(start)()
    from dubium.asgi import application

    ws, connected, _ = await connect(application, match.pk, alice)
    assert connected
    pings = []
    while len(pings) < 2:  # the state, then a ping; answered 80 ms late, twice
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "ping":
            pings.append(message)
            await asyncio.sleep(0.08)
            await ws.send_json_to({"type": "pong", "id": message["id"]})
    delay = None
    while delay is None:
        message = await ws.receive_json_from(timeout=5)
        if message["type"] == "delay":
            delay = message
    assert delay["seat"] == 0 and 40 <= delay["ms"] <= 150
    claim = wrong_claim(match.load_state(), 0, "pile")
    sent_at = timezone.now()
    await ws.send_json_to({"type": "action", "action": claim, "seq": 0})
    while (await ws.receive_json_from(timeout=5))["type"] != "state":
        pass
    logged = await MatchAction.objects.aget(match_id=match.pk)
    started = (await Match.objects.aget(pk=match.pk)).started_at
    arrived_ms = (sent_at - started).total_seconds() * 1000
    assert arrived_ms - delay["ms"] - 60 <= logged.action["at_ms"] <= arrived_ms - delay["ms"] + 60
    assert get_game("dobble").realtime
    await ws.disconnect()


def dobble_table(host, bots, options=None):
    match = lifecycle.create_match(game="dobble", players=1 + len(bots), host=host, seed=5, options=options)
    for name in bots:
        lifecycle.add_house_bot(match.pk, host, name)
    return lifecycle.start_match(match.pk, host)


@pytest.mark.django_db
def test_a_house_bot_claims_no_sooner_than_the_tables_floor_when_people_play(alice, settings):
    settings.REALTIME_LAG_CAP_MS = 150
    match = dobble_table(alice, ["hard"], {"bot_reaction_ms": 2000})
    due = scheduling.due_events(match, match.load_state(), list(match.seats.select_related("user")))
    [(when, _, action)] = [event for event in due if event[1] == 1]
    assert when >= match.started_at + timedelta(milliseconds=2000 + 150)
    wakeups.wake(match.pk, now=when)
    logged = MatchAction.objects.get(match=match, seat=1)
    # stamped when the bot made it, not when the held race was decided
    assert logged.action["at_ms"] == round((when - match.started_at).total_seconds() * 1000) - 150


@pytest.mark.django_db
def test_bots_alone_at_a_table_have_no_floor(alice, make_user, settings):
    settings.REALTIME_LAG_CAP_MS = 150
    match = dobble_table(alice, ["hard"], {"bot_reaction_ms": 2000})
    seats = list(match.seats.select_related("user"))
    seats[0].house_bot = "hard"  # alice's seat played by a bot as well
    assert fairness.bot_floor(match, match.load_state(), seats) is None
    assert fairness.bot_floor(match, match.load_state(), list(match.seats.select_related("user")))


@pytest.mark.django_db
def test_an_asked_bots_early_answer_counts_as_made_at_the_floor(alice, settings):
    settings.REALTIME_LAG_CAP_MS = 100
    match = dobble_table(alice, ["hard"], {"bot_reaction_ms": 250})
    floor = match.started_at + timedelta(milliseconds=250)
    made = wakeups.hold_claim(match, match.load_state(), match.started_at)
    assert made == floor
    assert timezone.now() >= floor + timedelta(milliseconds=100)  # it waited for the race to be decided


@pytest.mark.django_db
def test_a_race_starts_at_go_after_the_get_ready_countdown(alice, bob, settings):
    settings.REALTIME_GET_READY_MS = 3000
    match = lifecycle.create_match(game="dobble", players=2, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    now = timezone.now()
    match = lifecycle.start_match(match.pk, alice, now=now)
    assert match.started_at == now + timedelta(seconds=3)  # game time 0 is "go"
    state = match.load_state()
    message = broadcast.match_message(match, state, list(match.seats.select_related("user")), 0)
    assert 2500 < message["starts_in_ms"] <= 3000
    claim = right_claim(state, 0, "pile")
    with pytest.raises(MatchError) as refused:
        actions.submit_action(match.pk, alice, claim, seq=match.seq, now=now + timedelta(seconds=1))
    assert refused.value.code == "not_started"
    assert refused.value.message == "The cards turn up at go, in 2.0 s: wait for the countdown."
    actions.submit_action(match.pk, alice, claim, seq=match.seq, now=now + timedelta(seconds=3.2))
    assert MatchAction.objects.get(match=match).action["at_ms"] == 200
