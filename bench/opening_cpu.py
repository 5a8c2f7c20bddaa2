"""CPU of one match socket's opening, in-process: the handshake through the whole websocket stack
(origin, sign-in, socket limits, `MatchConsumer.connect`) until the socket holds its first state,
with every seat of the other sockets of its match open, as when 400 players connect at once.

    .venv/bin/python bench/opening_cpu.py                    # SQLite, in-memory channel layer
    .venv/bin/python bench/opening_cpu.py --profile          # and cProfile's top functions
    DATABASE_URL=postgres://.../dubium_x REDIS_URL=redis://.../6 .venv/bin/python bench/opening_cpu.py

Timed with the process's CPU clock (every thread): the database's own processes are not counted,
so on PostgreSQL the backend's CPU an opening is printed beside it. On PostgreSQL the bench works
in a new database beside DATABASE_URL's. Sockets open one at a time (nothing queued), half of them
on matches that have not moved (dealt from their seed), half after a few moves; all of them are
opened and closed again --rounds times, and the least CPU of a round is printed (the machine's
other work only adds to it).
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "bench")]


async def open_all(tables) -> tuple[int, float, list]:
    """Open a socket on every seat of every match, in turn; (sockets, CPU seconds, the sockets)."""
    from channels.testing import WebsocketCommunicator

    from dubium.asgi import application

    sockets, spent = [], 0.0
    for match_id, tokens in tables:
        for token in tokens:
            socket = WebsocketCommunicator(
                application, f"/ws/match/{match_id}/?token={token}", headers=[(b"host", b"127.0.0.1")]
            )
            started = time.process_time()
            connected, code = await socket.connect(timeout=10)
            assert connected, code
            first = await socket.receive_json_from(timeout=10)
            spent += time.process_time() - started
            assert first["type"] == "state", first
            sockets.append(socket)
    return len(sockets), spent, sockets


async def measure_openings(tables, profiles=None) -> tuple[int, float]:
    """With `profiles`, cProfile runs in the event loop's thread and the database thread."""
    from channels.db import database_sync_to_async

    if profiles is not None:  # cProfile sees one thread: one profile each, on its own CPU clock
        profiles[:] = [cProfile.Profile(time.thread_time), cProfile.Profile(time.thread_time)]
        profiles[0].enable()
        await database_sync_to_async(profiles[1].enable)()
    opened, spent, sockets = await open_all(tables)
    if profiles is not None:
        await database_sync_to_async(profiles[1].disable)()
        profiles[0].disable()
    for socket in sockets:
        await socket.disconnect()
    return opened, spent


def moved(tables, moves: int) -> list:
    from load import fast_forward

    return fast_forward(tables, moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=60, help="of two seats, half of them moved")
    parser.add_argument("--rounds", type=int, default=5, help="each socket opened this many times, the least kept")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions (event loop thread)")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="dubium-opening-cpu-")
    given = os.environ.get("DATABASE_URL", "")
    real_stack = given.startswith("postgres")
    if real_stack:
        from load import throwaway_database

        os.environ["DATABASE_URL"] = throwaway_database(given)
        os.environ["CHANNELS_PREFIX"] = f"dubium-opening-cpu-{os.getpid()}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/openings.sqlite3"
        os.environ.pop("REDIS_URL", None)
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "MATCH_WAKEUPS": "manual", "LOG_LEVEL": "ERROR"})
    os.environ.update({"DEBUG": "false", "SECURE_SSL_REDIRECT": "false", "DB_CONN_MAX_AGE": "60"})
    os.environ.update({"SOCKET_OPENS_BURST": "1000", "SOCKET_OPENS_PER_SECOND": "1000"})
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))
    try:
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
        measure(args)
    finally:
        if real_stack:
            from load import drop_database, forget_redis_keys

            drop_database(os.environ["DATABASE_URL"])
            forget_redis_keys(os.environ["CHANNELS_PREFIX"])


def measure(args) -> None:
    import django

    django.setup()
    from django.db import connection
    from load import prepare

    random.seed(3)
    print(f"{connection.vendor}, load average {os.getloadavg()[0]:.1f}")
    half = args.matches // 2
    unmoved = prepare("dudo", half, {}, "unmoved")
    played = moved(prepare("dudo", half, {}, "moved"), 6)
    warming = prepare("dudo", 2, {}, "warming")
    asyncio.run(both(warming, unmoved, played, 1 if args.profile else args.rounds, args.profile))


async def both(warming, unmoved, played, rounds: int, profile: bool) -> None:
    await measure_openings(warming)  # imports and first connections, not counted
    for name, tables in (("not moved", unmoved), ("moved", played)):
        profiles = [] if profile else None
        each = []
        for _ in range(rounds):
            opened, spent = await measure_openings(tables, profiles)
            each.append(1000 * spent / opened)
        print(
            f"{name}: {opened} sockets, {min(each):.2f} ms CPU an opening (web process) at the least of {rounds}"
            f" rounds, median {statistics.median(each):.2f}"
        )
        if profiles:
            pstats.Stats(*profiles).sort_stats("cumulative").print_stats(r"(games|platform)/", 45)


if __name__ == "__main__":
    main()
