"""Dudo: invariants over many random games, and the house bots."""

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import IllegalAction
from games.bots import RandomBot
from games.dudo.bots import HeuristicBot
from games.dudo.rules import GAME as DUDO
from games.simulate import play, replay

OPTIONS = st.fixed_dictionaries({
    "opening_ones": st.booleans(), "palifico_wild": st.booleans(), "dice": st.integers(1, 5),
    "starter": st.sampled_from(["drawn", "first_seat"]),
})


def examples(count):
    return settings(max_examples=count, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(players, seed, options, bots=None):
    """Yield (state, seat, action) before each action of a game between the bots (random by default)."""
    bots = bots or [RandomBot()] * players
    state = DUDO.new_game(players, seed, options)
    rng = random.Random(seed)
    while not DUDO.is_over(state):
        (seat,) = DUDO.to_act(state)
        action = bots[seat].choose(DUDO.view(state, seat), DUDO.legal_actions(state, seat), rng)
        yield state, seat, action
        DUDO.apply(state, seat, action)


def bid(quantity, face):
    return {"type": "bid", "quantity": quantity, "face": face}


def with_others_dice_changed(state, seat):
    """The same game with every die this seat cannot see turned to another face."""
    data = DUDO.dump(state)
    data["dice"] = [d if s == seat else sorted(x % 6 + 1 for x in d) for s, d in enumerate(data["dice"])]
    return DUDO.load(data)


@examples(150)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), options=OPTIONS)
def test_dice_are_conserved_one_die_leaves_per_doubt_and_every_game_ends(seed, players, options):
    start = options["dice"] * players
    counts = [options["dice"]] * players
    doubts = 0
    for state, seat, action in random_game(players, seed, options):
        view = DUDO.view(state, seat)
        assert view["total_dice"] == sum(view["dice_counts"]) == start - doubts
        assert all(now <= before for now, before in zip(view["dice_counts"], counts, strict=True))
        assert view["dice"] == sorted(view["dice"]) and set(view["dice"]) <= {1, 2, 3, 4, 5, 6}
        assert len(view["dice"]) == view["dice_counts"][seat] > 0
        counts = view["dice_counts"]
        doubts += action["type"] == "doubt"
    result = DUDO.result(state)
    (winner,) = result["ranking"][0]
    final = DUDO.view(state, None)
    assert final["dice_counts"][winner] == sum(final["dice_counts"]) == start - doubts > 0
    assert [group[0] for group in result["ranking"][1:]] == final["out"][::-1]


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), options=OPTIONS, every=st.integers(1, 6))
def test_legal_actions_are_exactly_the_actions_apply_accepts(seed, players, options, every):
    for step, (state, seat, _) in enumerate(random_game(players, seed, options)):
        if step % every:
            continue
        legal = DUDO.legal_actions(state, seat)
        total = DUDO.view(state, None)["total_dice"]
        grid = [bid(quantity, face) for quantity in range(total + 2) for face in range(8)]
        accepted = [action for action in [*grid, {"type": "doubt"}] if DUDO.is_legal(state, seat, action)]
        assert sorted(map(json.dumps, legal)) == sorted(map(json.dumps, accepted))
        for other in range(players):
            if other != seat:
                assert DUDO.legal_actions(state, other) == []


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 8), every=st.integers(1, 8))
def test_no_view_depends_on_dice_its_seat_cannot_see(seed, players, every):
    for step, (state, _, _) in enumerate(random_game(players, seed, None)):
        if step % every:
            continue
        for viewer in [None, *range(players)]:
            view = DUDO.view(state, viewer)
            assert DUDO.view(with_others_dice_changed(state, viewer), viewer) == view
            json.dumps(view)
        assert DUDO.view(state, None)["dice"] is None


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), junk=st.integers(0, 2**16))
def test_illegal_actions_raise_and_leave_the_state_exactly_as_it_was(seed, players, junk):
    rng = random.Random(junk)
    for state, seat, _ in random_game(players, seed, None):
        before = DUDO.dump(state)
        view = DUDO.view(state, None)
        attempts = [
            ((seat + 1) % players, {"type": "doubt"}),
            (seat, bid(view["total_dice"] + rng.randint(1, 9), rng.randint(1, 6))),
            (seat, bid(rng.randint(-3, 3), rng.choice([0, 7, "4", None, 2.5]))),
            (seat, {"type": rng.choice(["pass", "", None, 3])}),
        ]
        if view["bid"] is None:
            attempts.append((seat, {"type": "doubt"}))
        else:
            attempts.append((seat, bid(view["bid"]["quantity"], view["bid"]["face"])))
        for who, action in attempts:
            try:
                DUDO.apply(state, who, action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{action} by seat {who} was accepted")
            assert DUDO.dump(state) == before


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), cut=st.integers(0, 300), options=OPTIONS)
def test_replays_dumps_and_clones_all_reach_the_same_game(seed, players, cut, options):
    playout = play(DUDO, [RandomBot() for _ in range(players)], seed, options)
    final = DUDO.dump(playout.state)
    assert DUDO.dump(replay(DUDO, players, seed, options, playout.log)) == final
    middle = replay(DUDO, players, seed, options, playout.log[:cut])
    restored = DUDO.load(json.loads(json.dumps(DUDO.dump(middle))))
    copy = DUDO.clone(middle)
    kept = DUDO.dump(middle)
    for seat, action in playout.log[cut:]:
        DUDO.apply(copy, seat, action)
    assert DUDO.dump(middle) == kept
    for seat, action in playout.log[cut:]:
        DUDO.apply(restored, seat, action)
        DUDO.apply(middle, seat, action)
    assert DUDO.dump(copy) == DUDO.dump(restored) == DUDO.dump(middle) == final


