"""Dudab Buba random playouts: cards are conserved, views leak nothing, games end and replay exactly."""

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.dudab.cards import full_deck
from games.engine import IllegalAction, get_game
from games.registry import get_bot
from games.simulate import play, replay

DUDAB = get_game("dudab")
OPTIONS = st.sampled_from(
    [{}, {"jungle": True}, {"baby": True}, {"jungle": True, "baby": True}, {"four_player_columns": 2}]
)


def every_card(state) -> list[str]:
    data = DUDAB.dump(state)
    cards = data["deck"] + data["discard"] + [c for column in data["columns"] for c in column["cards"]]
    cards += [c for hand in data["hands"] for c in hand] + [c for pile in data["own"] for c in pile]
    cards += [task["card"] for task in data["tasks"] if "card" in task]
    return sorted(cards)


def hidden_shuffled(state, seat, rng):
    """A copy where all that `seat` cannot see (others' hands and own piles, the draw pile) is dealt anew."""
    other = DUDAB.clone(state)
    holders = [other.deck] + [other.hands[s] for s in range(other.players) if s != seat]
    holders += [other.own[s] for s in range(other.players) if s != seat]
    pool = [c for holder in holders for c in holder]
    rng.shuffle(pool)
    for holder in holders:
        holder[:], pool = pool[: len(holder)], pool[len(holder) :]
    return other


def random_game(players, seed, options, check):
    """Play random legal actions, calling check(state, step) before each; the final state."""
    rng = random.Random(seed)
    state = DUDAB.new_game(players, seed, options)
    step = 0
    while not DUDAB.is_over(state):
        check(state, step)
        seat = DUDAB.to_act(state)[0]
        legal = DUDAB.legal_actions(state, seat)
        assert legal, "the seat to act always has a move"
        state = DUDAB.apply(state, seat, rng.choice(legal))
        step += 1
        assert step < 20_000
    check(state, step)
    return state


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_cards_are_conserved_and_hands_stay_between_two_and_five_between_turns(players, seed, options):
    deck = sorted(full_deck(options.get("jungle", False), options.get("baby", False)))

    def check(state, step):
        assert every_card(state) == deck
        if not state.tasks and not state.over:
            assert all(2 <= len(hand) <= 5 for hand in state.hands)

    state = random_game(players, seed, options, check)
    assert len(state.round_scores) == players
    assert [e["round"] for e in state.history if e["type"] == "round_end"] == list(range(1, players + 1))


@settings(max_examples=25, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_no_view_shows_what_its_seat_may_not_see(players, seed, options):
    rng = random.Random(seed)

    def check(state, step):
        if step % 7:
            return
        for seat in [None, *range(players)]:
            view = DUDAB.view(state, seat)
            json.dumps(view)
            assert DUDAB.view(hidden_shuffled(state, seat, rng), seat) == view

    random_game(players, seed, options, check)


@settings(max_examples=20, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_legal_actions_are_exactly_the_plays_apply_accepts_and_refusals_change_nothing(
    players, seed, options
):
    def check(state, step):
        if step % 5 or state.over:
            return
        seat = DUDAB.to_act(state)[0]
        legal = DUDAB.legal_actions(state, seat)
        for action in legal[:30]:
            DUDAB.apply(DUDAB.clone(state), seat, action)
        plain = {(a["card"], a["column"]) for a in legal if a["type"] == "play" and "request" not in a}
        before = DUDAB.dump(state)
        for card in state.hands[seat]:
            for column in range(len(state.columns)):
                action = {"type": "play", "card": card, "column": column}
                assert DUDAB.is_legal(state, seat, action) == ((card, column) in plain)
        for bad in [
            {"type": "play", "card": "dudab-9", "column": 0},
            {"type": "draw", "own": 3},
            {"type": "discard_down", "cards": "all", "to": "own"},
            {"type": "play"},
            [],
        ]:
            try:
                DUDAB.apply(state, seat, bad)
            except IllegalAction:
                pass
            assert DUDAB.dump(state) == before
        other = (seat + 1) % players
        assert DUDAB.legal_actions(state, other) == []

    random_game(players, seed, options, check)


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_with_the_first_seat_starting_round_n_starts_at_seat_n_minus_1(players, seed, options):
    state = random_game(players, seed, options | {"starter": "first_seat"}, lambda state, step: None)
    assert [e["starter"] for e in state.history if e["type"] == "round"] == list(range(players))


@settings(max_examples=40, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_a_drawn_starter_is_the_default_so_options_stored_before_the_choice_deal_the_same_game(players, seed, options):
    drawn = DUDAB.new_game(players, seed, options | {"starter": "drawn"})
    assert DUDAB.dump(drawn) == DUDAB.dump(DUDAB.new_game(players, seed, options))


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_bot_games_end_and_replay_from_seed_and_log_and_dump_round_trips(players, seed, options):
    bots = [get_bot("dudab", "heuristic" if seat % 2 else "random") for seat in range(players)]
    playout = play(DUDAB, bots, seed, options)
    dumped = DUDAB.dump(playout.state)
    assert DUDAB.dump(replay(DUDAB, players, seed, options, playout.log)) == dumped
    assert DUDAB.dump(DUDAB.load(json.loads(json.dumps(dumped)))) == dumped
    result = DUDAB.result(playout.state)
    assert sorted(s for group in result["ranking"] for s in group) == list(range(players))
    totals = [int(result["scores"][str(s)]) for s in range(players)]
    assert [min(totals[s] for s in group) for group in result["ranking"]] == sorted(set(totals))


def test_the_timeout_action_is_always_legal_and_finishes_a_game():
    state = DUDAB.new_game(4, seed=11, options={"jungle": True, "baby": True})
    while not DUDAB.is_over(state):
        seat = DUDAB.to_act(state)[0]
        action = DUDAB.default_action(state, seat)
        assert action in DUDAB.legal_actions(state, seat)
        DUDAB.apply(state, seat, action)
