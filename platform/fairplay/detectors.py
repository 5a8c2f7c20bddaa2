"""The five fair-play signals: each takes an account's (or a pair's) figures, summed over
its finished matches, and says whether they are too unlikely for an honest player.

Pure functions (no Django): the Celery task (review.py) and the benchmark (bench/fairplay.py)
run this same code. Thresholds and the reasons for them are in docs/fair-play.md.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field

# Dobble: people need about a second to spot the shared symbol; a third of a second is a
# program's or a very rare lucky glance.
HUMAN_BOUND_MS = 400
PEOPLE_SHARE_FLOOR = 0.02  # the share under the bound assumed for people, whatever fewer data say
MIN_REACTIONS = 8
REACTION_P = 1e-6  # one honest account in a million flagged by chance
# Collusion: enough chances between the two, far fewer doubts than their habits predict.
MIN_PAIR_CHANCES = 20
SPARING_P = 1e-6
# Doubts within one game hang together (a big hand is doubted by nobody, a last card by all), so
# they vary about twice as much as independent chances would: the test counts half the chances.
DISPERSION = 2.0
SPARING_RATIO = 0.35
HABIT_PRIOR = 20  # chances' worth of the game's base rate a player's own doubt rate starts from
# Farming.
MIN_PAIR_GAMES = 6
ONE_SIDED_Z = 4.0
ALTERNATING_Z = 3.0
SINGLE_OPPONENT_SHARE = 0.6
SINGLE_OPPONENT_POINTS = 80.0
SHARED_DEVICE_EASING = 1.0  # a pair sharing an address or a browser needs this much less of a z
SUPPORTING_Z = 2.5
# Rings: a rating fed by opponents who play nobody but the account and each other.
MIN_RING_OPPONENTS = 5
RING_CLOSED_SHARE = 0.8
RING_SCORE = 0.8
RING_POINTS = 150.0
# Move-time regularity: people's thinking times vary (coefficient of variation about 0.5-1).
MIN_MOVES = 40
REGULAR_CV = 0.12


@dataclass
class Finding:
    flagged: bool
    score: float  # how unlikely for an honest player: -log10 of the p-value, or a z
    figures: dict = field(default_factory=dict)


def binomial_upper(k: int, n: int, p: float) -> float:
    """P(X >= k) for X ~ Binomial(n, p)."""
    if k <= 0:
        return 1.0
    return min(1.0, sum(math.exp(log_binomial(i, n, p)) for i in range(k, n + 1)))


def binomial_lower(k: int, n: int, p: float) -> float:
    """P(X <= k) for X ~ Binomial(n, p)."""
    if k >= n:
        return 1.0
    return min(1.0, sum(math.exp(log_binomial(i, n, p)) for i in range(0, k + 1)))


def log_binomial(i: int, n: int, p: float) -> float:
    p = min(max(p, 1e-12), 1 - 1e-12)
    return math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p) + (n - i) * math.log1p(-p)


def surprise(p_value: float) -> float:
    return -math.log10(max(p_value, 1e-300))


def reactions(times_ms: list[int], people_share_under: float, people_median: float | None,
              bots_median: float | None) -> Finding:  # fmt: skip
    """Dobble: right claims faster than people react, more often than people's own share says."""
    n = len(times_ms)
    under = sum(t < HUMAN_BOUND_MS for t in times_ms)
    baseline = max(PEOPLE_SHARE_FLOOR, people_share_under)
    p_value = binomial_upper(under, n, baseline)
    quartiles = statistics.quantiles(times_ms, n=4) if n >= 2 else [0, 0, 0]
    figures = {
        "right claims": n,
        "median ms": round(statistics.median(times_ms)) if n else None,
        "share under bound": round(under / n, 3) if n else None,
        "spread ms": round(quartiles[2] - quartiles[0]),
        "people's share under bound": round(baseline, 3),
        "people's median ms": people_median,
        "house bots' median ms": bots_median,
        "p-value": p_value,
    }
    return Finding(n >= MIN_REACTIONS and p_value < REACTION_P, surprise(p_value), figures)


def sparing(chances: int, doubts: int, expected_rate: float) -> Finding:
    """Collusion: a pair doubts each other far less than each doubts the others at their tables
    (`expected_rate`: the doubts their own habits predict per chance, from those tables)."""
    expected = chances * expected_rate
    effective = round(chances / DISPERSION)
    p_value = binomial_lower(math.floor(doubts / DISPERSION), effective, expected_rate) if effective else 1.0
    ratio = doubts / expected if expected else 1.0
    figures = {
        "chances against each other": chances,
        "doubts of each other": doubts,
        "doubts expected": round(expected, 1),
        "ratio": round(ratio, 2),
        "p-value": p_value,
    }
    flagged = chances >= MIN_PAIR_CHANCES and p_value < SPARING_P and ratio < SPARING_RATIO
    return Finding(flagged, surprise(p_value), figures)


