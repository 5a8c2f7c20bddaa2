"""Hostile input: whatever JSON a client sends as an action, an engine answers with IllegalAction
(a message for the player) or plays it; it never fails another way and never half-applies."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots import RandomBot
from games.engine import GAMES, IllegalAction, get_game
from games.simulate import play, replay

SLUGS = sorted(GAMES)

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=12)
    | st.sampled_from(["AS", "TD", "7H", "pile", "claim", "bid", "doubt", "pass", "play"]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=12,
)


@st.composite
def hostile_actions(draw, legal: list):
    """Either any JSON at all, or a legal action with some fields replaced, dropped or added."""
    if not legal or draw(st.booleans()):
        return draw(JSON_VALUES)
    action = dict(draw(st.sampled_from(legal)))
    for key in draw(st.lists(st.sampled_from(sorted(action)), max_size=3)):
        if draw(st.booleans()):
            action[key] = draw(JSON_VALUES)
        else:
            action.pop(key, None)
    if draw(st.booleans()):
        action[draw(st.text(max_size=6))] = draw(JSON_VALUES)
    return action


@pytest.mark.parametrize("slug", SLUGS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(0, 40), data=st.data())
def test_any_json_action_is_refused_cleanly_or_played(slug, seed, steps, data):
    game = get_game(slug)
    players = max(2, game.min_players)
    playout = play(game, [RandomBot() for _ in range(players)], seed)
    state = replay(game, players, seed, None, playout.log[:steps])
    seat = data.draw(st.sampled_from([*range(players), -1, players, None, "0", 1.5]))
    legal = game.legal_actions(state, seat) if seat in range(players) and seat in game.to_act(state) else []
    action = data.draw(hostile_actions(legal))
    before = game.dump(state)
    try:
        game.apply(state, seat, action)
    except IllegalAction as error:
        assert str(error), "a refusal says why"
        assert game.dump(state) == before