@examples(60)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), options=OPTIONS)
def test_with_the_first_seat_starting_seat_0_opens_and_every_later_round_starts_as_the_rules_say(
    seed, players, options
):
    options |= {"starter": "first_seat"}
    assert DUDO.to_act(DUDO.new_game(players, seed, options)) == [0]
    for state, seat, action in random_game(players, seed, options):
        counts = DUDO.view(state, None)["dice_counts"]
        after = DUDO.apply(DUDO.clone(state), seat, action)
        if action["type"] != "doubt" or DUDO.is_over(after):
            continue
        doubt, *_, opening = after.history[len(state.history):]
        loser = doubt["loser"]
        after_the_loser = [(loser + step) % players for step in range(1, players)]
        follows = loser if counts[loser] > 1 else next(s for s in after_the_loser if counts[s])
        assert opening["type"] == "round" and opening["starter"] == follows


@examples(80)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 10), options=OPTIONS)
def test_a_drawn_starter_is_the_default_so_options_stored_before_the_choice_deal_the_same_game(
    seed, players, options
):
    stored_before = {name: value for name, value in options.items() if name != "starter"}
    drawn = DUDO.new_game(players, seed, options | {"starter": "drawn"})
    assert DUDO.dump(drawn) == DUDO.dump(DUDO.new_game(players, seed, stored_before))


@examples(40)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), options=OPTIONS)
def test_the_heuristic_bot_always_picks_a_legal_action(seed, players, options):
    bots = [HeuristicBot(), RandomBot()] * players
    for state, seat, action in random_game(players, seed, options, bots[:players]):
        assert DUDO.is_legal(state, seat, action)


def test_the_timeout_action_is_always_legal():
    for state, seat, _ in random_game(5, 11, None):
        assert DUDO.is_legal(state, seat, DUDO.default_action(state, seat))


def test_one_heuristic_bot_clearly_beats_three_random_bots():
    wins = 0
    for number in range(60):
        bots = [RandomBot() for _ in range(4)]
        bots[number % 4] = HeuristicBot()
        playout = play(DUDO, bots, seed=number)
        wins += DUDO.result(playout.state)["ranking"][0] == [number % 4]
    assert wins >= 45  # a fair share would be 15
