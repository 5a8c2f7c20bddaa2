"""A web process's database writes asked for at once: one at a time against written together.

    .venv/bin/python bench/writes.py --matches 200                       # SQLite, synchronous=FULL
    DATABASE_URL=postgres://.../presence .venv/bin/python bench/writes.py  # a throwaway database beside it

In one process, as a web process would ask for them from its sockets (games/matches/writes.py):
the heartbeat of every seat socket (one UPDATE each, before; one for all, now), the sockets of
every seat opening at once (a web restart) and one move in every match at once. Each is timed
first one at a time on Channels' database thread (the floor: how it was done) and then the
way the process does it now, in the same run; the ratios are the figures to read, since the
machine's other work moves the absolute ones.
"""

import argparse
import asyncio
import os
import random
import secrets
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench"), str(ROOT / "platform")]

from load import drop_database, own_cpu_seconds, prepare, throwaway_database  # noqa: E402


async def timed(calls) -> tuple[float, float]:
    """Wall and CPU seconds for running these coroutines at once."""
    wall, cpu = time.perf_counter(), own_cpu_seconds()
    outcomes = await asyncio.gather(*calls, return_exceptions=True)
    failures = [outcome for outcome in outcomes if isinstance(outcome, Exception)]
    if failures:
        raise failures[0]
    return time.perf_counter() - wall, own_cpu_seconds() - cpu


def report(what: str, count: int, before: tuple[float, float], after: tuple[float, float]) -> None:
    print(
        f"{what:>12}: one at a time {1000 * before[0] / count:.2f} ms wall, {1000 * before[1] / count:.2f} ms CPU each;"
        f" now {1000 * after[0] / count:.2f} ms wall, {1000 * after[1] / count:.2f} ms CPU each"
        f" ({before[0] / after[0]:.1f}x faster, {before[1] / max(after[1], 1e-9):.1f}x less CPU)"
    )


async def measure(tables) -> None:
    from channels.db import database_sync_to_async
    from django.conf import settings
    from rest_framework.authtoken.models import Token

    from games.matches import presence, writes
    from games.matches.actions import submit_action
    from games.matches.models import Match

    sockets = {f"socket-{match_id}-{seat}": (match_id, seat) for match_id, tokens in tables for seat in (0, 1)}
    one_by_one = database_sync_to_async(presence.connected)
    opened = await timed(one_by_one(*where, name, True) for name, where in sockets.items())
    await timed(one_by_one(*where, name, False) for name, where in sockets.items())
    grouped = await timed(
        writes.presence_write(where[0], presence.connected, *where, name, True) for name, where in sockets.items()
    )
    report("opens", len(sockets), opened, grouped)

    def alive(name: str) -> bool:
        return True

    beat = database_sync_to_async(presence.beat)
    each = await timed(beat({name: where}, alive) for name, where in sockets.items())
    together = await timed(beat(sockets, alive) for _ in range(1))
    report("heartbeats", len(sockets), each, together)

    @database_sync_to_async
    def next_moves(offset: int) -> list:
        """One legal move in each match: (match id, the seat's user, the move, the match's seq)."""
        moves = []
        rng = random.Random(offset)
        for match in Match.objects.filter(pk__in=[match_id for match_id, _ in tables]):
            state = match.load_state()
            if match.status != Match.Status.RUNNING:
                continue
            number = match.engine.to_act(state)[0]
            user = Token.objects.get(key=dict(tables)[match.pk][number]).user
            moves.append((match.pk, user, rng.choice(match.engine.legal_actions(state, number)), match.seq))
        return moves

    timings = {}
    for mode in ("thread", "auto"):
        settings.MATCH_WRITES = mode
        moves = await next_moves(len(timings))
        timings[mode] = await timed(writes.write(move[0], submit_action, *move) for move in moves), len(moves)
    (before, count), (after, _) = timings["thread"], timings["auto"]
    report("moves", count, before, after)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=200, help="two-seat Dudo matches (two sockets each)")
    args = parser.parse_args()
    real = os.environ.get("DATABASE_URL", "").startswith("postgres")
    if real:
        os.environ["DATABASE_URL"] = throwaway_database(os.environ["DATABASE_URL"])
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp(prefix='dubium-writes-')}/writes.sqlite3"
    os.environ.pop("REDIS_URL", None)  # the in-memory channel layer: the database is what is measured
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "MATCH_WAKEUPS": "manual", "LOG_LEVEL": "ERROR"})
    os.environ.update({"DEBUG": "false", "SECURE_SSL_REDIRECT": "false", "DB_CONN_MAX_AGE": "60"})
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # nothing starts with DEBUG off and no key
    import django
    from django.core.management import call_command

    django.setup()
    try:
        call_command("migrate", verbosity=0)
        tables = prepare("dudo", args.matches, {}, "writes")
        print(f"{'PostgreSQL' if real else 'SQLite'}, {args.matches} Dudo matches, {2 * args.matches} seat sockets")
        asyncio.run(measure(tables))
    finally:
        if real:
            drop_database(os.environ["DATABASE_URL"])


if __name__ == "__main__":
    main()
