"""Ratings: replay speed, recompute and ladder queries on a database, and which rating predicts better.

    .venv/bin/python bench/ratings.py [--results 1000000] [--db-results 20000] [--accounts 100000]
                                      [--skip replay,db,ladder,predict]

replay:  synthetic results (70% duels, 30% tables of 3-8) through the pure functions in memory:
         Elo alone, then Elo + OpenSkill (ratings.table.rate_table, what recompute runs per table).
db:      a throwaway SQLite database: rate_match per match (the live path), then recompute_ratings
         on a ledger of --db-results tables, with every number to rewrite, then again with none.
ladder:  --accounts ratings in one game: first page, a deep page, an account's place, queries used.
predict: bot populations of known strength (performance = strength + noise, ranked by performance);
         ratings learn on the first 80% of matches, then predict every pair of the last 20%:
         log-loss and accuracy of Elo's expected score against OpenSkill's (5 seeds each).
"""

import argparse
import math
import os
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from ratings import elo, skill  # noqa: E402
from ratings.table import Standing, rate_table  # noqa: E402


def synthetic_tables(count: int, accounts: int, seed: int = 1):
    rng = random.Random(seed)
    for _ in range(count):
        n = 2 if rng.random() < 0.7 else rng.randint(3, 8)
        players = rng.sample(range(accounts), n)
        place = list(range(n))
        rng.shuffle(place)
        yield players, place


def bench_replay(results: int) -> None:
    tables = list(synthetic_tables(results, 20_000))
    seats = sum(len(p) for p, _ in tables)
    ratings: dict[int, tuple[float, int]] = {}
    started = time.perf_counter()
    for players, place in tables:
        before = [ratings.get(p, (elo.START, 0)) for p in players]
        changes = elo.deltas([r for r, _ in before], [g for _, g in before], place)
        for p, (r, g), d in zip(players, before, changes, strict=True):
            ratings[p] = (r + d, g + 1)
    elo_s = time.perf_counter() - started
    standings: dict[int, Standing] = {}
    started = time.perf_counter()
    for players, place in tables:
        after = rate_table([standings.get(p, Standing()) for p in players], place)
        standings.update(zip(players, after, strict=True))
    both_s = time.perf_counter() - started
    print(f"replay: {results:,} results ({seats:,} seats, 20,000 accounts) in memory")
    print(f"  Elo only          {elo_s:7.1f} s  {results / elo_s:10,.0f} results/s")
    print(
        f"  Elo + OpenSkill   {both_s:7.1f} s  {results / both_s:10,.0f} results/s"
        f"  ({1e6 * both_s / results:.0f} us per table)"
    )


def setup_django() -> None:
    path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    print(f"database: {path}")


def make_users(count: int, prefix: str):
    from django.contrib.auth import get_user_model

    User = get_user_model()
    User.objects.bulk_create(
        [User(username=f"{prefix}{i}", password="!", is_bot=i % 3 == 0) for i in range(count)],
        batch_size=5000,
    )
    return list(User.objects.filter(username__startswith=prefix).order_by("pk").values_list("pk", flat=True))


def bench_db(results: int) -> None:
    from django.utils import timezone

    from games.matches.models import Match, MatchAction, Seat
    from ratings.models import RatingChange
    from ratings.recompute import recompute
    from ratings.services import rate_match

    users = make_users(2000, "db")
    now = timezone.now()
    live = 500
    matches = Match.objects.bulk_create(
        [
            Match(
                game="dudo",
                players=2,
                seed=i,
                ranked=True,
                status=Match.Status.FINISHED,
                result={"ranking": [[0], [1]]},
                finished_at=now + timezone.timedelta(seconds=i),
                seq=4,
            )
            for i in range(live)
        ]
    )
    rng = random.Random(2)
    seats, actions = [], []
    for match in matches:
        for number, user in enumerate(rng.sample(users, 2)):
            seats.append(Seat(match=match, number=number, user_id=user))
        actions += [MatchAction(match=match, seq=s, seat=s % 2, action={}, source="house") for s in range(4)]
    Seat.objects.bulk_create(seats)
    MatchAction.objects.bulk_create(actions)
    started = time.perf_counter()
    for match in matches:
        rate_match(match.pk)
    live_s = time.perf_counter() - started
    print(f"db: rate_match (live path, two seats): {1000 * live_s / live:.1f} ms per match")

    tables = list(synthetic_tables(results, len(users), seed=3))
    matches = Match.objects.bulk_create(
        [
            Match(
                game="dobble",
                players=len(p),
                seed=i,
                ranked=True,
                status=Match.Status.FINISHED,
                finished_at=now + timezone.timedelta(seconds=i),
            )
            for i, (p, _) in enumerate(tables)
        ],
        batch_size=5000,
    )
    RatingChange.objects.bulk_create(
        [
            RatingChange(
                match=match,
                user_id=users[p],
                game="dobble",
                seat=s,
                place=place[s] + 1,
                before=0,
                after=0,
                delta=0,
                mu_before=0,
                mu_after=0,
                sigma_before=0,
                sigma_after=0,
                games_before=0,
                finished_at=match.finished_at,
            )
            for match, (players, place) in zip(matches, tables, strict=True)
            for s, p in enumerate(players)
        ],
        batch_size=5000,
    )
    first = recompute("dobble")
    again = recompute("dobble")
    print(f"db: recompute_ratings on {results:,} tables ({first.changes_rewritten:,} ledger rows):")
    print(f"  everything rewritten  {first.seconds:6.1f} s  {results / first.seconds:8,.0f} results/s")
    print(f"  nothing to rewrite    {again.seconds:6.1f} s  {results / again.seconds:8,.0f} results/s")


