"""The Dudab Buba state and its JSON round trip; kept to lists so clones are cheap."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.base import rng_dump, rng_load
from games.dudab.placement import Column


@dataclass(slots=True)
class DudabState:
    players: int
    options: dict
    rng: random.Random
    first_starter: int  # the seat that started round 1; each round starts one seat further left
    round: int = 1
    turn: int = 0
    deck: list[str] = field(default_factory=list)  # the draw pile, top card last
    discard: list[str] = field(default_factory=list)  # face up, top card last
    hands: list[list[str]] = field(default_factory=list)
    own: list[list[str]] = field(default_factory=list)  # each seat's collected pile
    columns: list[Column] = field(default_factory=list)
    binding: int = -1  # the column whose Dudab request binds everyone, -1 for none
    shaman_pending: bool = False  # the seat to act must answer a Shaman
    tasks: list[dict] = field(default_factory=list)  # follow-up choices owed before the turn ends, in order
    round_scores: list[list[int]] = field(default_factory=list)
    over: bool = False
    history: list[dict] = field(default_factory=list)  # public events; entries are never changed once written


def dump_state(state: DudabState) -> dict:
    return {
        "players": state.players, "options": dict(state.options), "rng": rng_dump(state.rng),
        "first_starter": state.first_starter, "round": state.round, "turn": state.turn,
        "deck": list(state.deck), "discard": list(state.discard),
        "hands": [list(h) for h in state.hands], "own": [list(o) for o in state.own],
        "columns": [
            {"cards": list(c.cards), "visible_from": c.visible_from, "jungle_at": c.jungle_at,
             "request": None if c.request is None else list(c.request)}
            for c in state.columns
        ],
        "binding": state.binding, "shaman_pending": state.shaman_pending,
        "tasks": [dict(t) for t in state.tasks], "round_scores": [list(r) for r in state.round_scores],
        "over": state.over, "history": list(state.history),
    }


def load_state(data: dict) -> DudabState:
    return DudabState(
        players=data["players"], options=dict(data["options"]), rng=rng_load(data["rng"]),
        first_starter=data["first_starter"], round=data["round"], turn=data["turn"],
        deck=list(data["deck"]), discard=list(data["discard"]),
        hands=[list(h) for h in data["hands"]], own=[list(o) for o in data["own"]],
        columns=[
            Column(list(c["cards"]), c["visible_from"], c["jungle_at"],
                   None if c["request"] is None else tuple(c["request"]))
            for c in data["columns"]
        ],
        binding=data["binding"], shaman_pending=data["shaman_pending"],
        tasks=[dict(t) for t in data["tasks"]], round_scores=[list(r) for r in data["round_scores"]],
        over=data["over"], history=list(data["history"]),
    )


def clone_state(state: DudabState) -> DudabState:
    rng = random.Random()
    rng.setstate(state.rng.getstate())
    return DudabState(
        players=state.players, options=state.options, rng=rng, first_starter=state.first_starter,
        round=state.round, turn=state.turn, deck=list(state.deck), discard=list(state.discard),
        hands=[list(h) for h in state.hands], own=[list(o) for o in state.own],
        columns=[c.copy() for c in state.columns], binding=state.binding,
        shaman_pending=state.shaman_pending, tasks=[dict(t) for t in state.tasks],
        round_scores=[list(r) for r in state.round_scores], over=state.over, history=list(state.history),
    )
