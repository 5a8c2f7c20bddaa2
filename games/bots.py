"""House bots: pure players that see only their seat's view.

Each game's folder has a `bots.py` with a `BOTS` dict of name -> Bot class.
A bot never reads the engine state, only `view(state, seat)` and the legal
actions, so it cannot cheat and an uploaded bot gets exactly the same input.
"""

from __future__ import annotations

import importlib
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


GAME_PACKAGES = {
    "dubito": "games.dubito",
    "dudo": "games.dudo",
    "doubt-it": "games.doubt_it",
    "dobble": "games.dobble",
    "dudab": "games.dudab",
}


def bot_names(slug: str) -> list[str]:
    """Every name a house bot answers to (an alias such as Dobble's `heuristic` too)."""
    return sorted(_bots(slug))


def bot_strengths(slug: str) -> list[tuple[str, str]]:
    """The house bots players choose from, weakest first, each once (aliases left out): (name, words)."""
    seen: dict[type[Bot], str] = {}
    for name, bot in _bots(slug).items():
        seen.setdefault(bot, name)
    return [(name, bot.strength) for bot, name in seen.items()]


def get_bot(slug: str, name: str) -> Bot:
    bots = _bots(slug)
    if name not in bots:
        raise KeyError(f"{slug} has no house bot {name!r}; choose from {', '.join(sorted(bots))}.")
    return bots[name]()


def _bots(slug: str) -> dict[str, type[Bot]]:
    module = importlib.import_module(GAME_PACKAGES[slug] + ".bots")
    return {"random": RandomBot, **module.BOTS}