def farming(results: list[float], expected: list[float], gains: tuple[float, float],
            total_gains: tuple[float, float], shared_device: bool) -> Finding:  # fmt: skip
    """Farming within one pair of accounts, from the first's side: `results` its scores (1 win,
    0 loss, 0.5 shared) in order, `expected` its Elo expectation each game, `gains` each one's
    rating gained from the other, `total_gains` each one's net rating gained from everybody."""
    n = len(results)
    variance = sum(p * (1 - p) for p in expected) or 1.0
    one_sided = (sum(results) - sum(expected)) / math.sqrt(variance)
    alternating = runs_z([r for r in results if r != 0.5])
    shares = [gain / total if total > 0 and gain > 0 else 0.0 for gain, total in zip(gains, total_gains, strict=True)]
    single = max(
        (share for share, gain in zip(shares, gains, strict=True) if gain >= SINGLE_OPPONENT_POINTS), default=0.0
    )
    easing = SHARED_DEVICE_EASING if shared_device else 0.0
    reasons = []
    if abs(one_sided) >= ONE_SIDED_Z - easing:
        reasons.append("one-sided results")
    if alternating >= ALTERNATING_Z - easing:
        reasons.append("alternating results")
    # Beating one opponent of a similar rating again and again is common enough on its own: it
    # counts with a device in common or results already far from what the ratings expected.
    if single >= SINGLE_OPPONENT_SHARE and (shared_device or abs(one_sided) >= SUPPORTING_Z):
        reasons.append("rating gained from one opponent")
    figures = {
        "rated games together": n,
        "wins of the first": sum(r == 1 for r in results),
        "one-sided z": round(one_sided, 2),
        "alternation z": round(alternating, 2),
        "share of a rating gain from the other": round(single, 2),
        "shared address or browser": shared_device,
        "reasons": reasons,
    }
    flagged = n >= MIN_PAIR_GAMES and bool(reasons)
    return Finding(flagged, max(abs(one_sided), alternating, single * 5), figures)


def runs_z(outcomes: list[float]) -> float:
    """Wald-Wolfowitz: how many more runs (changes of winner) than chance gives, as a z; 0 when too few."""
    wins, losses = sum(outcomes), len(outcomes) - sum(outcomes)
    n = wins + losses
    if wins < 2 or losses < 2:
        return 0.0
    runs = 1 + sum(a != b for a, b in zip(outcomes, outcomes[1:], strict=False))
    mean = 1 + 2 * wins * losses / n
    variance = 2 * wins * losses * (2 * wins * losses - n) / (n * n * (n - 1))
    return (runs - mean) / math.sqrt(variance) if variance > 0 else 0.0


def regularity(seconds: list[float]) -> Finding:
    """A program in people's pools: thinking times that hardly vary."""
    n = len(seconds)
    mean = statistics.fmean(seconds) if n else 0.0
    cv = statistics.pstdev(seconds) / mean if n >= 2 and mean > 0 else 1.0
    figures = {"moves": n, "mean seconds": round(mean, 2), "variation": round(cv, 3)}
    return Finding(n >= MIN_MOVES and cv < REGULAR_CV, (1 - cv) * 10, figures)


def pair_sparing(between: dict[tuple[int, int], tuple[int, int]], doubting: dict[int, tuple[int, int]],
                 doubted: dict[int, tuple[int, int]], base_rate: float) -> Finding:  # fmt: skip
    """`sparing` for a pair. `between`: for (doubter, target) each way, the chances and doubts
    between the two; `doubting`: each one's chances and doubts against everybody else;
    `doubted`: everybody else's chances and doubts against each one; `base_rate`: the game's
    doubts per chance. How often A doubts B is predicted from how often A doubts others and how
    often others doubt B (a wild bidder is doubted by everyone), each drawn towards the base
    rate while it rests on few chances."""
    chances = doubts = 0
    expected = 0.0
    for (doubter, target), (pair_chances, pair_doubts) in between.items():
        rate = habit(doubting.get(doubter, (0, 0)), base_rate) * habit(doubted.get(target, (0, 0)), base_rate)
        rate = min(0.99, rate / base_rate) if base_rate else 0.0
        chances += pair_chances
        doubts += pair_doubts
        expected += pair_chances * rate
    return sparing(chances, doubts, expected / chances if chances else 0.0)


def habit(counts: tuple[int, int], base_rate: float) -> float:
    chances, doubts = counts
    return (doubts + HABIT_PRIOR * base_rate) / (chances + HABIT_PRIOR)


def elo_expected(mine: float, theirs: float) -> float:
    return 1 / (1 + 10 ** ((theirs - mine) / 400))


def pair_farming(games: list[tuple[float, float, float, float, float]], total_gains: tuple[float, float],
                 shared_device: bool) -> Finding:  # fmt: skip
    """`farming` from the pair's rated games in order, each (first's score, first's rating before,
    second's before, first's change, second's change)."""
    results = [game[0] for game in games]
    expected = [elo_expected(game[1], game[2]) for game in games]
    gains = (sum(game[3] for game in games), sum(game[4] for game in games))
    return farming(results, expected, gains, total_gains, shared_device)


def ring(opponents: dict[int, set[int]], score: float, games: int, gain: float) -> Finding:
    """A closed ring feeding one rating. `opponents` maps each of the account's rated opponents to
    everyone else that opponent was rated against (the account left out); `score` is the account's
    share of points against them over `games` rated games, `gain` the rating it took from them.
    Puppets that play nobody else (or only each other) and lose to it: a tester's 14 fresh
    accounts, 5 games each, stayed under the pair signal's 6 games and put their farmer first."""
    closed = [member for member, theirs in opponents.items() if theirs <= opponents.keys()]
    share = len(closed) / len(opponents) if opponents else 0.0
    figures = {
        "opponents": len(opponents),
        "opponents who played nobody outside the ring": len(closed),
        "rated games against them": games,
        "score against them": round(score, 2),
        "rating gained from them": round(gain, 1),
    }
    flagged = (
        len(opponents) >= MIN_RING_OPPONENTS
        and share >= RING_CLOSED_SHARE
        and score >= RING_SCORE
        and gain >= RING_POINTS
    )
    return Finding(flagged, round(share * 10 + gain / 100, 2), figures)
