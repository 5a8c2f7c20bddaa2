"""Every game obeys the contract of docs/engine.md on random playouts."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.base import KEPT_HISTORY
from games.bots import RandomBot
from games.engine import GAMES, IllegalAction, get_game
from games.simulate import play, replay

SLUGS = sorted(GAMES)


@pytest.mark.parametrize("slug", SLUGS)
def test_get_game_finds_each_game_by_its_slug(slug):
    game = get_game(slug)
    assert game.slug == slug
    json.dumps(game.describe())


def test_get_game_refuses_an_unknown_slug():
    with pytest.raises(IllegalAction, match="no game called 'chess'"):
        get_game("chess")


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_refuses_a_table_size_outside_the_bounds(slug):
    game = get_game(slug)
    with pytest.raises(IllegalAction):
        game.new_game(game.max_players + 1, seed=1)


@pytest.mark.parametrize("slug", SLUGS)
def test_new_game_refuses_an_unknown_option(slug):
    game = get_game(slug)
    with pytest.raises(IllegalAction, match="has no option colour"):
        game.new_game(game.min_players, seed=1, options={"colour": "red"})


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), size=st.integers(0, 20))
def test_a_random_playout_keeps_the_contract(slug, seed, size):
    game = get_game(slug)
    players = game.min_players + size % (game.max_players - game.min_players + 1)
    playout = play(game, [RandomBot() for _ in range(players)], seed)
    state = playout.state
    assert game.is_over(state)
    assert game.to_act(state) == []

    result = game.result(state)
    seats = [seat for group in result["ranking"] for seat in group]
    assert sorted(seats) == list(range(players))
    json.dumps(result)

    dumped = game.dump(state)
    assert json.loads(json.dumps(dumped)) == dumped
    assert game.dump(game.load(dumped)) == dumped
    assert game.dump(replay(game, players, seed, None, playout.log)) == dumped

    for seat in [None, *range(players)]:
        view = game.view(state, seat)
        json.dumps(view)
        assert game.view(game.load(dumped), seat) == view  # the match service shows a loaded state
        assert view["game"] == slug and view["seat"] == seat and view["is_over"] is True


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 60))
def test_apply_refuses_bad_actions_and_leaves_the_state_unchanged(slug, seed, steps):
    game = get_game(slug)
    players = game.min_players if game.min_players > 1 else 2
    playout = play(game, [RandomBot() for _ in range(players)], seed)
    state = replay(game, players, seed, None, playout.log[:steps])
    before = game.dump(state)
    waiting = [seat for seat in range(players) if seat not in game.to_act(state)]
    bad_moves = [(0, {"type": "no-such-move"}), (0, "doubt"), (0, None), (players, {"type": "doubt"})]
    if waiting and not game.realtime:
        bad_moves.append((waiting[0], {"type": "doubt"}))
    for seat, action in bad_moves:
        with pytest.raises(IllegalAction):
            game.apply(state, seat, action)
        assert game.dump(state) == before
        assert not game.is_legal(state, seat, action)


@pytest.mark.parametrize("slug", SLUGS)
def test_every_legal_action_is_accepted_by_apply(slug):
    game = get_game(slug)
    players = max(2, game.min_players)
    playout = play(game, [RandomBot() for _ in range(players)], seed=7)
    for cut in range(0, len(playout.log), max(1, len(playout.log) // 20)):
        state = replay(game, players, 7, None, playout.log[:cut])
        for seat in game.to_act(state):
            for action in game.legal_actions(state, seat)[:25]:
                game.apply(game.clone(state), seat, action)


@pytest.mark.parametrize("slug", SLUGS)
def test_a_snapshot_with_the_generator_as_a_list_of_ints_loads_and_plays_on_the_same(slug):
    """Matches stored before the generator's words were packed keep loading and replaying exactly."""
    game = get_game(slug)
    players = max(2, game.min_players)
    playout = play(game, [RandomBot() for _ in range(players)], seed=11)
    state = replay(game, players, 11, None, playout.log[: len(playout.log) // 2])
    dumped = game.dump(state)
    version, words, gauss = state.rng.getstate()
    stored_before = json.loads(json.dumps({**dumped, "rng": [version, list(words), gauss]}))
    assert len(json.dumps(dumped["rng"])) < len(json.dumps(stored_before["rng"])) / 2
    old, new = game.load(stored_before), game.load(dumped)
    assert game.dump(old) == dumped
    assert old.rng.random() == new.rng.random()


def cut(game, state, keep: int):
    """The state as the match service stores and loads it: only the last `keep` history entries."""
    data = game.dump(state)
    data["history"] = data["history"][-keep:]
    return game.load(data)


def without_history(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "history"}


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), keep=st.sampled_from([1, 4, KEPT_HISTORY]))
def test_a_state_cut_to_the_tail_of_its_history_plays_on_as_the_whole_one(slug, seed, keep):
    """What lets the match service store only the history's tail: after every action, a state
    loaded with `keep` entries (keep >= 1; the service keeps KEPT_HISTORY) reaches the same state,
    views and legal actions as the whole one, the earlier entries never change, and the
    history's new entries are the same."""
    game = get_game(slug)
    players = max(2, game.min_players)
    playout = play(game, [RandomBot() for _ in range(players)], seed)
    whole = game.new_game(players, seed)
    for number, (seat, action) in enumerate(playout.log):
        before = game.dump(whole)["history"]
        tail = game.apply(cut(game, whole, keep), seat, action)
        game.apply(whole, seat, action)
        after = game.dump(whole)["history"]
        assert after[: len(before)] == before
        assert without_history(game.dump(tail)) == without_history(game.dump(whole))
        new = game.dump(tail)["history"][min(len(before), keep) :]
        assert new == after[len(before) :]
        if number % 7 == 0:
            for viewer in [None, *range(players)]:
                assert without_history(game.view(tail, viewer)) == without_history(game.view(whole, viewer))
                assert game.view(whole, viewer)["history"] == after
                assert game.legal_actions(tail, viewer or 0) == game.legal_actions(whole, viewer or 0)
            for moves_since in range(1, 6):
                if game.still_current(tail, moves_since):
                    assert game.still_current(whole, moves_since)
