"""The registry of Dubium's games: `GAMES` by slug and `get_game(slug)`."""

from games.base import KEPT_HISTORY, Action, Game, IllegalAction, Option
from games.dobble.rules import GAME as DOBBLE
from games.doubt_it.rules import GAME as DOUBT_IT
from games.dubito.rules import GAME as DUBITO
from games.dudab.rules import GAME as DUDAB
from games.dudo.rules import GAME as DUDO

GAMES: dict[str, Game] = {game.slug: game for game in (DUBITO, DUDO, DOUBT_IT, DOBBLE, DUDAB)}

__all__ = ["KEPT_HISTORY", "Action", "GAMES", "Game", "IllegalAction", "Option", "get_game"]


def get_game(slug: str) -> Game:
    try:
        return GAMES[slug]
    except KeyError:
        raise IllegalAction(f"There is no game called {slug!r}.") from None
