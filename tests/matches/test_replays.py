"""Replays show what the table saw; a player may add their own hand, nobody anyone else's."""

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from dubium import demo
from games.engine import get_game
from games.matches import actions, lifecycle, replays, wakeups

pytestmark = pytest.mark.django_db


@pytest.fixture
def finished_dubito(db):
    return demo.play_bot_match("dubito", ["heuristic", "random"], seed=9)


def test_a_spectator_replay_never_shows_a_hand(client, finished_dubito):
    last = client.get(f"/api/matches/{finished_dubito.pk}/replay/{finished_dubito.seq}/").json()
    assert last["view"]["seat"] is None and not last["view"].get("hand")


@pytest.mark.parametrize("viewer", ["anonymous", "other player", "outsider"])
def test_nobody_sees_another_seats_hand_even_after_the_end(client, finished_dubito, alice, viewer):
    if viewer == "other player":
        client.force_login(finished_dubito.seats.get(number=0).user)
    elif viewer == "outsider":
        client.force_login(alice)
    response = client.get(f"/api/matches/{finished_dubito.pk}/replay/3/?seat=1")
    assert response.status_code == 403 and response.json()["code"] == "not_your_seat"


def test_a_player_replays_the_match_with_their_own_hand(client, finished_dubito):
    player = finished_dubito.seats.get(number=1).user
    client.force_login(player)
    frame = client.get(f"/api/matches/{finished_dubito.pk}/replay/3/?seat=1").json()
    assert frame["view"]["seat"] == 1 and frame["view"]["hand"]
    html = client.get(f"/match/{finished_dubito.pk}/replay/").content.decode()
    assert "you, with your hand" in html and player.username in html


def test_a_bots_owner_replays_the_match_with_the_bots_hand_and_nobody_elses(client, finished_dubito, alice):
    """A bot has no password to log in with: its owner could never see what it saw."""
    bot = get_user_model().objects.create_user("Dicey", is_bot=True, bot_owner=alice)
    match = finished_dubito
    match.seats.filter(number=0).update(user=bot)  # the game alice's bot played
    client.force_login(alice)
    frame = client.get(f"/api/matches/{match.pk}/replay/3/?seat=0").json()
    assert frame["view"]["seat"] == 0 and frame["view"]["hand"]
    assert client.get(f"/api/matches/{match.pk}/replay/3/?seat=1").status_code == 403
    html = client.get(f"/match/{match.pk}/replay/").content.decode()
    assert '<option value="0" selected>Dicey, with its hand</option>' in html
    # The whole record, every hand in it, once the game is over: what the bot saw and what it faced (issue 36).
    assert "Export JSON" in html and client.get(f"/api/matches/{match.pk}/replay/").status_code == 200


def test_the_replay_page_offers_no_seat_to_a_viewer_who_did_not_play(client, finished_dubito, alice):
    client.force_login(alice)
    html = client.get(f"/match/{finished_dubito.pk}/replay/").content.decode()
    assert 'id="replay-seat"' not in html and "Nobody else's hand is shown" in html


def test_an_unknown_or_unfinished_match_gets_a_page_in_words(client, finished_dubito):
    missing = client.get("/match/999999/")
    assert missing.status_code == 404 and "This match does not exist." in missing.content.decode()
    assert "This match does not exist." in client.get("/match/999999/replay/").content.decode()
    finished_dubito.status = "running"
    finished_dubito.save(update_fields=["status"])
    early = client.get(f"/match/{finished_dubito.pk}/replay/")
    assert early.status_code == 404 and "The replay opens when the match ends." in early.content.decode()


def test_a_replay_marks_where_a_player_resigned_among_the_moves(alice, bob, carol):
    """Resigning is no move of the game: the replay puts it after the moves made before it, from
    the step it happened on, in the words the table uses."""
    match = lifecycle.create_match(game="dudo", players=3, host=alice, seed=4)
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    start = timezone.now()
    lifecycle.start_match(match.pk, alice, now=start)
    users = {seat.number: seat.user for seat in match.seats.all()}
    carols = match.seats.get(user=carol).number
    engine = get_game("dudo")
    for second in range(1, 7):
        match.refresh_from_db()
        state = match.load_state()
        seat = engine.to_act(state)[0]
        if second == 3:
            lifecycle.leave_match(match.pk, carol, now=start + timedelta(seconds=second - 0.5))
        if seat == carols and second > 3:
            wakeups.wake(match.pk, now=match.wake_at)  # the house bot that plays on for her
        elif seat != carols:
            now = start + timedelta(seconds=second)
            legal = engine.legal_actions(state, seat)  # doubt a standing bid, else open lowest: short rounds
            move = {"type": "doubt"} if {"type": "doubt"} in legal else legal[0]
            actions.submit_action(match.pk, users[seat], move, match.seq, now=now)
    match.refresh_from_db()
    resigned_at = match.seats.get(user=carol).forfeited_at
    before = match.actions.filter(created_at__lte=resigned_at).count()
    assert 0 < before < match.seq
    assert replays.frame(match, before - 1, None)["gone"] == []
    history = replays.frame(match, before, None)["view"]["history"]
    mark = replays.frame(match, before, None)["gone"]
    assert mark == [{"seat": carols, "why": "resigned", "words": "resigned", "at": len(history)}]
    assert replays.frame(match, match.seq, None)["gone"] == mark, "kept at its place as the moves go on"
    for step in (1, before, match.seq):  # where each step's own entries start (a doubt's reveal shows on its step)
        earlier = replays.frame(match, step - 1, None)["view"]["history"]
        assert replays.frame(match, step, None)["new_from"] == len(earlier)
