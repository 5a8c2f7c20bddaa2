"""CPU of one move through the match service, in-process, without sockets: Dudo, and I Doubt It
early against late in a long game (does a move cost more as the history grows?).

    .venv/bin/python bench/move_cpu.py                      # SQLite, in-memory channel layer
    .venv/bin/python bench/move_cpu.py --profile            # and cProfile's top functions
    DATABASE_URL=postgres://.../dubium_x REDIS_URL=redis://.../6 .venv/bin/python bench/move_cpu.py
    ... bench/move_cpu.py --statements   # on PostgreSQL: its backend's CPU a move, statement by statement
    valgrind --tool=callgrind --instr-atstart=no .venv/bin/python bench/move_cpu.py --instructions --moves 200

Each move goes as a socket's move goes in the web process: from the event loop through
`writes.write` (the write group on SQLite, the thread pool on PostgreSQL) into `submit_action`
(lock, load, rules, log, snapshot, commit), then the pushes through the channel layer to a
listener on every seat's group and on the spectators' group, which receives them as a consumer
would (every seat has an open socket). "Called directly" is the same move from a thread with no
event loop, as the ticker (house bots, timeouts) or a worker makes it. Timed with the process's
CPU clock (every thread), so the file syncs of a commit are not counted; `engine floor` is the
same moves' `apply` alone on states in memory, measured in the same run, so compare the ratios
on a busy machine. On PostgreSQL the bench works in a new database beside DATABASE_URL's.
"""

import argparse
import asyncio
import cProfile
import os
import pstats
import random
import secrets
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "bench")]


def pick(match, rng) -> tuple[int, dict]:
    """A random legal move of a random seat that may act."""
    state = match.load_state()
    number = rng.choice(match.engine.to_act(state))
    return number, rng.choice(match.engine.legal_actions(state, number))


def backend_cpu_ns(pid: int) -> int:
    """CPU time so far of a PostgreSQL backend on this machine, in nanoseconds (Linux schedstat)."""
    return int(Path(f"/proc/{pid}/schedstat").read_text().split()[0])


def statements_cpu(tables, moves: int, rng) -> None:
    """The Dudo moves called directly, with the CPU of this connection's PostgreSQL backend
    charged to each statement (the text's start) and in all, the commits included."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    spent: Counter = Counter()

    def timed(execute, sql, params, many, context):
        started = backend_cpu_ns(pid)
        try:
            return execute(sql, params, many, context)
        finally:
            spent[" ".join(sql.split())[:70]] += backend_cpu_ns(pid) - started

    started = backend_cpu_ns(pid)
    with connection.execute_wrapper(timed):
        made, _ = play_directly(tables, moves, rng)
    whole = backend_cpu_ns(pid) - started
    print(f"PostgreSQL's backend: {whole / made / 1000:.0f} µs CPU a move, of which (µs a move):")
    for sql, ns in spent.most_common(6):
        print(f"  {ns / made / 1000:6.0f}  {sql}")
    print(f"  {(whole - sum(spent.values())) / made / 1000:6.0f}  BEGIN, COMMIT (and the checks it runs)")


def play_directly(tables, moves: int, rng) -> tuple[int, float]:
    """Random legal moves, round-robin over the matches, each `submit_action` called from this
    thread; (moves made, CPU seconds in submit_action)."""
    from games.matches.actions import submit_action

    matches, users = load(tables)
    made, spent = 0, 0.0
    for match_id, match in round_robin(matches, moves):
        number, action = pick(match, rng)
        started = time.process_time()
        matches[match_id] = submit_action(match_id, users[match_id][number], action, match.seq)
        spent += time.process_time() - started
        made += 1
    return made, spent


def round_robin(matches: dict, moves: int):
    """(match id, match) of each move to make, a move of each running match in turn, until
    `moves` are made (rounds are finished); the caller puts each move's new match in `matches`."""
    from games.matches.models import Match

    made = 0
    while made < moves and matches:
        for match_id in list(matches):
            if matches[match_id].status != Match.Status.RUNNING:
                del matches[match_id]
                continue
            yield match_id, matches[match_id]
            made += 1


