"""Elo for two players and for free-for-all tables (pure: no Django; docs/ratings.md has worked examples).

Two players: the classic update `K * (score - expected)` with the expected score on the 400 scale.

A table of n players (3 to 11 seats) is n(n-1)/2 duels by final ranking: each pair scores 1 for the
better place, ½ for a tie and 0 for the worse place, and each player's K is divided by n-1, so that
finishing first at a table of four against equals moves a rating as much as one two-player win.

K by experience (the USCF/FIDE pattern): 40 while provisional (fewer than 30 rated games in the
game, so a new account reaches its level in a few dozen games), then 20, and 10 from 2400 up, where
ratings are established and a smaller step keeps the top of the ladder from swinging on one game.
"""

from collections.abc import Sequence

START = 1500.0
PROVISIONAL_GAMES = 30
K_PROVISIONAL, K_ESTABLISHED, K_MASTER = 40.0, 20.0, 10.0
MASTER_RATING = 2400.0


def expected(rating: float, opponent: float) -> float:
    """The expected score of `rating` against `opponent`: 0.5 between equals, 0.91 for +400."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def k_factor(rating: float, games: int) -> float:
    if is_provisional(games):
        return K_PROVISIONAL
    return K_MASTER if rating >= MASTER_RATING else K_ESTABLISHED


def places(ranking: Sequence[Sequence[int]]) -> dict[int, int]:
    """{seat: 0-based place} from a ranking of tied groups, best first ([[1], [0, 2]] -> 1: 0, 0: 1, 2: 1)."""
    return {seat: position for position, group in enumerate(ranking) for seat in group}


def deltas(ratings: Sequence[float], games: Sequence[int], place: Sequence[int]) -> list[float]:
    """The change of every player's rating (by index) after one table; place: 0 = first, equal = tied."""
    n = len(ratings)
    if n < 2:
        return [0.0] * n
    changes = []
    for i in range(n):
        score = expect = 0.0
        for j in range(n):
            if i != j:
                score += 1.0 if place[i] < place[j] else 0.5 if place[i] == place[j] else 0.0
                expect += expected(ratings[i], ratings[j])
        changes.append(k_factor(ratings[i], games[i]) / (n - 1) * (score - expect))
    return changes
