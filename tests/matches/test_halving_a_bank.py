"""A player gives up half their bank before their first move (lifecycle.halve_bank: an arena's berserk)."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import get_game
from games.matches import actions, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match

BANK = {"clock": Match.Clock.PER_GAME, "clock_initial_ms": 180_000, "clock_increment_ms": 2_000}


@pytest.fixture
def blitz(alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=42, **BANK)
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice, now=timezone.now())


def players(match):
    """(the player to move first, the other)."""
    first = get_game("dudo").to_act(match.load_state())[0]
    seats = {seat.number: seat.user for seat in match.seats.select_related("user")}
    return seats[first], seats[1 - first]


def test_the_bank_is_halved_and_the_clock_runs_out_at_the_new_time(blitz):
    mover, _ = players(blitz)
    seat = lifecycle.halve_bank(blitz.pk, mover, now=blitz.turn_started_at + timedelta(seconds=10))
    assert seat.clock_ms == 90_000
    blitz.refresh_from_db()
    assert blitz.wake_at == blitz.turn_started_at + timedelta(milliseconds=90_000)
    assert blitz.seats.get(user=mover).clock_ms == 90_000


def test_the_other_player_may_halve_theirs_while_waiting_and_their_bank_alone_changes(blitz):
    mover, waiting = players(blitz)
    lifecycle.halve_bank(blitz.pk, waiting)
    assert blitz.seats.get(user=waiting).clock_ms == 90_000
    assert blitz.seats.get(user=mover).clock_ms == 180_000


def test_it_is_refused_after_a_first_move_twice_or_once_half_the_time_has_gone(blitz):
    mover, waiting = players(blitz)
    late = blitz.turn_started_at + timedelta(seconds=91)
    with pytest.raises(MatchError, match="half of your time has gone"):
        lifecycle.halve_bank(blitz.pk, mover, now=late)
    lifecycle.halve_bank(blitz.pk, waiting)
    with pytest.raises(MatchError, match="halved already"):
        lifecycle.halve_bank(blitz.pk, waiting)
    bid = {"type": "bid", "quantity": 1, "face": 2}
    actions.submit_action(blitz.pk, mover, bid, blitz.seq, now=blitz.turn_started_at + timedelta(seconds=5))
    with pytest.raises(MatchError, match="before its player's first move"):
        lifecycle.halve_bank(blitz.pk, mover)


def test_only_a_seated_player_of_a_game_with_a_bank_can(alice, bob, carol, blitz):
    with pytest.raises(MatchError, match="no seat"):
        lifecycle.halve_bank(blitz.pk, carol)
    per_turn = lifecycle.create_match(game="dudo", players=2, host=alice, clock="turn", clock_initial_ms=30_000)
    lifecycle.join_match(per_turn.pk, bob)
    lifecycle.start_match(per_turn.pk, alice)
    with pytest.raises(MatchError, match="clock per game"):
        lifecycle.halve_bank(per_turn.pk, alice)
