"""Fair play in races and at the clock (docs/security.md, "Fair play"): no Dobble card's face before
"go", one reaction floor for every account in rated races, and a connected seat the clock plays
for three times in a row counted out. Each is tried as a script would, from outside."""

import json
import time
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

from games.dobble.deck import SHARED
from games.engine import get_game
from games.matches import actions, lifecycle, presence, scheduling, wakeups
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction
from tests.engines.test_dobble_helpers import right_claim
from tests.matches.test_consumers import connect

DOBBLE = get_game("dobble")


def dobble_duel(alice, bob, ranked=False, **table) -> Match:
    return lifecycle.start_seated_match(
        game="dobble", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=5, ranked=ranked, **table
    )


def faces_in(text: str) -> bool:
    """Does a message sent to a client carry any card's pictures?"""
    return '"symbols"' in text


def claim_from(view: dict, seat: int) -> dict:
    """What a script makes of a towering-inferno view: the symbol its card shares with the pile's."""
    own, pile = view["seats"][seat]["top"], view["pile"]["top"]
    return {"type": "claim", "symbol": SHARED[own["card"]][pile["card"]], "target": "pile", "at_ms": 0}


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def wait_for_go(client: APIClient, match: Match) -> dict:
    """Poll the match as a script would until its state has the cards' faces."""
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        state = client.get(f"/api/matches/{match.pk}/").json()["state"]
        if state["starts_in_ms"] == 0:
            return state
    raise AssertionError("go never came")


async def next_state(ws) -> tuple[str, dict]:
    """The next state message, as sent (text) and read."""
    while True:
        text = await ws.receive_from(timeout=5)
        message = json.loads(text)
        if message["type"] == "state":
            return text, message


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_before_go_no_socket_is_sent_a_face_and_at_go_every_one_is_sent_them(alice, bob, settings):
    settings.REALTIME_GET_READY_MS = 1500
    opened = await database_sync_to_async(
        lambda: lifecycle.create_match(game="dobble", players=2, host=alice, seed=5)
    )()
    await database_sync_to_async(lifecycle.join_match)(opened.pk, bob)
    from dubium.asgi import application

    seated, _, _ = await connect(application, opened.pk, alice)
    watching, _, _ = await connect(application, opened.pk)
    for ws in (seated, watching):
        assert (await next_state(ws))[1]["status"] == "open"
    match = await database_sync_to_async(lifecycle.start_match)(opened.pk, alice)  # the start is pushed to both
    for ws in (seated, watching):
        before_go = []
        while True:
            text, message = await next_state(ws)
            if message["starts_in_ms"] > 0:  # sent before go
                before_go.append(text)
            elif message["status"] == "running":
                break
        assert timezone.now() >= match.started_at
        assert before_go and not any(faces_in(text) for text in before_go)
        assert json.loads(before_go[-1])["view"]["face_down"] is True
        # the face-up cards come at go without being asked for
        assert message["view"]["pile"]["top"]["symbols"] and "face_down" not in message["view"]
    assert message["view"]["seats"][0]["top"] is not None
    await seated.disconnect()
    await watching.disconnect()


@pytest.mark.django_db
def test_before_go_the_http_state_the_page_and_the_replays_show_no_face(alice, bob, client, settings):
    settings.REALTIME_GET_READY_MS = 60_000
    match = dobble_duel(alice, bob)
    for reader in (api(alice), api(bob), api()):
        body = reader.get(f"/api/matches/{match.pk}/").content.decode()
        assert not faces_in(body)
        state = json.loads(body)["state"]
        assert state["view"]["face_down"] is True and state["view"]["pile"]["count"] == 53
        assert state["view"]["seats"][0]["cards"] == 1 and state["view"]["seats"][0]["top"] is None
        assert state["legal"] == [], "a list of claims names every symbol of the seat's own card"
    client.force_login(alice)
    assert not faces_in(client.get(f"/match/{match.pk}/").content.decode())
    assert api(alice).get(f"/api/matches/{match.pk}/replay/").status_code == 409
    assert api(alice).get(f"/api/matches/{match.pk}/replay/0/").status_code == 409
    claim = {"action": right_claim(match.load_state(), 0, "pile"), "seq": 0}
    refused = api(alice).post(f"/api/matches/{match.pk}/actions/", claim, format="json")
    assert refused.status_code == 400 and refused.json()["code"] == "not_started"


@pytest.mark.django_db
def test_a_rated_claim_sooner_than_a_person_can_react_is_a_false_start(alice, bob, settings):
    """The attack of the report: read the cards the moment they are sent, claim at once."""
    settings.REALTIME_GET_READY_MS = 300
    settings.REALTIME_REACTION_FLOOR_MS = 5000  # far above this machine's slowest answer, so the test cannot race
    match = dobble_duel(alice, bob, ranked=True)
    script = api(bob)
    state = wait_for_go(script, match)
    answer = script.post(f"/api/matches/{match.pk}/actions/", {"action": claim_from(state["view"], 1), "seq": 0},
                         format="json").json()  # fmt: skip
    [claim] = answer["view"]["history"]
    assert claim["false_start"] is True and claim["correct"] is False
    assert answer["view"]["seats"][1]["score"] == 0 and answer["view"]["pile"]["count"] == 53
    assert "1" in answer["view"]["lockouts"], "a false start costs the pause after a wrong claim"
    assert MatchAction.objects.get(match=match).action["false_start"] is True


