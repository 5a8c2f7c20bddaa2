"""The engines of the registered games (games/registry.py): `GAMES` by slug and `get_game(slug)`."""

from games.base import KEPT_HISTORY, Action, Game, IllegalAction, Option
from games.registry import REGISTRY

GAMES: dict[str, Game] = {slug: registration.engine for slug, registration in REGISTRY.items()}

__all__ = ["KEPT_HISTORY", "Action", "GAMES", "Game", "IllegalAction", "Option", "get_game"]


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise IllegalAction(f"There is no game called {slug!r}.") from None