def load(tables) -> tuple[dict, dict]:
    from games.matches.models import Match

    matches = {match_id: Match.objects.get(pk=match_id) for match_id, _ in tables}
    users = {
        match_id: {seat.number: seat.user for seat in match.seats.select_related("user")}
        for match_id, match in matches.items()
    }
    return matches, users


def play_served(tables, moves: int, rng, profiles: list | None = None) -> tuple[int, float]:
    """The same moves as a web process makes them for its sockets; (moves made, CPU seconds from
    the move's arrival until every listener of its match has received its push). With
    `profiles`, cProfile runs in the event loop's thread and the database thread."""
    return asyncio.run(serve(tables, moves, rng, profiles))


async def serve(tables, moves: int, rng, profiles: list | None) -> tuple[int, float]:
    from channels.db import database_sync_to_async
    from channels.layers import get_channel_layer

    from games.matches import broadcast, presence, writes
    from games.matches.actions import submit_action

    layer = get_channel_layer()
    matches, users = await database_sync_to_async(load)(tables)
    listeners = {}
    for match_id in matches:
        numbers = sorted(users[match_id])
        for number in numbers:  # a socket on every seat, counted as the consumer counts it
            await database_sync_to_async(presence.connected)(match_id, number, f"bench.{match_id}.{number}", True)
        seated = [broadcast.player_group(match_id, users[match_id][number].pk) for number in numbers]
        groups = [*seated, broadcast.watch_group(match_id)]
        listeners[match_id] = [await layer.new_channel() for _ in groups]
        for group, name in zip(groups, listeners[match_id], strict=True):
            await layer.group_add(group, name)
    if profiles is not None:  # cProfile sees one thread: one profile each, on its own CPU clock
        profiles[:] = [cProfile.Profile(time.thread_time), cProfile.Profile(time.thread_time)]
        profiles[0].enable()
        await database_sync_to_async(profiles[1].enable)()
    made, spent = 0, 0.0
    for match_id, match in round_robin(matches, moves):
        number, action = pick(match, rng)
        started = time.process_time()
        match = await writes.write(match_id, submit_action, match_id, users[match_id][number], action, match.seq)
        for name in listeners[match_id]:
            await layer.receive(name)
        spent += time.process_time() - started
        matches[match_id] = match
        made += 1
    if profiles is not None:
        await database_sync_to_async(profiles[1].disable)()
        profiles[0].disable()
    return made, spent


def engine_floor(game: str, players: int, options: dict, moves: int, rng) -> float:
    """CPU seconds a move of `apply` alone takes, on a state in memory."""
    from games.engine import GAMES

    engine = GAMES[game]
    state = engine.new_game(players, 1, engine.clean_options(players, options))
    spent, made = 0.0, 0
    while made < moves:
        if engine.is_over(state):
            state = engine.new_game(players, made, engine.clean_options(players, options))
        number = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, number))
        started = time.process_time()
        engine.apply(state, number, action)
        spent += time.process_time() - started
        made += 1
    return spent / made


def timed_match_ends() -> dict:
    """The CPU of scoring each finished match (`tasks.settle`: ratings, bluff figures, tournaments,
    webhook bots), which runs on the web process's database thread when Celery runs eagerly;
    counted from now on, in the dict returned."""
    from games.matches import tasks

    ends = {"matches": 0, "cpu": 0.0}
    settle = tasks.settle

    def timed(match_id: int) -> None:
        started = time.thread_time()
        try:
            settle(match_id)
        finally:
            ends["cpu"] += time.thread_time() - started
            ends["matches"] += 1

    tasks.settle = timed
    return ends