@pytest.mark.django_db
def test_the_floor_counts_from_when_the_table_was_sent_the_cards(alice, bob, settings):
    settings.REALTIME_REACTION_FLOOR_MS = 200
    match = dobble_duel(alice, bob, ranked=True)
    go = match.started_at
    early = right_claim(match.load_state(), 0, "pile")
    match = actions.submit_action(match.pk, alice, early, 0, now=go + timedelta(milliseconds=199))
    assert match.load_state().history[-1]["false_start"] is True
    match = actions.submit_action(match.pk, bob, right_claim(match.load_state(), 1, "pile"), 1,
                                  now=go + timedelta(milliseconds=200))  # fmt: skip
    assert match.load_state().history[-1]["correct"] is True
    shown = Match.objects.get(pk=match.pk).shown_at
    assert shown >= go + timedelta(milliseconds=200), "the new cards were sent when bob's claim was applied"
    again = right_claim(match.load_state(), 1, "pile")
    match = actions.submit_action(match.pk, bob, again, 2, now=shown + timedelta(milliseconds=150))
    assert match.load_state().history[-1]["false_start"] is True
    match = actions.submit_action(match.pk, alice, right_claim(match.load_state(), 0, "pile"), 3,
                                  now=shown + timedelta(milliseconds=1200))  # fmt: skip
    assert match.load_state().history[-1] == {**match.load_state().history[-1], "correct": True}
    assert "false_start" not in match.load_state().history[-1]


@pytest.mark.django_db
def test_a_casual_race_has_no_floor_and_nobody_marks_their_own_claim(alice, bob):
    match = dobble_duel(alice, bob)
    claim = right_claim(match.load_state(), 0, "pile")
    with pytest.raises(MatchError) as refused:
        actions.submit_action(match.pk, alice, {**claim, "false_start": True}, 0)
    assert refused.value.code == "illegal"
    match = actions.submit_action(match.pk, alice, claim, 0, now=match.started_at + timedelta(milliseconds=25))
    assert match.load_state().history[-1]["correct"] is True


@pytest.mark.django_db
def test_a_bot_at_a_rated_race_waits_out_the_floor(make_user, settings):
    settings.REALTIME_REACTION_FLOOR_MS = 2000
    settings.REALTIME_LAG_CAP_MS = 150
    bots = [{"user": make_user(name, is_bot=True), "house_bot": "hard"} for name in ("b1", "b2")]
    match = lifecycle.start_seated_match(game="dobble", seats=bots, now=timezone.now(), seed=5, ranked=True,
                                         options={"bot_reaction_ms": 0})  # fmt: skip
    due = scheduling.due_events(match, match.load_state(), list(match.seats.select_related("user")))
    assert due and all(when >= match.started_at + timedelta(milliseconds=2000 + 150) for when, _, _ in due)
    wakeups.wake(match.pk, now=due[0][0])
    assert "false_start" not in MatchAction.objects.get(match=match).action


@pytest.mark.django_db
def test_passes_the_clock_makes_in_doubt_windows_never_count_a_player_out(alice, bob, carol):
    """Staying silent while others may doubt is an answer, not idleness: only own turns count."""
    start = timezone.now()
    users = {0: alice, 1: bob, 2: carol}
    match = lifecycle.start_seated_match(
        game="doubt-it", seats=[{"user": user} for user in users.values()], now=start, seed=8,
        options={"doubt_window_s": 0}, clock="turn", clock_initial_ms=30_000,
    )  # fmt: skip
    for number in users:
        presence.connected(match.pk, number, f"socket-{number}", True)
    engine = get_game("doubt-it")
    for _ in range(4):
        match = Match.objects.get(pk=match.pk)
        state = match.load_state()
        player = engine.to_act(state)[0]
        played = match.turn_started_at + timedelta(seconds=1)
        actions.submit_action(match.pk, users[player], engine.legal_actions(state, player)[0], match.seq, now=played)
        while Match.objects.get(pk=match.pk).load_state().waiting:  # the others let their clocks pass for them
            assert wakeups.wake(match.pk, now=Match.objects.get(pk=match.pk).wake_at)
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.RUNNING
    assert MatchAction.objects.filter(match=match, source="timeout").count() == 8
    assert not match.seats.exclude(forfeited_at=None).exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_idle_tab_is_counted_out_at_its_third_timeout_in_a_row(alice, bob, settings):
    """The report's game: bob's tab stays open, he never moves; the clock no longer wins it for him."""
    settings.MATCH_WAKEUPS = "manual"

    def start():
        match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5, clock="turn",
                                       clock_initial_ms=10_000)  # fmt: skip
        lifecycle.join_match(match.pk, bob)
        return lifecycle.start_match(match.pk, alice)

    match = await database_sync_to_async(start)()
    from dubium.asgi import application

    tab, connected, _ = await connect(application, match.pk, bob)  # open, and never a move
    assert connected and (await tab.receive_json_from(timeout=5))["type"] == "state"

    def play_on() -> Match:
        engine = get_game("dudo")
        while True:
            match = Match.objects.get(pk=match_id)
            if match.status != Match.Status.RUNNING:
                return match
            state = match.load_state()
            if engine.to_act(state) == [alice_seat]:
                bid = next(a for a in engine.legal_actions(state, alice_seat) if a["type"] == "bid")
                actions.submit_action(match_id, alice, bid, match.seq, now=match.turn_started_at + timedelta(seconds=1))
            else:
                wakeups.wake(match_id, now=match.wake_at)

    match_id = match.pk
    alice_seat = await database_sync_to_async(lambda: Match.objects.get(pk=match_id).seats.get(user=alice).number)()
    match = await database_sync_to_async(play_on)()
    assert match.result["forfeited"] == [1 - alice_seat]
    bobs = MatchAction.objects.filter(match_id=match_id, seat=1 - alice_seat)
    timeouts = await database_sync_to_async(lambda: list(bobs.values_list("source", flat=True)))()
    assert timeouts == ["timeout", "timeout"]
    await tab.disconnect()
