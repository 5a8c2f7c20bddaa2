"""How a Dudab Buba game total at one table size compares with another, measured without the
field: games of equal house bots, with the tournament's own options, at each size.

Totals differ by size for reasons of the rules alone (a game has as many rounds as players,
and fewer players hold more cards each). Scaling by the event's own averages would also scale
away how strong each table happened to be, rewarding the weaker one; equal bots leave only the
rules' part. Seeded, so the same options and sizes always give the same factors.
"""

from functools import cache
from statistics import mean

from games.engine import get_game
from games.registry import get_bot
from games.simulate import play

GAMES_PER_SIZE = 120  # the mean's standard error is about 1.5% of it (docs/tournaments.md)
SEED = 20261126


def mean_total(options: dict, players: int) -> float:
    """The mean game total of a player at a table of `players` equal heuristic bots."""
    return measured(tuple(sorted(options.items())), players)


@cache  # seeded, so always the same figure: measured once a process (a second or two each)
def measured(options: tuple, players: int) -> float:
    game = get_game("dudab")
    totals = []
    for number in range(GAMES_PER_SIZE):
        playout = play(game, [get_bot("dudab", "heuristic") for _ in range(players)], SEED + number, dict(options))
        totals += [float(total) for total in game.result(playout.state)["scores"].values()]
    return mean(totals)


def dudab_factors(options: dict, sizes: set[int]) -> dict[int, float]:
    """Per table size, what a total is multiplied by to read as one at the largest tables (1.0
    there); nothing to scale where every table is alike."""
    if len(sizes) < 2:
        return {}
    reference = max(sizes)
    at_reference = mean_total(options, reference)
    return {size: 1.0 if size == reference else round(at_reference / mean_total(options, size), 4) for size in sizes}
