"""A Swiss round for a big field through the database: standings, pairing, tables, matches.

    .venv/bin/python bench/tournament_round.py [--entrants 10000] [--seats 2]

A throwaway SQLite database (or DATABASE_URL's, e.g. a PostgreSQL database of your own) gets
--entrants house-bot entries in a running Dudo Swiss at tables of --seats with two rounds already
played (tables and scores written in bulk, random results: a random ranking at each table, scored
as the format does). Then round 3 is timed step by step:
- standings: tournaments.standings.standings (scores, tables and results, tiebreaks), shown
  to people, not needed to seat a round;
- pair: tournaments.seating.swiss_round (scores + history + swiss_pairing.pair_round);
- seat: tournaments.running.open_matches for every table, committed: the match service starts
  all the matches in bulk (matches, seats, first wake-ups; no positions: each seed deals its
  own), the Table rows go in one insert, and every player hears where their match is.
The round is pair + seat, what ReseatingFormat.seat_round (tournaments/formats/reseating.py)
does when a round ends. Floor, measured in the same run: the least any round must write,
--entrants Score rows in one plain-SQL statement
(bulk.insert_many: executemany on SQLite, COPY on PostgreSQL); Django's bulk_create of the same
rows is printed beside it. Figures are printed as seconds and as ratios to the floor. Seconds
are wall time, which on a shared machine includes waiting for a core; beside them, the CPU time
of this process ("cpu": SQLite's work is in it) and, for a PostgreSQL server on this machine,
of the server process that serves this connection ("db cpu", read from /proc), and the load
average before and after. The heap built so far is frozen first (gc.freeze), as the web process
and the Celery workers that seat rounds freeze theirs after start.
"""

import argparse
import gc
import os
import random
import sys
import tempfile
import time
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def setup_django() -> None:
    if "DATABASE_URL" not in os.environ:
        path = Path(tempfile.mkdtemp()) / "bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)


def build(entrants: int, seats: int):
    """A running Swiss with two rounds played, written in bulk."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments import pairing, scoring
    from tournaments.models import Entry, Score, Table, Tournament

    users = get_user_model().objects.bulk_create(
        [get_user_model()(username=f"HeuristicBot{i}", is_bot=True) for i in range(entrants)], batch_size=2000
    )
    organizer = get_user_model().objects.create(username="bench-organizer")
    tournament = Tournament.objects.create(
        name="bench swiss",
        game="dudo",
        organizer=organizer,
        starts_at=timezone.now() - timedelta(hours=1),
        status=Tournament.Status.RUNNING,
        rounds=5,
        table_size=seats,
    )
    entries = Entry.objects.bulk_create(
        [Entry(tournament=tournament, user=u, house_bot="heuristic", seed=i + 1) for i, u in enumerate(users)],
        batch_size=2000,
    )
    rng = random.Random(1)
    for round_number in (1, 2):
        ids = [e.pk for e in entries]
        rng.shuffle(ids)
        sizes, _ = pairing.table_sizes(len(ids), seats, 2)
        starts = [sum(sizes[:n]) for n in range(len(sizes))]
        tables = Table.objects.bulk_create(
            [
                Table(tournament=tournament, round=round_number, number=n + 1, seating=ids[start : start + size],
                      scored=True)
                for n, (start, size) in enumerate(zip(starts, sizes, strict=True))
            ],
            batch_size=2000,
        )  # fmt: skip
        scores = []
        for table in tables:
            ranking = [[seat] for seat in rng.sample(range(len(table.seating)), len(table.seating))]
            for seat, points in scoring.share_points(ranking).items():
                scores.append(
                    Score(
                        tournament=tournament,
                        entry_id=table.seating[seat],
                        round=round_number,
                        table=table,
                        points=points,
                        kind=scoring.PLAYED,
                    )
                )
        Score.objects.bulk_create(scores, batch_size=2000)
    return tournament, [entry.pk for entry in entries]  # no instances kept: a worker seating a round holds none


def database_cpu() -> float | None:
    """CPU seconds used so far by the PostgreSQL server process of this connection, when that
    process runs on this machine; None otherwise (SQLite runs in this process)."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        process = Path(f"/proc/{cursor.fetchone()[0]}")
    try:
        if b"postgres" not in (process / "cmdline").read_bytes():
            return None  # another machine's server: the id names some other process here
        fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # user + system


