"""Dubito on whole random games: cards conserved, no leaks, every game ends, exact replays and refusals."""

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.bots import RandomBot
from games.cards import FULL_DECK, decks
from games.dubito.bots import HeuristicBot
from games.engine import get_game
from games.simulate import play, replay

DUBITO = get_game("dubito")
OPTIONS = st.fixed_dictionaries(
    {"ascending": st.sampled_from(["strict", "equal"]), "empty_pile": st.sampled_from(["play-on", "stop"])}
)


def all_cards(state):
    held = Counter(state.pile) + sum((Counter(hand) for hand in state.hands), Counter())
    return held + Counter(card for rows in state.rows for row in rows for card in row)


def masked(state, seat):
    """The same game with every card `seat` may not see replaced, hand and pile sizes kept."""
    copy = DUBITO.clone(state)
    copy.hands = [hand if other == seat else ["AS"] * len(hand) for other, hand in enumerate(copy.hands)]
    copy.pile = ["AS"] * len(copy.pile)
    return copy


def check_position(state, players, options, rng):
    assert all_cards(state) == Counter(decks(2 if players <= 4 else 3))
    for seat in [None, *range(players)]:
        view = DUBITO.view(state, seat)
        json.dumps(view)
        assert view == DUBITO.view(masked(state, seat), seat)
    for seat in DUBITO.to_act(state):
        legal = DUBITO.legal_actions(state, seat)
        assert legal, "to_act names only seats that can play"
        assert DUBITO.default_action(state, seat) in legal
    before = DUBITO.dump(state)
    seat = rng.randrange(players)
    wrong = {"type": "play", "card": rng.choice(FULL_DECK), "row": rng.randint(1, 4)}
    if DUBITO.is_over(state) or wrong not in DUBITO.legal_actions(state, seat):
        try:
            DUBITO.apply(state, seat, wrong)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{wrong} by seat {seat} was accepted but is not listed as legal")
        assert DUBITO.dump(state) == before


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 6), options=OPTIONS, smart=st.integers(0, 6))
def test_random_games_conserve_the_cards_hide_the_hands_and_refuse_what_is_not_listed(
    seed, players, options, smart
):
    bots = [HeuristicBot() if seat < smart else RandomBot() for seat in range(players)]
    playout = play(DUBITO, bots, seed, options)
    rng = random.Random(seed)
    state = DUBITO.new_game(players, seed, options)
    for step, (seat, action) in enumerate(playout.log):
        if step % 3 == 0:
            check_position(state, players, options, rng)
        assert DUBITO.to_act(state) == [seat]
        DUBITO.apply(state, seat, action)
    check_position(state, players, options, rng)
    assert DUBITO.is_over(state) and DUBITO.dump(state) == DUBITO.dump(playout.state)
    assert state.history[-1]["type"] == "end"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 6), options=OPTIONS)
def test_every_game_ends_and_replays_exactly_from_its_seed_and_log(seed, players, options):
    playout = play(DUBITO, [RandomBot() for _ in range(players)], seed, options)
    state = playout.state
    result = DUBITO.result(state)
    assert sorted(seat for group in result["ranking"] for seat in group) == list(range(players))
    scores = [result["scores"][str(seat)] for seat in range(players)]
    assert [scores[group[0]] for group in result["ranking"]] == sorted(set(scores), reverse=True)
    dumped = DUBITO.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped
    assert DUBITO.dump(DUBITO.load(dumped)) == dumped
    assert DUBITO.dump(replay(DUBITO, players, seed, options, playout.log)) == dumped
    if options["empty_pile"] == "play-on":
        assert sorted(state.out) == list(range(players))
    cut = len(playout.log) // 2
    halfway = replay(DUBITO, players, seed, options, playout.log[:cut])
    assert DUBITO.dump(DUBITO.load(DUBITO.dump(halfway))) == DUBITO.dump(halfway)
    assert DUBITO.dump(DUBITO.clone(halfway)) == DUBITO.dump(halfway)
