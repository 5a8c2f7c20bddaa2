"""Dobble bots: players that spot the shared symbol after a human-like delay.

A reaction bot looks at the face-up cards of its view, finds the symbol its
claim must name (any two cards share exactly one) and answers after a reaction
time drawn from a lognormal distribution, counted from the moment the face-up
cards last changed (`changed_ms`), not from other players' wrong claims:

| bot    | median | spread (sigma) | wrong claims |
|--------|--------|----------------|--------------|
| easy   | 2200 ms | 0.35          | 8 %          |
| medium | 1400 ms | 0.30          | 4 %          |
| hard   | 800 ms  | 0.25          | 1 %          |

(`heuristic` is the medium bot under the name every game has; players choose
from easy, medium and hard, so the alias is not offered twice.) A wrong
claim names another symbol of the same card, like a person who misreads one.
When several right claims are possible the bot prefers, in the poisoned gift,
to give the card to the seat that has received the fewest (the leader), else
the first target it finds. A bot never claims before its lockout is over: it
gets no claims while others are free, and when every seat is locked out its
claims carry their earliest at_ms, which reaction_ms waits for.
"""

from __future__ import annotations

import math
import random

from games.base import Action
from games.bots import Bot


class ReactionBot(Bot):
    name = "reaction"
    median_ms = 1400
    sigma = 0.30
    mistake_rate = 0.04

    def __init__(self) -> None:
        # The claim being prepared: for which situation, its index in the legal claims, and when it is ready.
        self._plan: tuple[tuple, int, int] | None = None

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action | None:
        if not legal:
            return None
        situation = (
            view["changed_ms"],
            tuple((claim["target"], claim["symbol"]) for claim in legal),
            own_misses_since_change(view),
        )
        if self._plan is None or self._plan[0] != situation:
            locked_until = view["lockouts"].get(str(view["seat"]), 0)
            ready_ms = max(view["changed_ms"] + self._reaction(rng), locked_until)
            self._plan = (situation, legal.index(self._pick(view, legal, rng)), ready_ms)
        return legal[self._plan[1]]

    def reaction_ms(self, view: dict, action: Action, rng: random.Random) -> int:
        ready_ms = self._plan[2] if self._plan is not None else view["now_ms"]
        return max(0, ready_ms - view["now_ms"], action.get("at_ms", 0) - view["now_ms"])

    def _reaction(self, rng: random.Random) -> int:
        return round(self.median_ms * math.exp(rng.gauss(0.0, self.sigma)))

    def _pick(self, view: dict, legal: list[Action], rng: random.Random) -> Action:
        by_target: dict = {}
        for action in legal:
            by_target.setdefault(action["target"], []).append(action)
        target = self._preferred_target(view, list(by_target))
        claims = by_target[target]
        first, second = compared_symbols(view, target)
        answer = next(iter(set(first) & set(second)))
        right = next(claim for claim in claims if claim["symbol"] == answer)
        if rng.random() < self.mistake_rate:
            return rng.choice([claim for claim in claims if claim is not right])
        return right

    @staticmethod
    def _preferred_target(view: dict, targets: list):
        if view["mini_game"] == "poisoned-gift" and view["phase"] == "play":
            return min(targets, key=lambda seat: (view["seats"][seat]["score"], seat))
        return targets[0]


def own_misses_since_change(view: dict) -> int:
    """The viewer's wrong claims since the face-up cards last changed: each one calls for a fresh look."""
    misses = 0
    for event in reversed(view["history"]):
        if event["at_ms"] < view["changed_ms"]:
            break
        misses += event["type"] == "claim" and event["seat"] == view["seat"] and not event["correct"]
    return misses


def compared_symbols(view: dict, target) -> tuple[list[int], list[int]]:
    """The symbols of the two face-up cards a claim on this target compares, read from the view."""
    seats = view["seats"]
    own = seats[view["seat"]]["top"]
    if view["phase"] == "tiebreak" or view["mini_game"] == "hot-potato":
        return own["symbols"], seats[target]["top"]["symbols"]
    if view["mini_game"] == "towering-inferno":
        return own["symbols"], view["pile"]["top"]["symbols"]
    if view["mini_game"] == "the-well":
        return own["symbols"], view["middle"]["top"]["symbols"]
    if view["mini_game"] == "poisoned-gift":
        return view["pile"]["top"]["symbols"], seats[target]["top"]["symbols"]
    return view["middle"]["top"]["symbols"], view["revealed"][target]["symbols"]


class EasyBot(ReactionBot):
    name = "easy"
    strength = "Easy: slow to spot the picture, often wrong"
    median_ms = 2200
    sigma = 0.35
    mistake_rate = 0.08


class MediumBot(ReactionBot):
    name = "medium"
    strength = "Medium: as quick as a casual player"


class HardBot(ReactionBot):
    name = "hard"
    strength = "Hard: quick and rarely wrong"
    median_ms = 800
    sigma = 0.25
    mistake_rate = 0.01


BOTS = {"easy": EasyBot, "medium": MediumBot, "hard": HardBot, "heuristic": MediumBot}