def timed(step):
    """The step's result and wall seconds; its CPU seconds here and in the database server are
    left in `timed.cpu` and `timed.db` (None where not known)."""
    database = database_cpu()
    started, cpu = time.perf_counter(), time.process_time()
    result = step()
    wall = time.perf_counter() - started
    timed.cpu = time.process_time() - cpu
    timed.db = None if database is None else database_cpu() - database
    return result, wall


def floors(tournament, entry_ids: list[int]) -> tuple[float, float]:
    """Seconds to write one Score per entry in plain SQL, and through bulk_create (rolled back)."""
    from django.db import transaction

    from games.matches import bulk
    from tournaments.models import Score

    names = ("tournament_id", "entry_id", "round", "table_id", "points", "kind", "streak")
    with transaction.atomic():
        _, plain = timed(
            lambda: bulk.insert_many(Score, names, [(tournament.pk, e, 99, None, 0.0, "played", 0) for e in entry_ids])
        )
        transaction.set_rollback(True)
    with transaction.atomic():
        _, bulk = timed(
            lambda: Score.objects.bulk_create(
                [Score(tournament=tournament, entry_id=e, round=99, points=0.0) for e in entry_ids], batch_size=2000
            )
        )
        transaction.set_rollback(True)
    return plain, bulk


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=10000)
    parser.add_argument("--seats", type=int, default=2, help="table size, 2 to 6 (Dudo)")
    args = parser.parse_args()
    setup_django()
    from django.db import connection, transaction
    from django.utils import timezone

    from games.matches.models import Match
    from tournaments import running, seating, standings
    from tournaments.models import Table

    tournament, entry_ids = build(args.entrants, args.seats)
    gc.freeze()  # as the processes that seat a round have done after start (asgi.py, celery.py)
    floor, bulk_floor = floors(tournament, entry_ids)
    _, standing_s = timed(lambda: standings.standings(tournament))
    load_before = os.getloadavg()
    (tables, byes), pair_s = timed(lambda: seating.swiss_round(tournament, 3))
    pair_cpu, pair_db = timed.cpu, timed.db
    now = timezone.now()

    def seat():
        with transaction.atomic():
            running.open_matches(
                tournament,
                [Table(tournament=tournament, round=3, number=n, seating=s) for n, s in enumerate(tables, start=1)],
                now,
            )

    _, seat_s = timed(seat)
    seat_cpu, seat_db = timed.cpu, timed.db
    load_after = os.getloadavg()
    started = Match.objects.filter(status=Match.Status.RUNNING, wake_at__isnull=False).count()
    assert started == len(tables), f"{started} of {len(tables)} matches started with a bot due to move"
    print(
        f"entrants {args.entrants} at tables of {args.seats}, tables {len(tables)}, byes {len(byes)}; "
        f"{connection.vendor}; floor "
        f"({args.entrants} scores in plain SQL, bulk.insert_many) {floor:.3f} s; "
        f"bulk_create of the same {bulk_floor:.3f} s; load average {load_before[0]:.2f} before the round, "
        f"{load_after[0]:.2f} after"
    )
    both = None if pair_db is None else pair_db + seat_db
    for name, seconds, cpu, db in [
        ("bulk_create of the floor's rows", bulk_floor, None, None),
        ("standings", standing_s, None, None),
        ("pair (scores, history, matching)", pair_s, pair_cpu, pair_db),
        (f"seat ({len(tables)} tables and matches)", seat_s, seat_cpu, seat_db),
        ("round (pair + seat)", pair_s + seat_s, pair_cpu + seat_cpu, both),
    ]:
        cpu_text = f"  cpu {cpu:6.2f} s" if cpu is not None else ""
        db_text = f"  db cpu {db:6.2f} s" if db is not None else ""
        print(f"  {name:36} {seconds:7.2f} s  {seconds / floor:7.1f} x floor{cpu_text}{db_text}")

if __name__ == "__main__":
    main()
