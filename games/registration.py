"""What a game's package declares once (its `REGISTRATION`), so nothing else keeps a list of games.

Everything the site needs of a game is here or found from its slug: the engine, the house bots,
the bluff and fair-play figures its history can give, and the files beside the package (page
script, rules, engine notes, bot protocol, example bot) whose paths the properties below name.
docs/adding-a-game.md lists the steps; tests/test_adding_a_game.py fails while a registered game
lacks any part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from games.base import Game
from games.bots import Bot, RandomBot

# Who could doubt whom and did, from a match's public history: (doubter, target) -> [chances, doubts].
DoubtChances = Callable[[list[dict]], dict[tuple[int, int], list[int]]]


@dataclass(frozen=True)
class Registration:
    engine: Game
    # The house bots by the name players pick them by, weakest first (an alias shares a class);
    # every game also has the random bot.
    house_bots: dict[str, type[Bot]]
    # The table size bench/engines.py measures random playouts at.
    bench_players: int
    # Bluff and doubt counts per seat from the public history (ratings/bluffs.py); None: the
    # history shows no bluffs.
    bluff_tally: Callable | None = field(default=None, kw_only=True)
    # For the collusion check (fairplay): None where the history does not say who doubted whom.
    doubt_chances: DoubtChances | None = field(default=None, kw_only=True)
    # Each seat's reaction times (ms) of right claims, for the speed check of a real-time race.
    reaction_times: Callable[[list[dict]], dict[int, list[int]]] | None = field(default=None, kw_only=True)

    @property
    def slug(self) -> str:
        return self.engine.slug

    @property
    def bots(self) -> dict[str, type[Bot]]:
        """Every name a house bot answers to, the random bot first."""
        return {"random": RandomBot, **self.house_bots}

    @property
    def script(self) -> str:
        """The table's and the replay's script, under static/: it draws a view and words the events."""
        return f"js/games/{self.slug}.js"

    @property
    def rules_doc(self) -> str:
        """The rules as players read them (the rules page), under docs/."""
        return f"rules/{self.slug}.md"

    @property
    def engine_doc(self) -> str:
        """The engine's notes for bot authors, under docs/."""
        return f"engine/{self.slug}.md"

    @property
    def protocol_doc(self) -> str:
        """Every action and view field, for bot authors, under docs/."""
        return f"protocol/{self.slug}.md"

    @property
    def example_bot(self) -> str:
        """The example bot's module name in platform/botapi/client/examples/ (and its download's URL)."""
        return self.slug.replace("-", "_")
