"""Bluff and doubt statistics: how often a player bluffed, was caught, doubted and was right.

Each game that has bluffing counts from its public history (games/<game>/bluffs.py), so a
bluff counts only where the rules showed it. A finished match is replayed from its seed and
log and its counts stored per account (`BluffRecord`); profiles and the API sum those rows.
"""

from django.db import transaction
from django.db.models import Count, Sum

from games.doubt_it.bluffs import tally as doubt_it_tally
from games.dudo.bluffs import tally as dudo_tally
from games.engine import GAMES
from games.matches.models import Match
from games.simulate import replay
from ratings.models import BluffRecord

TALLIES = {"dudo": dudo_tally, "doubt-it": doubt_it_tally}
FIELDS = ("claims", "judged", "bluffs", "caught", "chances", "doubts", "doubts_right")


def record_bluffs(match_id: int) -> int:
    """Store the finished match's counts for each seated account; idempotent. How many rows it wrote."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None or match.game not in TALLIES:
        return 0
    log = list(match.actions.values_list("seat", "action"))
    state = replay(GAMES[match.game], match.players, match.seed, match.options, log)
    counts = TALLIES[match.game](state.history)
    rows = []
    for number, user_id in match.seats.values_list("number", "user_id"):
        mine = counts.get(number, {})
        rows.append(BluffRecord(match=match, user_id=user_id, game=match.game, **{f: mine.get(f, 0) for f in FIELDS}))
    with transaction.atomic():
        BluffRecord.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def player_bluffs(user) -> list[dict]:
    """One dict per game with counts and rates (None where nothing was shown yet), sorted by game name."""
    totals = (
        BluffRecord.objects.filter(user=user)
        .values("game")
        .annotate(matches=Count("id"), **{f: Sum(f) for f in FIELDS})
    )
    rows = [summarise(row) for row in totals]
    return sorted(rows, key=lambda row: row["name"])


def summarise(row: dict) -> dict:
    def rate(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    return {
        **row,
        "name": GAMES[row["game"]].name,
        "bluff_rate": rate(row["bluffs"], row["judged"]),
        "caught_rate": rate(row["caught"], row["bluffs"]),
        "doubt_rate": rate(row["doubts"], row["chances"]),
        "doubt_accuracy": rate(row["doubts_right"], row["doubts"]),
    }
