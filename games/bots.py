"""House bots: pure players that see only their seat's view.

Each game's folder has a `bots.py` with a `BOTS` dict of name -> Bot class, which its
registration carries (games/registry.py finds a game's bots by name). A bot never reads the
engine state, only `view(state, seat)` and the legal actions, so it cannot cheat and an
uploaded bot gets exactly the same input.
"""

from __future__ import annotations

import random

from games.base import Action


class Bot:
    """Picks an action for one seat from that seat's view."""

    name = "bot"
    # How players know it when they choose an opponent: a level word, then what it does.
    strength = ""

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action | None:
        """The action to play now, or None to wait (real-time games only)."""
        raise NotImplementedError

    def reaction_ms(self, view: dict, action: Action, rng: random.Random) -> int:
        """How long the bot takes to make this move; turn-based bots answer at once."""
        return 0


class RandomBot(Bot):
    """Uniform over the legal actions: the floor every other bot must beat."""

    name = "random"
    strength = "Beginner: plays at random"

    def choose(self, view: dict, legal: list[Action], rng: random.Random) -> Action | None:
        return rng.choice(legal) if legal else None
