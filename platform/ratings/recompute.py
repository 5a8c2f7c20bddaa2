"""Rebuild every rating from scratch by replaying the RatingChange ledger in the order it was written.

Live rating applies each match when its scoring task runs, which is not always the order the
matches finished in (a result settled late by the sweep is rated after later ones); the replay
follows the ledger's own order (each match at the place of its first row, its seats in order),
so a recompute with nothing changed rewrites nothing.

The ledger's rows (match, account, place) are the rated results; every number on them (before,
after, delta, mu, sigma, games_before) and every Rating row is derived, so a changed K schedule or
a fixed bug is applied to the whole history by one run. Only rows whose numbers differ are written.
"""

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import F, Min, Window

from ratings.models import Rating, RatingChange
from ratings.table import Standing, rate_table

Progress = Callable[[int, int], None]
CHANGE_FIELDS = [
    "before",
    "after",
    "delta",
    "mu_before",
    "mu_after",
    "sigma_before",
    "sigma_after",
    "games_before",
]
RATING_FIELDS = ["elo", "peak", "games", "wins", "mu", "sigma", "established_opponents"]
BATCH = 5000


@dataclass
class Report:
    game: str
    results: int = 0
    changes_rewritten: int = 0
    ratings_rewritten: int = 0
    ratings_created: int = 0
    ratings_deleted: int = 0
    seconds: float = 0.0


def tables(game: str) -> Iterator[tuple[list[tuple], list[int]]]:
    """The ledger of one game, one table at a time: (stored rows, places 0-based), in rating order."""
    rows = (
        RatingChange.objects.filter(game=game)
        .annotate(rated=Window(Min("id"), partition_by=[F("match_id")]))
        .order_by("rated", "seat")
        .values_list("id", "match_id", "user_id", "place", *CHANGE_FIELDS)
        .iterator(chunk_size=BATCH)
    )
    current: list[tuple] = []
    for row in rows:
        if current and row[1] != current[0][1]:
            yield current, [r[3] - 1 for r in current]
            current = []
        current.append(row)
    if current:
        yield current, [r[3] - 1 for r in current]


def replay(
    game: str, progress: Progress | None = None, rewrite: Callable[[list[tuple]], None] | None = None
) -> tuple[dict[int, Standing], dict[int, set[int]], int, int]:
    """The final standings by user id, each one's established opponents (the players it met while they
    vouched: services.vouches), the number of tables and of ledger rows whose numbers changed.

    Rows that change are handed to `rewrite` in batches (values in CHANGE_FIELDS order, id last).
    """
    total = RatingChange.objects.filter(game=game).order_by().values("match_id").distinct().count()
    house = set(get_user_model().objects.filter(is_bot=True, bot_owner=None).values_list("pk", flat=True))
    standings: dict[int, Standing] = {}
    vouched: dict[int, set[int]] = {}
    rewrites: list[tuple] = []
    done = rewritten = 0
    for rows, place in tables(game):
        before = [standings.get(row[2], Standing()) for row in rows]
        after = rate_table(before, place)
        vouching = {row[2] for row, old in zip(rows, before, strict=True) if not old.provisional or row[2] in house}
        for row, old, new in zip(rows, before, after, strict=True):
            standings[row[2]] = new
            vouched.setdefault(row[2], set()).update(vouching - {row[2]})
            numbers = (old.elo, new.elo, new.elo - old.elo, old.mu, new.mu, old.sigma, new.sigma, old.games)
            if numbers != tuple(row[4:]):
                rewrites.append((*numbers, row[0]))
        if len(rewrites) >= BATCH:
            rewritten += flush(rewrites, rewrite)
        done += 1
        if progress and (done % 1000 == 0 or done == total):
            progress(done, total)
    rewritten += flush(rewrites, rewrite)
    return standings, vouched, done, rewritten


def flush(rewrites: list[tuple], rewrite: Callable[[list[tuple]], None] | None) -> int:
    count = len(rewrites)
    if rewrite and rewrites:
        rewrite(list(rewrites))
    rewrites.clear()
    return count


def recompute(game: str, progress: Progress | None = None) -> Report:
    """Replay one game's ledger and store the results (one transaction; the ladder is locked)."""
    started = time.monotonic()
    report = Report(game)
    with transaction.atomic():
        # Lock the ladder: a match rated meanwhile would otherwise be overwritten by the replay;
        # rate_match waits on these locks and then applies its result on top of the rebuilt ratings.
        list(Rating.objects.select_for_update().filter(game=game).order_by("user_id").values_list("id"))
        standings, vouched, report.results, report.changes_rewritten = replay(
            game, progress, lambda rows: write_many(RatingChange, CHANGE_FIELDS, rows)
        )
        stored = {r[0]: r for r in Rating.objects.filter(game=game).values_list("user_id", "id", *RATING_FIELDS)}
        updates = []
        for user_id, s in standings.items():
            row = stored.get(user_id)
            numbers = (s.elo, s.peak, s.games, s.wins, s.mu, s.sigma, len(vouched[user_id]))
            if row is not None and numbers != tuple(row[2:]):
                updates.append((*numbers, row[1]))
        write_many(Rating, RATING_FIELDS, updates)
        report.ratings_rewritten = len(updates)
        missing = [user_id for user_id in standings if user_id not in stored]
        bots = dict(get_user_model().objects.filter(pk__in=missing).values_list("pk", "is_bot"))
        Rating.objects.bulk_create(
            [
                Rating(
                    user_id=u,
                    game=game,
                    is_bot=bots.get(u, False),
                    elo=standings[u].elo,
                    peak=standings[u].peak,
                    games=standings[u].games,
                    wins=standings[u].wins,
                    mu=standings[u].mu,
                    sigma=standings[u].sigma,
                    established_opponents=len(vouched[u]),
                )
                for u in missing
            ],
            batch_size=BATCH,
        )
        report.ratings_created = len(missing)
        orphans = [user_id for user_id in stored if user_id not in standings]  # their matches were deleted
        report.ratings_deleted = Rating.objects.filter(game=game, user_id__in=orphans).delete()[0] if orphans else 0
    report.seconds = time.monotonic() - started
    return report


def write_many(model, fields: list[str], rows: list[tuple]) -> None:
    """UPDATE ... WHERE id = %s for each row (values in `fields` order, id last), in batches."""
    if not rows:
        return
    quote = connection.ops.quote_name
    assignments = ", ".join(f"{quote(model._meta.get_field(f).column)} = %s" for f in fields)
    sql = f"UPDATE {quote(model._meta.db_table)} SET {assignments} WHERE {quote('id')} = %s"
    with connection.cursor() as cursor:
        for start in range(0, len(rows), BATCH):
            cursor.executemany(sql, rows[start : start + BATCH])


def ledger_games() -> list[str]:
    """Each game with a ledger, once: no default ordering may leak into the DISTINCT."""
    return sorted(RatingChange.objects.order_by().values_list("game", flat=True).distinct())
