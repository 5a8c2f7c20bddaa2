"""The one list of Dubium's games: each package's registration, by slug, in the order pages show them.

Adding a game is a package that declares its `REGISTRATION` (games/registration.py) and one
entry here; docs/adding-a-game.md has the steps. Everything else reads the games from here
(games/engine.py's `GAMES` are these registrations' engines).
"""

from games import dobble, doubt_it, dubito, dudab, dudo
from games.bots import Bot
from games.registration import Registration

REGISTRY: dict[str, Registration] = {
    package.REGISTRATION.slug: package.REGISTRATION for package in (dubito, dudo, doubt_it, dobble, dudab)
}


def registered(slug: str) -> Registration:
    """The game's registration; a KeyError names the games there are."""
    if slug not in REGISTRY:
        raise KeyError(f"There is no game called {slug!r}; choose from {', '.join(REGISTRY)}.")
    return REGISTRY[slug]


def bot_names(slug: str) -> list[str]:
    """Every name a house bot answers to (an alias such as Dobble's `heuristic` too)."""
    return sorted(registered(slug).bots)


def bot_strengths(slug: str) -> list[tuple[str, str]]:
    """The house bots players choose from, weakest first, each once (aliases left out): (name, words)."""
    seen: dict[type[Bot], str] = {}
    for name, bot in registered(slug).bots.items():
        seen.setdefault(bot, name)
    return [(name, bot.strength) for bot, name in seen.items()]


def get_bot(slug: str, name: str) -> Bot:
    bots = registered(slug).bots
    if name not in bots:
        raise KeyError(f"{slug} has no house bot {name!r}; choose from {', '.join(sorted(bots))}.")
    return bots[name]()