def bench_ladder(accounts: int) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from ratings import ladders
    from ratings.models import Rating

    users = make_users(accounts, "lad")
    rng = random.Random(4)
    Rating.objects.bulk_create(
        [
            Rating(
                user_id=u,
                game="dudo",
                elo=round(rng.gauss(1500, 200)),
                games=rng.randint(1, 200),
                is_bot=i % 3 == 0,
            )
            for i, u in enumerate(users)
        ],
        batch_size=5000,
    )
    middle = Rating.objects.get(user_id=users[accounts // 2], game="dudo")
    cases = [
        ("first page (all)", lambda: list(ladders.ladder("dudo")[:50])),
        ("first page (humans)", lambda: list(ladders.ladder("dudo", "humans")[:50])),
        ("page 1000 (all)", lambda: list(ladders.ladder("dudo")[49950:50000])),
        ("count (all)", lambda: ladders.ladder("dudo").count()),
        ("a middle account's place", lambda: ladders.place_of(middle)),
    ]
    print(f"ladder: {accounts:,} accounts rated in one game")
    for label, run in cases:
        connection.queries_log.clear()
        with CaptureQueriesContext(connection) as queries:
            started = time.perf_counter()
            for _ in range(5):
                run()
            ms = (time.perf_counter() - started) * 200
        print(f"  {label:26s} {ms:7.2f} ms  {len(queries) // 5} queries")
    with connection.cursor() as cursor:
        sql, params = ladders.ladder("dudo")[:50].query.sql_with_params()
        cursor.execute("EXPLAIN QUERY PLAN " + sql, params)
        print("  plan:", "; ".join(row[-1] for row in cursor.fetchall()))


def simulate(players: int, matches: int, ffa: bool, seed: int) -> list[tuple[list[int], list[int]]]:
    rng = random.Random(seed)
    strength = [rng.gauss(0, 1) for _ in range(players)]
    results = []
    for _ in range(matches):
        n = rng.randint(3, 6) if ffa else 2
        table = rng.sample(range(players), n)
        performance = [strength[p] + rng.gauss(0, 1) for p in table]
        order = sorted(range(n), key=lambda i: -performance[i])
        place = [0] * n
        for position, i in enumerate(order):
            place[i] = position
        results.append((table, place))
    return results


def evaluate(results, train_share: float = 0.8) -> dict[str, tuple[float, float]]:
    cut = int(len(results) * train_share)
    standings: dict[int, Standing] = {}
    for table, place in results[:cut]:
        standings.update(zip(table, rate_table([standings.get(p, Standing()) for p in table], place), strict=True))
    scores = {name: [0.0, 0.0, 0] for name in PREDICTORS}  # log-loss sum, right, pairs
    for table, place in results[cut:]:
        for i in range(len(table)):
            for j in range(i + 1, len(table)):
                a, b = standings.get(table[i], Standing()), standings.get(table[j], Standing())
                won = place[i] < place[j]
                for name, p in (
                    ("elo", elo.expected(a.elo, b.elo)),
                    ("openskill", skill.win_probability((a.mu, a.sigma), (b.mu, b.sigma))),
                    ("predict_win", skill.predict_win((a.mu, a.sigma), (b.mu, b.sigma))),
                ):
                    p = min(max(p, 1e-9), 1 - 1e-9)
                    scores[name][0] -= math.log(p if won else 1 - p)
                    scores[name][1] += (p > 0.5) == won if p != 0.5 else 0.5
                    scores[name][2] += 1
    return {name: (s[0] / s[2], s[1] / s[2]) for name, s in scores.items()}


PREDICTORS = ("elo", "openskill", "predict_win")


def bench_predict() -> None:
    print("predict: log-loss (lower is better) / pairwise accuracy on the held-out last 20% of matches;")
    print("  openskill = Plackett-Luce's duel probability (ratings.skill), predict_win = the package's normal curve")
    wins = {"elo": 0, "openskill": 0}
    for label, players, matches, ffa in [
        ("duels, 10 games each", 400, 2000, False),
        ("duels, 30 games each", 400, 6000, False),
        ("duels, 100 games each", 400, 20000, False),
        ("tables of 3-6, 10 games each", 400, 900, True),
        ("tables of 3-6, 40 games each", 400, 3600, True),
    ]:
        runs = [evaluate(simulate(players, matches, ffa, seed)) for seed in range(5)]
        mean = {name: tuple(sum(r[name][k] for r in runs) / len(runs) for k in (0, 1)) for name in runs[0]}
        best = min(wins, key=lambda name: mean[name][0])
        wins[best] += 1
        print(
            f"  {label:30s} "
            + "   ".join(f"{n} {mean[n][0]:.4f} / {mean[n][1]:.3f}" for n in PREDICTORS)
            + f"   better: {best}"
        )
    print(
        f"  MATCHMAKING_RATING = {max(wins, key=wins.get)!r} (better in {max(wins.values())} of {sum(wins.values())})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--results", type=int, default=1_000_000)
    parser.add_argument("--db-results", type=int, default=20_000)
    parser.add_argument("--accounts", type=int, default=100_000)
    parser.add_argument("--skip", default="", help="comma-separated: replay,db,ladder,predict")
    args = parser.parse_args()
    skip = set(args.skip.split(","))
    if "predict" not in skip:
        bench_predict()
    if "replay" not in skip:
        bench_replay(args.results)
    if not {"db", "ladder"} <= skip:
        setup_django()
    if "db" not in skip:
        bench_db(args.db_results)
    if "ladder" not in skip:
        bench_ladder(args.accounts)


if __name__ == "__main__":
    main()
