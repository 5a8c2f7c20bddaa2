"""Dobble: the deck's property, random playouts of every mini-game, and the bots."""

import itertools
import json
import random
import statistics
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.bots import RandomBot
from games.dobble.bots import BOTS
from games.dobble.deck import CARDS, SYMBOL_NAMES
from games.dobble.rules import GAME, MINI_GAMES
from games.simulate import play, replay
from tests.engines.test_dobble_helpers import all_cards, cards_in, face_up_cards, wrong_claim

# The deck ----------------------------------------------------------------------


def test_every_one_of_the_1485_pairs_of_cards_shares_exactly_one_symbol():
    pairs = list(itertools.combinations(CARDS, 2))
    assert len(CARDS) == 55 and len(pairs) == 1485
    assert all(len(set(first) & set(second)) == 1 for first, second in pairs)


def test_cards_have_8_different_symbols_out_of_57_named_ones():
    assert len(SYMBOL_NAMES) == len(set(SYMBOL_NAMES)) == 57
    assert SYMBOL_NAMES[:2] == ("anchor", "apple")
    assert all(len(set(card)) == 8 and set(card) <= set(range(57)) for card in CARDS)
    uses = Counter(symbol for card in CARDS for symbol in card)
    assert sorted(Counter(uses.values()).items()) == [(6, 1), (7, 14), (8, 42)]


def test_the_deal_order_comes_from_the_seed():
    assert GAME.dump(GAME.new_game(2, 17)) == GAME.dump(GAME.new_game(2, 17))
    assert GAME.dump(GAME.new_game(2, 17))["pile"] != GAME.dump(GAME.new_game(2, 18))["pile"]


# Random playouts -------------------------------------------------------------------


def check_views(state, players):
    """Every view is JSON, equal for all seats but the seat number, and shows face-up cards only."""
    spectator = GAME.view(state, None)
    json.dumps(spectator)
    assert cards_in(spectator) == face_up_cards(state)
    for seat in range(players):
        assert {**GAME.view(state, seat), "seat": None} == spectator


def random_claim(state, rng, players, now_ms):
    """Mostly a listed claim; sometimes any symbol, any target, a late or an early time."""
    free = [seat for seat in GAME.to_act(state) if GAME.legal_actions(state, seat)]
    if rng.random() < 0.8:
        seat = rng.choice(free)
        action = dict(rng.choice(GAME.legal_actions(state, seat)))
        action["at_ms"] += rng.choice([0, 0, 0, 150, 900])
        return seat, action
    seat = rng.randrange(players)
    target = rng.choice(["pile", "middle", 0, 1, 2, players, "me"])
    return seat, {
        "type": "claim",
        "symbol": rng.randrange(-1, 58),
        "target": target,
        "at_ms": now_ms + rng.choice([-5, 0, 400, 1500]),
    }


@pytest.mark.parametrize("mini_game", sorted(MINI_GAMES))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), lockout_ms=st.sampled_from([250, 500, 1000]))
def test_random_playouts_conserve_cards_end_hide_face_down_cards_and_replay(
    mini_game, seed, players, lockout_ms
):
    options = {"mini_game": mini_game, "lockout_ms": lockout_ms}
    state = GAME.new_game(players, seed, options)
    rng = random.Random(seed)
    log = []
    while not GAME.is_over(state):
        assert len(log) < 5000, "the mini-game did not end"
        seat, action = random_claim(state, rng, players, state.now_ms)
        if GAME.is_legal(state, seat, action):
            GAME.apply(state, seat, action)
            log.append((seat, action))
        else:
            before = GAME.dump(state)
            with pytest.raises(IllegalAction):
                GAME.apply(state, seat, action)
            assert GAME.dump(state) == before
        if len(log) % 17 == 0:
            assert all_cards(state) == list(range(55))
            check_views(state, players)
    assert all_cards(state) == list(range(55))
    check_views(state, players)
    result = GAME.result(state)
    assert sorted(seat for group in result["ranking"] for seat in group) == list(range(players))
    assert all(len(group) == 1 for group in result["ranking"])
    assert GAME.to_act(state) == [] and GAME.legal_actions(state, 0) == []
    dumped = GAME.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped
    assert GAME.dump(GAME.load(dumped)) == dumped
    assert GAME.dump(replay(GAME, players, seed, options, log)) == dumped


# Bots ------------------------------------------------------------------------------


@pytest.mark.parametrize("mini_game", sorted(MINI_GAMES))
def test_a_hard_bot_beats_a_random_guesser_that_the_lockout_punishes(mini_game):
    for seed in range(8):
        playout = play(GAME, [RandomBot(), BOTS["hard"]()], seed, {"mini_game": mini_game})
        assert GAME.result(playout.state)["ranking"][0] == [1]
        assert GAME.dump(replay(GAME, 2, seed, {"mini_game": mini_game}, playout.log)) == GAME.dump(
            playout.state
        )


def test_a_hard_bot_beats_an_easy_bot_in_the_towering_inferno():
    wins = sum(
        GAME.result(play(GAME, [BOTS["easy"](), BOTS["hard"]()], seed).state)["ranking"][0] == [1]
        for seed in range(10)
    )
    assert wins == 10


def test_bot_reaction_times_follow_their_skill_counted_from_the_last_change_of_the_cards():
    state = GAME.new_game(2, 3)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    for name, median in (("easy", 2200), ("medium", 1400), ("hard", 800)):
        rng = random.Random(name)
        delays = []
        for _ in range(2000):
            bot = BOTS[name]()
            delays.append(bot.reaction_ms(view, bot.choose(view, legal, rng), rng))
        assert abs(statistics.median(delays) - median) < median * 0.05


def test_a_bot_waits_while_it_is_locked_out_and_names_the_shared_symbol_otherwise():
    state = GAME.new_game(2, 3)
    locked = GAME.apply(GAME.clone(state), 0, wrong_claim(state, 0, "pile", at_ms=5))
    bot, view = BOTS["hard"](), GAME.view(locked, 0)
    claim = bot.choose(view, GAME.legal_actions(locked, 0), random.Random(1))
    assert claim["at_ms"] == 1005 and view["now_ms"] + bot.reaction_ms(view, claim, random.Random(1)) >= 1005
    claims = [
        BOTS["hard"]().choose(GAME.view(state, 0), GAME.legal_actions(state, 0), random.Random(seed))
        for seed in range(200)
    ]
    right = Counter(claim["symbol"] for claim in claims).most_common(1)[0]
    copy = GAME.apply(GAME.clone(state), 0, claims[0])
    assert GAME.view(copy, None)["history"][-1]["correct"] == (claims[0]["symbol"] == right[0])
    assert right[1] >= 190
