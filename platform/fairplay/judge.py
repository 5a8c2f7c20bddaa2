"""Judging accounts after a match: sum each one's stored figures, run the detectors, keep the flags.

A flag, once raised, stays until staff review it; later matches update its figures while it is
open. The ids of the accounts flagged for the first time are returned (bench, tests)."""

import bisect
import statistics
from collections.abc import Callable

from django.contrib.auth import get_user_model
from django.db.models import Q, Sum

from fairplay import detectors
from fairplay.models import ChallengeRecord, Flag, PlayRecord, Sighting
from games.matches.models import Match
from games.registry import registered
from ratings.models import RatingChange

REACTION_BINS_MS = (250, 400, 600, 800, 1000, 1500, 2000, 3000)
THINK_BINS_S = (0.5, 1, 2, 3, 5, 8, 13, 20)
POPULATION = 5000  # the latest records that make people's and bots' distributions
RING_GAMES = 200  # the latest rated games whose opponents a ring is looked for among


def judge_match(match: Match, user_ids: list[int]) -> list[Flag]:
    raised = []
    people = set(PlayRecord.objects.filter(match=match, person=True).values_list("user_id", flat=True))
    game = registered(match.game)
    for user_id in user_ids:
        if user_id not in people:
            continue  # bots play as bots: only people's accounts are judged for speed and regularity
        if game.reaction_times:
            raised += keep(user_id, Flag.Kind.REACTIONS, match.game, None, judge_reactions(user_id, match.game))
        elif not match.engine.realtime:
            raised += keep(user_id, Flag.Kind.REGULARITY, "", None, *judge_regularity(user_id))
    pairs = [(a, b) for i, a in enumerate(user_ids) for b in user_ids[i + 1 :]]
    if game.doubt_chances and match.players >= 3:
        base_rate = game_doubt_rate(match.game)
        for a, b in pairs:
            finding = detectors.pair_sparing(*challenges_between(match.game, a, b), base_rate)
            raised += keep_pair(a, b, Flag.Kind.COLLUSION, match.game, finding)
    if match.ranked:
        for a, b in pairs:
            finding = judge_farming(match.game, a, b)
            if finding is not None:
                raised += keep_pair(a, b, Flag.Kind.FARMING, match.game, finding)
        for user_id in user_ids:
            raised += keep(user_id, Flag.Kind.RING, match.game, None, judge_ring(match.game, user_id))
    return raised


def judge_reactions(user_id: int, game: str) -> detectors.Finding:
    mine = [t for times in records(user_id, game).values_list("reactions_ms", flat=True) for t in times]
    population = PlayRecord.objects.filter(game=game).exclude(user_id=user_id).order_by("-id")[:POPULATION]
    people, bots = [], []
    for person, times in population.values_list("person", "reactions_ms"):
        (people if person else bots).extend(times)
    share = sum(t < detectors.HUMAN_BOUND_MS for t in people) / len(people) if people else 0.0
    finding = detectors.reactions(mine, share, median(people), median(bots))
    finding.figures["chart"] = histogram(REACTION_BINS_MS, "ms", {"this account": mine, "people": people})
    return finding


def judge_regularity(user_id: int) -> tuple[detectors.Finding, Callable[[], dict]]:
    """The finding, from the account's own think times alone, and a function that charts them
    beside people's: called only for a flag that is written, since people's are up to POPULATION
    records read and binned (with 5,000 stored, 150 of a finished Dudo match's 177 ms of scoring)
    and nearly every review is of an account with nothing to flag."""
    mine = [s for times in records(user_id).values_list("think_seconds", flat=True) for s in times]

    def chart() -> dict:
        people = PlayRecord.objects.filter(person=True).exclude(user_id=user_id).order_by("-id")[:POPULATION]
        theirs = [s for times in people.values_list("think_seconds", flat=True) for s in times]
        return histogram(THINK_BINS_S, "s", {"this account": mine, "people": theirs})

    return detectors.regularity(mine), chart


def challenges_between(game: str, a: int, b: int) -> tuple[dict, dict, dict]:
    """Between the two each way; each one's doubting of everybody else; everybody else's of each one."""
    rows = (
        ChallengeRecord.objects.filter(Q(doubter__in=[a, b]) | Q(target__in=[a, b]), match__game=game)
        .values("doubter_id", "target_id")
        .annotate(chances=Sum("chances"), doubts=Sum("doubts"))
    )
    between, doubting, doubted = {}, {a: [0, 0], b: [0, 0]}, {a: [0, 0], b: [0, 0]}
    for row in rows:
        doubter, target, counts = row["doubter_id"], row["target_id"], (row["chances"], row["doubts"])
        if {doubter, target} == {a, b}:
            between[(doubter, target)] = counts
            continue
        for side, account in ((doubting, doubter), (doubted, target)):
            if account in side:
                side[account][0] += counts[0]
                side[account][1] += counts[1]
    return between, *({user: tuple(c) for user, c in side.items()} for side in (doubting, doubted))


def game_doubt_rate(game: str) -> float:
    """Doubts per chance over the game's latest records: the base rate habits start from."""
    latest = ChallengeRecord.objects.filter(match__game=game).order_by("-id")[:POPULATION]
    chances = doubts = 0
    for c, d in latest.values_list("chances", "doubts"):
        chances, doubts = chances + c, doubts + d
    return doubts / chances if chances else 0.0


