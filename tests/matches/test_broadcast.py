"""What a change sends: the same size however long the game has run."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games.matches import broadcast, lifecycle, presence
from games.matches.actions import submit_action
from games.matches.models import Match

pytestmark = pytest.mark.django_db


def test_a_push_holds_the_tail_of_the_history_that_the_whole_message_holds_in_full():
    users = [get_user_model().objects.create_user(f"p{n}") for n in range(4)]
    match = lifecycle.start_seated_match(
        game="doubt-it", seats=[{"user": u} for u in users], now=timezone.now(), options={"max_plays": 5000}
    )
    rng = random.Random(5)
    while match.seq < 60 and match.status == Match.Status.RUNNING:
        state = match.load_state()
        seat = rng.choice(match.engine.to_act(state))
        match = submit_action(match.pk, users[seat], rng.choice(match.engine.legal_actions(state, seat)), match.seq)
    state, seats = match.load_state(), list(match.seats.select_related("user"))
    whole = broadcast.match_message(match, state, seats, 0)
    pushed = broadcast.match_message(match, state, seats, 0, broadcast.HISTORY_TAIL)
    assert len(whole["view"]["history"]) > broadcast.HISTORY_TAIL
    assert len(pushed["view"]["history"]) == broadcast.HISTORY_TAIL
    assert whole["view"]["history"][pushed["history_start"] :] == pushed["view"]["history"]
    unchanged = ("seq", "status", "seat", "seats", "to_act", "legal", "result")
    assert {key: pushed[key] for key in unchanged} == {key: whole[key] for key in unchanged}


def test_a_move_is_pushed_to_the_seats_with_an_open_socket_and_to_spectators(
    monkeypatch, django_capture_on_commit_callbacks
):
    users = [get_user_model().objects.create_user(f"p{n}") for n in range(2)]
    match = lifecycle.start_seated_match(game="dudo", seats=[{"user": u} for u in users], now=timezone.now(), seed=3)
    presence.connected(match.pk, 1, "socket-of-seat-1", True)
    sent = []
    monkeypatch.setattr(broadcast, "deliver", sent.extend)
    state = match.load_state()
    seat = match.engine.to_act(state)[0]
    with django_capture_on_commit_callbacks(execute=True):
        submit_action(match.pk, users[seat], match.engine.legal_actions(state, seat)[0], match.seq)
    assert [group for group, _ in sent] == [
        broadcast.player_group(match.pk, users[1].pk),
        broadcast.watch_group(match.pk),
    ]


def test_a_match_stopped_before_its_first_move_still_shows_the_position_it_dealt():
    """No snapshot is written at the start; a started match whose status later moves on (aborted
    by hand in the admin, say) is still dealt, from its seed."""
    users = [get_user_model().objects.create_user(f"p{n}") for n in range(2)]
    match = lifecycle.start_seated_match(game="dudo", seats=[{"user": u} for u in users], now=timezone.now(), seed=3)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.ABORTED)
    match.refresh_from_db()
    assert match.state is None and match.dealt
    assert match.history_length == len(match.new_game().history) > 0
