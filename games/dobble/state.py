"""The state of one mini-game (and of the tiebreak that may follow it).

Every card is in exactly one zone at all times, so the 55 are conserved:
`stacks` (one pile per seat, last item on top), `pile` (the draw pile, last item
on top), `middle` (the well's discard stack, or the middle card of gotta catch
them all), `revealed` (gotta catch them all's cards around the middle; None once
taken) and `gained` (cards a seat has set aside). Which of them are face up is
the mini-game's business (see `MiniGame.face_up`).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.base import rng_dump, rng_load

PLAY, TIEBREAK, OVER = "play", "tiebreak", "over"


@dataclass(slots=True)
class State:
    players: int
    mini_game: str
    lockout_ms: int
    rounds: int  # hot potato's number of rounds (0 in the other mini-games)
    rng: random.Random
    phase: str
    now_ms: int  # game time of the last applied claim
    changed_ms: int  # game time at which the face-up cards last changed
    lockout_until: list[int]
    stacks: list[list[int]]
    pile: list[int]
    middle: list[int]
    revealed: list[int | None]
    gained: list[list[int]]
    rounds_lost: list[int]
    round: int
    out: list[int]  # seats that got rid of their cards, in order (the well, a hot potato round)
    scores: list[int]  # the mini-game's final figures, set when it ends
    ranking: list[list[int]]  # set when the mini-game ends; tiebreaks split its groups
    ties: list[list[int]]  # tied groups still to settle, the one being played first
    tiebreaks: list[list[int]]  # finishing order of each settled tie
    history: list[dict]


FIELDS = tuple(name for name in State.__slots__ if name != "rng")
LISTS_OF_LISTS = ("stacks", "gained", "ranking", "ties", "tiebreaks")
LISTS = ("lockout_until", "pile", "middle", "revealed", "rounds_lost", "out", "scores", "history")


def copied(values: dict) -> dict:
    """The same values with fresh lists, so a copy never shares a list with its source.

    History events are never changed once written, so the copies share them.
    """
    values = dict(values)
    for name in LISTS_OF_LISTS:
        values[name] = [list(inner) for inner in values[name]]
    for name in LISTS:
        values[name] = list(values[name])
    return values


def clone(state: State) -> State:
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    return State(rng=rng, **copied({name: getattr(state, name) for name in FIELDS}))


def dump(state: State) -> dict:
    data = copied({name: getattr(state, name) for name in FIELDS})
    data["history"] = [dict(event) for event in data["history"]]
    data["rng"] = rng_dump(state.rng)
    return data


def load(data: dict) -> State:
    values = copied({name: data[name] for name in FIELDS})
    values["history"] = [dict(event) for event in values["history"]]
    return State(rng=rng_load(data["rng"]), **values)