def judge_farming(game: str, a: int, b: int) -> detectors.Finding | None:
    """From the pair's rated games in this game (the ratings ledger), in the order they were rated."""
    changes = RatingChange.objects.filter(game=game, user__in=[a, b]).order_by("finished_at", "match_id")
    by_match: dict[int, dict[int, RatingChange]] = {}
    for change in changes:
        by_match.setdefault(change.match_id, {})[change.user_id] = change
    games = []
    for seats in by_match.values():
        if len(seats) == 2:
            mine, theirs = seats[a], seats[b]
            score = 1.0 if mine.place < theirs.place else 0.5 if mine.place == theirs.place else 0.0
            games.append((score, mine.before, theirs.before, mine.delta, theirs.delta))
    if not games:
        return None
    totals = tuple(sum(c.delta for c in changes if c.user_id == user) for user in (a, b))
    finding = detectors.pair_farming(games, totals, shared_device(a, b))
    finding.figures["chart"] = {
        "labels": [str(n + 1) for n in range(len(games))],
        "unit": "rating points per game together",
        "series": {"first account's change": [round(g[3], 1) for g in games]},
    }
    return finding


def judge_ring(game: str, user_id: int) -> detectors.Finding:
    """From the ratings ledger: the account's opponents in its latest RING_GAMES rated games of the
    game, what it scored and gained against them, and everyone else those opponents were rated against."""
    mine = RatingChange.objects.filter(game=game, user_id=user_id).order_by("-finished_at", "-match_id")
    places = {
        match_id: (place, delta)
        for match_id, place, delta in mine.values_list("match_id", "place", "delta")[:RING_GAMES]
    }
    scores: list[float] = []
    gained: dict[int, float] = {}
    met = RatingChange.objects.filter(match_id__in=places).exclude(user_id=user_id)
    for match_id, other, place in met.values_list("match_id", "user_id", "place"):
        my_place, delta = places[match_id]
        scores.append(1.0 if my_place < place else 0.5 if my_place == place else 0.0)
        gained[other] = gained.get(other, 0.0) + delta
    opponents: dict[int, set[int]] = {other: set() for other in gained}
    theirs = RatingChange.objects.filter(game=game, user_id__in=opponents).values("match_id")
    tables: dict[int, set[int]] = {}
    for match_id, other in RatingChange.objects.filter(match_id__in=theirs).values_list("match_id", "user_id"):
        tables.setdefault(match_id, set()).add(other)
    for players in tables.values():
        for other in players & opponents.keys():
            opponents[other] |= players - {other, user_id}
    gain = sum(delta for _, delta in places.values())
    finding = detectors.ring(opponents, sum(scores) / len(scores) if scores else 0.0, len(places), gain)
    most = sorted(gained, key=gained.get, reverse=True)[:20]
    names = dict(get_user_model().objects.filter(pk__in=most).values_list("pk", "username"))
    finding.figures["chart"] = {
        "labels": [names[other] for other in most],
        "unit": "rating points gained against each opponent",
        "series": {"this account": [round(gained[other], 1) for other in most]},
    }
    return finding


def shared_device(a: int, b: int) -> bool:
    mine = Sighting.objects.filter(user_id=a)
    addresses = mine.exclude(address=None).values("address")
    browsers = mine.exclude(browser="").values("browser")
    return Sighting.objects.filter(Q(address__in=addresses) | Q(browser__in=browsers), user_id=b).exists()


def records(user_id: int, game: str | None = None):
    found = PlayRecord.objects.filter(user_id=user_id)
    return found.filter(game=game) if game else found


def median(values: list) -> float | None:
    return round(statistics.median(values)) if values else None


def histogram(bins: tuple, unit: str, series: dict[str, list]) -> dict:
    """Each series' share of values in each bin (the last bin open-ended), for charts.bars_svg."""
    edges = [0, *bins]
    labels = [f"{low:g}-{high:g}" for low, high in zip(edges, edges[1:], strict=False)] + [f"{bins[-1]:g}+"]
    shares = {}
    for name, values in series.items():
        counts = [0] * len(labels)
        for value in values:  # the bin after the last edge at or below it (a generator per value was most of a review)
            counts[bisect.bisect_right(bins, value)] += 1
        shares[name] = [round(c / len(values), 3) if values else 0 for c in counts]
    return {"labels": labels, "unit": f"share of moves by {unit}", "series": shares}


def keep(
    user_id: int, kind: str, game: str, partner: int | None, finding: detectors.Finding,
    chart: Callable[[], dict] | None = None,
) -> list[Flag]:  # fmt: skip
    """Raise or update the flag; the new flag in a list when raised now. `chart`, if given,
    builds the evidence's chart when the flag is written. Nearly every finding flags nothing,
    and then no flag is read (two of a two-seat match's 23 scoring queries were such reads)."""
    if not finding.flagged:
        return []
    existing = Flag.objects.filter(user_id=user_id, kind=kind, game=game, partner_id=partner).first()
    if existing is not None and existing.status != Flag.Status.OPEN:
        return []
    if chart is not None:
        finding.figures["chart"] = chart()
    if existing is not None:
        existing.score, existing.evidence = finding.score, finding.figures
        existing.save(update_fields=["score", "evidence", "updated_at"])
        return []
    seen = PlayRecord.objects.filter(user_id=user_id, **({"game": game} if game else {})).count()
    flag = Flag.objects.create(
        user_id=user_id, kind=kind, game=game, partner_id=partner, score=finding.score, evidence=finding.figures,
        matches_seen=seen,
    )  # fmt: skip
    return [flag]


def keep_pair(a: int, b: int, kind: str, game: str, finding: detectors.Finding) -> list[Flag]:
    return keep(a, kind, game, b, finding) + keep(b, kind, game, a, finding)
