"""The snapshot keeps only the history's tail; the log keeps the rest, and what players see is the
same as a replay from seed and log shows, at every move of a long game."""

import itertools
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GAMES, KEPT_HISTORY
from games.matches import broadcast, lifecycle, replays
from games.matches.actions import submit_action
from games.matches.models import Match

pytestmark = pytest.mark.django_db
EXAMPLES = itertools.count()  # hypothesis examples share the test's database: fresh names each


def started(game: str, users, seed: int, options=None) -> Match:
    return lifecycle.start_seated_match(
        game=game, seats=[{"user": user} for user in users], now=None, seed=seed, options=options
    )


def play_random_move(match: Match, users, rng) -> Match:
    state = match.load_state()
    seat = rng.choice(match.engine.to_act(state))
    action = rng.choice(match.engine.legal_actions(state, seat))
    return submit_action(match.pk, users[seat], action, match.seq)


def whole_view(match: Match, seat) -> dict:
    """What a seat's socket gets on (re)connect or sync."""
    match = Match.objects.get(pk=match.pk)
    return broadcast.match_message(match, match.load_state(), list(match.seats.select_related("user")), seat)["view"]


@settings(
    max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture]
)
@given(slug=st.sampled_from(["doubt-it", "dudo", "dubito", "dudab"]), seed=st.integers(0, 2**31))
def test_a_long_game_shows_players_what_its_replay_shows(slug, seed, django_user_model):
    example = next(EXAMPLES)
    users = [django_user_model.objects.create_user(f"p{example}x{n}") for n in range(GAMES[slug].min_players)]
    options = {"max_plays": 5000, "doubt_window_s": 0} if slug == "doubt-it" else None
    match = started(slug, users, seed, options)
    rng = random.Random(seed)
    checked = 0
    while match.status == Match.Status.RUNNING and match.seq < 160:
        match = play_random_move(match, users, rng)
        if match.seq % 40 == 0 or match.status != Match.Status.RUNNING:
            for seat in (None, *range(len(users))):
                assert whole_view(match, seat) == replays.frame(match, match.seq, seat)["view"]
            checked += 1
    assert checked
    stored = Match.objects.get(pk=match.pk)
    assert len(stored.state["history"]) <= KEPT_HISTORY
    assert stored.history_length == len(replays.frame(stored, stored.seq, None)["view"]["history"])


def test_a_push_after_a_move_carries_the_tail_from_its_place_in_the_whole_history(django_user_model):
    users = [django_user_model.objects.create_user(f"tail{n}") for n in range(3)]
    match = started("doubt-it", users, 5, {"max_plays": 5000, "doubt_window_s": 0})
    rng = random.Random(5)
    while match.seq < 120:
        match = play_random_move(match, users, rng)
    whole = whole_view(match, 0)["history"]
    assert match.history_start > 0 and len(whole) > KEPT_HISTORY
    push = broadcast.match_message(match, match.load_state(), list(match.seats.all()), 0, broadcast.HISTORY_TAIL)
    start = push["history_start"]
    assert push["view"]["history"] == whole[start:] and len(whole) - start == broadcast.HISTORY_TAIL


def test_each_logged_action_holds_the_history_entries_it_added(django_user_model):
    users = [django_user_model.objects.create_user(f"log{n}") for n in range(2)]
    match = started("dudo", users, 11)
    engine = GAMES["dudo"]
    rng = random.Random(11)
    while match.status == Match.Status.RUNNING:
        match = play_random_move(match, users, rng)
    replayed = engine.new_game(2, 11, match.options)
    for row in match.actions.order_by("seq"):
        before = len(engine.dump(replayed)["history"])
        engine.apply(replayed, row.seat, row.action)
        assert row.events == engine.dump(replayed)["history"][before:]
