"""I Doubt It on many random games: conservation, secrecy, replay, refusals, the end, the house bot."""

import json
import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.bots import RandomBot
from games.cards import FULL_DECK, decks
from games.doubt_it.bots import HeuristicBot
from games.doubt_it.rules import GAME
from games.simulate import play, replay

OPTIONS = st.fixed_dictionaries({
    "doubt_rule": st.sampled_from(["first", "nearest"]),
    "after_doubt": st.sampled_from(["next", "loser"]),
    "max_plays": st.integers(20, 80),
    "starter": st.sampled_from(["drawn", "first_seat"]),
})


def walk(players, seed, options, bots):
    """The state before each action of one game with the seat about to act, then the end state with None."""
    state = GAME.new_game(players, seed, options)
    rng = random.Random(seed)
    while not GAME.is_over(state):
        seat = rng.choice(GAME.to_act(state))
        action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat), rng)
        yield state, seat
        GAME.apply(state, seat, action)
    yield state, None


def all_cards(state):
    return Counter(state.pile) + sum((Counter(hand) for hand in state.hands), Counter())


def with_secrets_changed(state, seat):
    """The same game as `seat` sees it, with every card it cannot see replaced by a different one."""
    data = GAME.dump(state)
    hands = data["hands"]
    data["hands"] = [hand if other == seat else ["2S"] * len(hand) for other, hand in enumerate(hands)]
    data["pile"] = ["3D"] * len(data["pile"])
    if data["last"] and not data["last"]["revealed"]:
        data["last"]["cards"] = ["4C"] * len(data["last"]["cards"])
    return GAME.load(data)


def bad_actions(state, rng):
    """Actions the rules must refuse right now, each with the seat that tries it."""
    waiting = GAME.to_act(state)
    idle = [seat for seat in range(state.players) if seat not in waiting]
    turn = state.turn
    missing = next(card for card in FULL_DECK if card not in state.hands[turn])  # a hand never holds all 52
    moves = [
        (turn, {"type": "play", "cards": [missing]}),
        (turn, {"type": "play", "cards": state.hands[turn][:1] * 9}),
        (turn, {"type": "play", "cards": ["XX"]}),
        (rng.choice(waiting), {"type": "shout"}),
        (state.players, {"type": "pass"}),
        (rng.choice(waiting), ["play"]),
    ]
    if idle:
        moves.append((rng.choice(idle), {"type": "doubt"}))
        moves.append((rng.choice(idle), {"type": "play", "cards": state.hands[rng.choice(idle)][:1]}))
    return moves


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 11), options=OPTIONS, mixed=st.booleans())
def test_random_games_keep_every_card_hide_every_secret_and_refuse_bad_moves(seed, players, options, mixed):
    deck = Counter(decks(1 if players <= 5 else 2))
    bots = [HeuristicBot() if mixed and seat % 2 else RandomBot() for seat in range(players)]
    rng = random.Random(seed)
    for step, (state, seat) in enumerate(walk(players, seed, options, bots)):
        assert all_cards(state) == deck
        if step % 7:
            continue
        for viewer in [None, *range(players)]:
            view = GAME.view(state, viewer)
            assert view == GAME.view(with_secrets_changed(state, viewer), viewer)
            assert json.loads(json.dumps(view)) == view
        if seat is None:
            break
        for bad_seat, bad in bad_actions(state, rng):
            before = GAME.dump(state)
            with pytest.raises(IllegalAction):
                GAME.apply(state, bad_seat, bad)
            assert GAME.dump(state) == before
        for actor in GAME.to_act(state):
            assert GAME.is_legal(state, actor, GAME.default_action(state, actor))
            for legal in GAME.legal_actions(state, actor)[:12]:
                GAME.apply(GAME.clone(state), actor, legal)
    assert GAME.is_over(state) and GAME.to_act(state) == [] and state.plays <= options["max_plays"]


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 11), options=OPTIONS)
def test_a_game_replays_from_its_seed_and_log_and_survives_dump_load_and_clone(seed, players, options):
    playout = play(GAME, [RandomBot() for _ in range(players)], seed, options)
    cut = random.Random(seed).randrange(len(playout.log) + 1)
    middle = replay(GAME, players, seed, options, playout.log[:cut])
    dumped = GAME.dump(middle)
    assert json.loads(json.dumps(dumped)) == dumped
    assert GAME.dump(GAME.load(dumped)) == dumped
    copy = GAME.clone(middle)
    for seat, action in playout.log[cut:]:
        GAME.apply(copy, seat, action)
    assert GAME.dump(middle) == dumped
    assert GAME.dump(copy) == GAME.dump(playout.state)
    assert GAME.dump(replay(GAME, players, seed, options, playout.log)) == GAME.dump(playout.state)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 11), options=OPTIONS)
def test_with_the_first_seat_starting_seat_0_plays_first_and_a_drawn_dealer_is_the_default(seed, players, options):
    first = GAME.new_game(players, seed, options | {"starter": "first_seat"})
    assert (first.dealer, GAME.to_act(first)) == (players - 1, [0])
    stored_before = {name: value for name, value in options.items() if name != "starter"}
    drawn = GAME.new_game(players, seed, options | {"starter": "drawn"})
    assert GAME.dump(drawn) == GAME.dump(GAME.new_game(players, seed, stored_before))


def test_hundreds_of_games_all_end_with_a_full_ranking():
    for seed in range(300):
        players = 3 + seed % 9
        bots = [HeuristicBot() if seed % 3 else RandomBot() for _ in range(players)]
        state = play(GAME, bots, seed, {"max_plays": 60}).state
        ranking = GAME.result(state)["ranking"]
        assert sorted(seat for group in ranking for seat in group) == list(range(players))
        if state.winner is not None:
            assert ranking[0] == [state.winner] and state.hands[state.winner] == []


def test_house_bots_among_themselves_finish_well_before_the_play_limit():
    for seed in range(30):
        state = play(GAME, [HeuristicBot() for _ in range(3 + seed % 9)], seed).state
        assert state.winner is not None


@pytest.mark.parametrize("players", [3, 5, 7])
def test_the_heuristic_bot_beats_random_players_clearly(players):
    wins = 0
    for seed in range(30):
        seat = seed % players
        bots = [RandomBot() for _ in range(players)]
        bots[seat] = HeuristicBot()
        wins += GAME.result(play(GAME, bots, seed).state)["ranking"][0] == [seat]
    assert wins >= 25
