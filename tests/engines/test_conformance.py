"""Every game obeys the contract of docs/engine.md on random playouts."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
