"""Plays whole games between house bots without Django and without sleeping.

Time is simulated: every seat that may act asks its bot for a move and a
reaction time; the quickest move is applied, stamped with the simulated game
time in `at_ms` (which real-time engines read and turn-based ones ignore).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.base import Action, Game
from games.bots import Bot

MAX_ACTIONS = 200_000


@dataclass
class Playout:
    state: object
    log: list[tuple[int, Action]]
    end_ms: int


def play(game: Game, bots: list[Bot], seed: int, options: dict | None = None) -> Playout:
    """One game from `new_game(seed)` to the end; the log replays it exactly."""
    state = game.new_game(len(bots), seed, options)
    rng = random.Random(seed ^ 0x5EED)
    log: list[tuple[int, Action]] = []
    now_ms = 0
    while not game.is_over(state):
        if len(log) >= MAX_ACTIONS:
            raise RuntimeError(f"{game.slug} game with seed {seed} did not end in {MAX_ACTIONS} actions")
        best: tuple[int, int, Action] | None = None
        for seat in game.to_act(state):
            view = game.view(state, seat)
            action = bots[seat].choose(view, game.legal_actions(state, seat), rng)
            if action is None:
                continue
            at_ms = now_ms + bots[seat].reaction_ms(view, action, rng)
            if game.realtime:
                # A real-time legal action may carry the earliest game time it can be played (a lockout's end).
                at_ms = max(at_ms, action.get("at_ms", 0))
            if best is None or at_ms < best[0]:
                best = (at_ms, seat, action)
        if best is None:
            raise RuntimeError(f"no bot would act in {game.slug} game with seed {seed}")
        now_ms, seat, action = best
        if game.realtime:
            action = {**action, "at_ms": now_ms}
        state = game.apply(state, seat, action)
        log.append((seat, action))
    return Playout(state=state, log=log, end_ms=now_ms)


def replay(game: Game, players: int, seed: int, options: dict | None, log: list[tuple[int, Action]]):
    """The state reached by applying the logged actions to a fresh deal."""
    state = game.new_game(players, seed, options)
    for seat, action in log:
        state = game.apply(state, seat, action)
    return state
