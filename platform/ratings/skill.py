"""OpenSkill (Weng-Lin Bayesian rating, Plackett-Luce model) beside Elo (pure: no Django).

Each player has a mean skill `mu` (25 at the start) and an uncertainty `sigma` (25/3) that shrinks
with every game; `ordinal` = mu - 3 sigma is a conservative estimate for ladders. Ties share a rank.
"""

import math
from collections.abc import Sequence

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
# Elo points per unit of mu at settled sigmas: the duel win chance 1 / (1 + e^(-d / (sqrt(2) beta)))
# equals Elo's 1 / (1 + 10^(-D/400)) when D = d * 400 / (ln 10 * sqrt(2) * beta) ~ 29.5 d.
ELO_PER_MU = 400 / (math.log(10) * math.sqrt(2) * MODEL.beta)


def update(skills: Sequence[tuple[float, float]], place: Sequence[int]) -> list[tuple[float, float]]:
    """New (mu, sigma) of every player at one table; place: 0 = first, equal places are ties."""
    teams = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in skills], ranks=list(place))
    return [(team[0].mu, team[0].sigma) for team in teams]


def win_probability(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The chance that a player with skill a = (mu, sigma) finishes ahead of b, in the model's own terms:
    Plackett-Luce's e^(mu_a/c) / (e^(mu_a/c) + e^(mu_b/c)), c = sqrt(2 beta^2 + sigma_a^2 + sigma_b^2).

    (The package's predict_win uses a normal curve instead, which is overconfident for these ratings:
    bench/ratings.py measures both.)
    """
    c = math.sqrt(2 * MODEL.beta**2 + a[1] ** 2 + b[1] ** 2)
    return 1.0 / (1.0 + math.exp((b[0] - a[0]) / c))


def predict_win(a: tuple[float, float], b: tuple[float, float]) -> float:
    """The package's own predict_win for a duel (normal curve), for comparison."""
    c = math.sqrt(2 * MODEL.beta**2 + a[1] ** 2 + b[1] ** 2)
    return 0.5 * (1.0 + math.erf((a[0] - b[0]) / (c * math.sqrt(2))))


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def elo_scale(mu: float) -> float:
    """mu on the Elo scale (25 -> 1500), so the matchmaker's windows in Elo points apply to either."""
    return 1500.0 + (mu - MU) * ELO_PER_MU