def counted_instructions(moves: int, rng) -> None:
    """The served Dudo moves alone, with callgrind's instrumentation on (`callgrind_control`):
    instructions do not move with the load as CPU time does, so a change of 1% shows."""
    from load import prepare

    play_served(prepare("dudo", 20, {}, "warming"), 60, rng)
    tables = prepare("dudo", 20, {}, "counted")
    subprocess.run(["callgrind_control", "--instr=on", str(os.getpid())], check=True, capture_output=True)
    made, _ = play_served(tables, moves, random.Random(5))
    subprocess.run(["callgrind_control", "--instr=off", str(os.getpid())], check=True, capture_output=True)
    print(f"Dudo: {made} served moves counted: instructions a move = callgrind's 'Collected' / {made}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of the Dudo moves")
    parser.add_argument(
        "--statements", action="store_true", help="PostgreSQL only: its backend's CPU a move, statement by statement"
    )
    parser.add_argument(
        "--instructions",
        action="store_true",
        help="under `valgrind --tool=callgrind --instr-atstart=no`: count only the served Dudo moves' instructions",
    )
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="dubium-move-cpu-")
    given = os.environ.get("DATABASE_URL", "")
    real_stack = given.startswith("postgres")
    if real_stack:
        from load import throwaway_database

        os.environ["DATABASE_URL"] = throwaway_database(given)
        os.environ["CHANNELS_PREFIX"] = f"dubium-move-cpu-{os.getpid()}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/moves.sqlite3"
        os.environ.pop("REDIS_URL", None)
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "MATCH_WAKEUPS": "manual", "LOG_LEVEL": "ERROR"})
    os.environ.update({"DEBUG": "false", "SECURE_SSL_REDIRECT": "false", "DB_CONN_MAX_AGE": "60"})
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # nothing starts with DEBUG off and no key
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
    from load import LONG_FROM, fast_forward, prepare

    layer = f"Redis ({os.environ.get('CHANNELS_BACKEND', 'one-trip')})" if os.environ.get("REDIS_URL") else "in-memory"
    print(f"{connection.vendor} + {layer} channel layer, load average {os.getloadavg()[0]:.1f}")
    rng = random.Random(3)
    if args.instructions:
        counted_instructions(args.moves, rng)
        return
    doubt_it = {"max_plays": 5000, "doubt_window_s": 0}
    floor = engine_floor("dudo", 2, {}, args.moves, rng)
    ends = timed_match_ends()
    made, spent = play_served(prepare("dudo", 20, {}, "dudo"), args.moves, rng)
    print(f"Dudo: {made} moves, {1000 * spent / made:.2f} ms CPU a move (engine floor {1000 * floor:.3f} ms)")
    if ends["matches"]:
        each = ends["cpu"] / ends["matches"]
        print(
            f"  of which {ends['matches']} matches' ends (scored as Celery would, here in the web process): "
            f"{1000 * each:.2f} ms each, {1000 * ends['cpu'] / made:.2f} ms a move"
        )
    made, spent = play_directly(prepare("dudo", 20, {}, "direct"), args.moves, rng)
    print(f"Dudo, called directly: {1000 * spent / made:.2f} ms CPU a move")
    if args.statements and connection.vendor == "postgresql":
        statements_cpu(prepare("dudo", 20, {}, "statements"), args.moves, rng)
    early_made, early = play_served(prepare("doubt-it", 4, doubt_it, "early"), 40, rng)
    late = fast_forward(prepare("doubt-it", 8, doubt_it, "late"), LONG_FROM)[:4]
    late_made, late_spent = play_served(late, 40, rng)
    early_ms, late_ms = 1000 * early / early_made, 1000 * late_spent / late_made
    print(
        f"I Doubt It: moves 1-10 {early_ms:.2f} ms, moves {LONG_FROM}-{LONG_FROM + 10} {late_ms:.2f} ms CPU a move "
        f"({late_ms / early_ms:.2f}x)"
    )
    if args.profile:  # more Dudo moves, on the CPU clock, so that waiting for the disk is left out
        profiles = []
        play_served(prepare("dudo", 20, {}, "profiled"), args.moves, rng, profiles)
        print("On PostgreSQL the moves run on a pool of threads, which these profiles leave out.")
        pstats.Stats(*profiles).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
