"""A Swiss round for a big field through the database: standings, pairing, tables, matches.

    .venv/bin/python bench/tournament_round.py [--entrants 10000]

A throwaway SQLite database (or DATABASE_URL's, e.g. a PostgreSQL database of your own) gets
--entrants house-bot entries in a running Dudo Swiss with two rounds already played (tables and
scores written in bulk, random results). Then round 3 is timed step by step:
- standings: tournaments.standings.standings (scores, tables and results, tiebreaks), shown
  to people, not needed to seat a round;
- pair: tournaments.seating.swiss_round (scores + history + swiss.pair_round);
- seat: tournaments.running.open_matches for every table, committed: the match service starts
  all the matches in bulk (matches, seats, first positions, wake-ups), the Table rows go in one
  insert, and every player hears where their match is.
The round is pair + seat, what running.seat_round does when a round ends. Floor, measured in
the same run: inserting --entrants Score rows in bulk, the least any round must write. Figures
are printed as seconds and as ratios to the floor.
"""

import argparse
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


def build(entrants: int):
    """A running Swiss with two rounds played, written in bulk."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone

    from tournaments import scoring
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
    )
    entries = Entry.objects.bulk_create(
        [Entry(tournament=tournament, user=u, house_bot="heuristic", seed=i + 1) for i, u in enumerate(users)],
        batch_size=2000,
    )
    rng = random.Random(1)
    for round_number in (1, 2):
        ids = [e.pk for e in entries]
        rng.shuffle(ids)
        tables = Table.objects.bulk_create(
            [
                Table(
                    tournament=tournament, round=round_number, number=n + 1, seating=ids[2 * n : 2 * n + 2], scored=True
                )
                for n in range(len(ids) // 2)
            ],
            batch_size=2000,
        )
        scores = []
        for table in tables:
            winner = rng.randrange(2)
            for seat, entry_id in enumerate(table.seating):
                scores.append(
                    Score(
                        tournament=tournament,
                        entry_id=entry_id,
                        round=round_number,
                        table=table,
                        points=1.0 if seat == winner else 0.0,
                        kind=scoring.PLAYED,
                    )
                )
        Score.objects.bulk_create(scores, batch_size=2000)
    return tournament, entries


def timed(step):
    started = time.perf_counter()
    result = step()
    return result, time.perf_counter() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=10000)
    args = parser.parse_args()
    setup_django()
    from django.db import transaction
    from django.utils import timezone

    from games.matches.models import Match
    from tournaments import running, seating, standings
    from tournaments.models import Score, Table

    tournament, entries = build(args.entrants)
    with transaction.atomic():
        _, floor = timed(
            lambda: Score.objects.bulk_create(
                [Score(tournament=tournament, entry_id=e.pk, round=99, points=0.0) for e in entries], batch_size=2000
            )
        )
        transaction.set_rollback(True)
    _, standing_s = timed(lambda: standings.standings(tournament))
    (tables, byes), pair_s = timed(lambda: seating.swiss_round(tournament, 3))
    now = timezone.now()

    def seat():
        with transaction.atomic():
            running.open_matches(
                tournament,
                [Table(tournament=tournament, round=3, number=n, seating=s) for n, s in enumerate(tables, start=1)],
                now,
            )

    _, seat_s = timed(seat)
    started = Match.objects.filter(status=Match.Status.RUNNING, wake_at__isnull=False).count()
    assert started == len(tables), f"{started} of {len(tables)} matches started with a bot due to move"
    print(
        f"entrants {args.entrants}, tables {len(tables)}, byes {len(byes)}; floor (bulk insert of "
        f"{args.entrants} scores) {floor:.2f} s"
    )
    for name, seconds in [
        ("standings", standing_s),
        ("pair (scores, history, matching)", pair_s),
        (f"seat ({len(tables)} tables and matches)", seat_s),
        ("round (pair + seat)", pair_s + seat_s),
    ]:
        print(f"  {name:36} {seconds:7.2f} s  {seconds / floor:7.1f} x floor")


if __name__ == "__main__":
    main()
