"""Load: many people playing at once over websockets, beside two relays measured in the same run.

    .venv/bin/python bench/load.py --game dudo --players 400 --seconds 20            # paced, embedded
    .venv/bin/python bench/load.py --game dudo --players 100 --fast --seconds 15     # saturation
    .venv/bin/python bench/load.py --game doubt-it --players 400 --seconds 15        # 4-seat I Doubt It
    .venv/bin/python bench/load.py --long --players 16                               # moves 1-10 vs 300-310
    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/load.py --web 2 ...

Creates matches between fresh accounts in a throwaway database (SQLite, or a new PostgreSQL
database beside DATABASE_URL, both removed at the end), starts --web uvicorn processes serving
Dubium and the two relays of bench/relay_server.py (embedded: one process, the in-memory layer;
real stack: all of a match's sockets on one process, as docker/nginx.conf routes them, unless
--split-tables), then runs the same client three
times for --seconds each: against Dubium, against the stored relay (each move committed before
its pushes, as Dubium's, with nothing else: bench/relays.py; --floor log stores the log row
alone) and against the bare relay; the relays' messages have the mean size of Dubium's.

With --notices each player also holds the socket every signed-in page opens beside the table
(/ws/notices/: challenges and "your match is ready" wherever the player is), as a browser does.

Paced players think 0.5-1.5 s before each move, as people do; --fast players move as soon as
they may (that measures saturation throughput). Latency is move-to-every-seat: from sending a
move until every seat of the match has a state that includes it. The client prints its own CPU
share and event-loop lag: a client that cannot keep up says so, and its figures are then floors.
"""

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import websockets

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from games.matches.time_controls import PRESETS  # noqa: E402  (pure Python: no Django yet)

SEATS = {"dudo": 2, "doubt-it": 4}
LONG_FROM = 300  # --long compares moves 1-10 with moves LONG_FROM..LONG_FROM + 10
# Sockets opening at once (--connect-at-once): each one is database work on the server
# (presence, the first state), and a storm of hundreds would time out handshakes instead of
# measuring moves; a larger number measures that storm (a web restart).
CONNECT_AT_ONCE = 16
SPLIT_TABLES = False
# --worker: the Celery worker scoring finished matches (None without), and the name its database
# connections give PostgreSQL (libpq's PGAPPNAME), by which its backends are told from the web's.
WORKER = None
WORKER_LOG = None  # what it printed: a line a task
WORKER_APPLICATION = "dubium-load-worker"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class DatabaseClock:
    """The CPU seconds of the PostgreSQL backends serving the bench's database (the web
    processes' connections) from now on, read every SAMPLE_SECONDS on a thread of its own.

    Django replaces a kept connection once a minute (`DB_CONN_MAX_AGE=60`, as production runs),
    and a backend that has ended can no longer be read: read only at the start and the deadline,
    a phase lost what a backend replaced within it had spent, most of its PostgreSQL CPU (the
    stored relay's read 0.09 ms a move in one round, 0.52 in the next). A backend that ends now
    loses at most its last sample's worth; one that starts is counted from its start."""

    SAMPLE_SECONDS = 0.25

    def __init__(self, worker: bool = False):
        """`worker`: the backends of the Celery worker's connections (WORKER_APPLICATION) rather
        than the web processes'."""
        import psycopg

        self.choice = "=" if worker else "<>"
        self.connection = psycopg.connect(os.environ["DATABASE_URL"], autocommit=True)
        self.first = self.backends()
        self.last = dict(self.first)
        self.stopped = threading.Event()
        self.sampler = threading.Thread(target=self.sample, daemon=True)
        self.sampler.start()

    def backends(self) -> dict[int, float]:
        query = (
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
            f" AND application_name {self.choice} %s"
        )
        spent = {}
        for (pid,) in self.connection.execute(query, [WORKER_APPLICATION]).fetchall():
            with contextlib.suppress(OSError):  # ended since
                spent[pid] = cpu_seconds(pid)
        return spent

    def sample(self) -> None:
        while not self.stopped.wait(self.SAMPLE_SECONDS):
            self.last.update(self.backends())

    def spent(self) -> float:
        """The seconds spent since the start, sampling stopped."""
        self.stopped.set()
        self.sampler.join()
        self.last.update(self.backends())
        self.connection.close()
        return sum(spent - self.first.get(pid, 0.0) for pid, spent in self.last.items())


def redis_cpu_seconds() -> float:
    """CPU time so far of the Redis server (all of it: other users of the same server count too)."""
    import redis

    info = redis.Redis.from_url(os.environ["REDIS_URL"]).info("cpu")
    return info["used_cpu_sys"] + info["used_cpu_user"]


def server_counts(ports: list[int]) -> dict:
    """bench/counting.py's counts from every server since the last call, summed, and reset."""
    total: dict = {"counts": Counter(), "ms": Counter(), "percentiles": {}}
    for port in ports:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/bench/counts?reset=1", timeout=30) as answer:
            counts = json.loads(answer.read())
        total["counts"].update(counts["counts"])
        total["ms"].update(counts["ms"])
        total["percentiles"].update(counts["percentiles"])  # the last server's: read with --web 1
    return total


def throwaway_database(url: str) -> str:
    """A new PostgreSQL database beside the one in `url` (named after it), so the bench never
    touches real data."""
    import psycopg

    base, _, given = url.rpartition("/")
    name = f"{given}_load_{os.getpid()}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def drop_database(url: str) -> None:
    """Drop the throwaway database, after closing this process's own connections to it: Django's
    once it has been set up (not when the migrate before failed: then closing them raised, and the
    database was left behind)."""
    import psycopg

    if "django.db" in sys.modules:
        from django.db import connections

        connections.close_all()
    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def forget_redis_keys(name: str) -> None:
    """Delete what a run left in Redis under its own name: its channel layer's groups and
    messages (CHANNELS_PREFIX), its task queues nobody took and kombu's bindings (CELERY_QUEUE)."""
    import redis

    broker = redis.Redis.from_url(os.environ["REDIS_URL"])
    leftovers = list(broker.scan_iter(match=f"*{name}*"))
    if leftovers:
        broker.delete(*leftovers)


def prepare(game: str, matches: int, options: dict, prefix: str, clock: str = "none") -> list[tuple[int, list[str]]]:
    """Create running matches between fresh accounts: [(match id, [token of each seat])], with
    the clock of a preset (time_controls.PRESETS: "3+2", the ranked queue's blitz)."""
    from django.contrib.auth import get_user_model
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from games.matches import lifecycle
    from games.matches.time_controls import PRESETS

    User = get_user_model()
    tables = []
    for number in range(matches):
        users = [User.objects.create_user(f"{prefix}{number}x{seat}") for seat in range(SEATS[game])]  # tokens only
        match = lifecycle.start_seated_match(
            game=game,
            seats=[{"user": user} for user in users],
            now=timezone.now(),
            options=options,
            seed=number,
            **PRESETS[clock].as_table(),
        )
        tables.append((match.pk, [Token.objects.create(user=user).key for user in users]))
    return tables


def fast_forward(tables, moves: int) -> list:
    """Play random legal moves through the match service until each match has `moves` in its log;
    the matches that ended before are dropped."""
    from games.matches.actions import submit_action
    from games.matches.models import Match

    rng = random.Random(7)
    kept = []
    for match_id, tokens in tables:
        match = Match.objects.get(pk=match_id)
        seats = {seat.number: seat.user for seat in match.seats.select_related("user")}
        while match.seq < moves and match.status == Match.Status.RUNNING:
            state = match.load_state()
            number = rng.choice(match.engine.to_act(state))
            action = rng.choice(match.engine.legal_actions(state, number))
            match = submit_action(match_id, seats[number], action, match.seq)
        if match.status == Match.Status.RUNNING:
            kept.append((match_id, tokens))
    return kept


@dataclass
class Tally:
    """What one phase saw: move-to-every-seat latencies (with the move's number), sizes, errors."""

    seats: int
    latencies: list[tuple[int, float]] = field(default_factory=list)
    moves: int = 0
    errors: dict = field(default_factory=dict)
    state_bytes: int = 0
    states: int = 0
    pending: dict = field(default_factory=dict)  # (room, seq) -> [sent at, seats still to hear]

    def sent(self, room, seq: int, now: float) -> None:
        self.moves += 1
        self.pending.setdefault((room, seq + 1), [now, set(range(self.seats))])

    def heard(self, room, seat: int, seq: int, size: int, now: float) -> None:
        self.state_bytes += size
        self.states += 1
        for key in [key for key in self.pending if key[0] == room and key[1] <= seq]:
            entry = self.pending[key]
            entry[1].discard(seat)
            if not entry[1]:
                self.latencies.append((key[1], now - entry[0]))
                del self.pending[key]


@dataclass
class Start:
    """Players connect first; the phase (and its clock) starts when all of them are in."""

    go: asyncio.Event = field(default_factory=asyncio.Event)
    connecting: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(CONNECT_AT_ONCE))
    connected: int = 0
    deadline: float = 0.0


async def player(url, notices, room, seat, tally: Tally, start: Start, rng, think, until_seq) -> None:
    """Connect (to `notices` too, when given), then move whenever this seat may: after thinking
    `think` seconds (a (low, high) range, or None for at once), until the deadline, the match's
    end or move `until_seq`."""
    origin = "http://" + url.split("/")[2]
    headers = {"Authorization": f"Token {room[1]}"} if room[1] else {}
    await start.connecting.acquire()
    async with contextlib.AsyncExitStack() as held:
        if notices:
            await held.enter_async_context(websockets.connect(
                notices, additional_headers=headers, origin=origin, open_timeout=120, compression=None
            ))  # fmt: skip
        await play(url, headers, origin, room, seat, tally, start, rng, think, until_seq)


async def play(url, headers, origin, room, seat, tally: Tally, start: Start, rng, think, until_seq) -> None:
    async with websockets.connect(
        url, additional_headers=headers, origin=origin, open_timeout=120, compression=None, max_size=None
    ) as ws:
        latest, answered, errors = json.loads(await ws.recv()), asyncio.Event(), 0
        start.connecting.release()
        start.connected += 1  # and has its first state: the server has done the connection's work
        await start.go.wait()
        deadline = start.deadline

        async def read():
            nonlocal latest, errors
            async for raw in ws:
                message = json.loads(raw)
                if message.get("type") == "state":
                    latest = message
                    tally.heard(room[0], seat, message["seq"], len(raw), time.monotonic())
                elif message.get("type") == "error":
                    tally.errors[message.get("code")] = tally.errors.get(message.get("code"), 0) + 1
                    errors += 1
                answered.set()

        async def until(condition) -> bool:
            """Wait for messages until `condition()` holds; False at the deadline."""
            while not condition():
                answered.clear()
                try:
                    await asyncio.wait_for(answered.wait(), timeout=max(0.01, deadline - time.monotonic()))
                except TimeoutError:
                    return False
            return True

        reader = asyncio.create_task(read())
        try:
            while await until(lambda: latest is not None):
                if latest["status"] != "running" or latest["seq"] >= until_seq or time.monotonic() >= deadline:
                    break
                if not latest["legal"]:
                    seen = latest["seq"]
                    if not await until(lambda seen=seen: latest["seq"] > seen):
                        break
                    continue
                if think:
                    await asyncio.sleep(rng.uniform(*think))
                    if time.monotonic() >= deadline:
                        break
                    if not latest["legal"]:
                        continue
                seq, errors_before = latest["seq"], errors
                tally.sent(room[0], seq, time.monotonic())
                await ws.send(json.dumps({"type": "action", "action": rng.choice(latest["legal"]), "seq": seq}))
                # Until the move (or another that beat it) comes back, or an error answers it.
                if not await until(lambda seq=seq, before=errors_before: latest["seq"] > seq or errors > before):
                    break
        finally:
            reader.cancel()


async def loop_lag(samples: list[float], stop: asyncio.Event) -> None:
    """How late the client's event loop wakes up: a busy client delays every figure it takes."""
    while not stop.is_set():
        before = time.monotonic()
        await asyncio.sleep(0.05)
        samples.append(time.monotonic() - before - 0.05)


async def run_phase(urls, servers, tally: Tally, seconds: float, think, until_seq: int, counted, profile=None) -> dict:
    """`counted`: the servers' ports to read bench/counting.py's counts from, or None;
    `profile`: a path to write py-spy's samples of each server's moves to (`<path>-<pid>.txt`), and of
    its sockets' openings (`<path>-opening-<pid>.txt`)."""
    rng = random.Random(1)
    start = Start()
    if counted:
        server_counts(counted)  # from here on
    opening_cpu = sum(cpu_seconds(server.pid) for server in servers)
    opening_profilers = [spy(server, 120, f"{profile}-opening-{server.pid}.txt") for server in servers if profile]
    connecting_since = time.monotonic()
    players = [
        asyncio.create_task(
            player(url, notices, room, seat, tally, start, random.Random(rng.random()), think, until_seq)
        )
        for url, notices, room, seat in urls
    ]
    while start.connected < len(players):
        await asyncio.sleep(0.05)
        if any(task.done() for task in players):
            await asyncio.gather(*players)  # a connection failed: raise its error
    connect_s = time.monotonic() - connecting_since
    opening_cpu = sum(cpu_seconds(server.pid) for server in servers) - opening_cpu
    for profiler in opening_profilers:  # py-spy writes what it has on an interrupt
        profiler.send_signal(signal.SIGINT)
        await asyncio.to_thread(profiler.wait)
    connect_counts = server_counts(counted) if counted else None
    lag: list[float] = []
    stop = asyncio.Event()
    monitor = asyncio.create_task(loop_lag(lag, stop))
    real_stack = bool(os.environ.get("REDIS_URL"))

    def server_cpu_so_far() -> tuple[float, float]:
        """The web processes' and Redis's CPU seconds so far."""
        return sum(cpu_seconds(server.pid) for server in servers), redis_cpu_seconds() if real_stack else 0.0

    server_cpu, redis_cpu = server_cpu_so_far()
    database_clock = DatabaseClock() if real_stack else None
    worker_clock = DatabaseClock(worker=True) if WORKER else None
    worker_started = cpu_seconds(WORKER.pid) if WORKER else 0.0
    client_cpu = own_cpu_seconds()
    profilers = [spy(server, seconds, f"{profile}-{server.pid}.txt") for server in servers if profile]
    started = time.monotonic()
    start.deadline = started + seconds
    start.go.set()
    # The servers' CPU is read at the deadline (or when every match has ended), with the moves
    # made by then: after it the players close their sockets, which is not play (Dubium notes
    # each close, a write as a move's).
    playing = asyncio.gather(*players)
    await asyncio.wait([playing], timeout=seconds)
    web_then, redis_then = await asyncio.to_thread(server_cpu_so_far)
    database_cpu = await asyncio.to_thread(database_clock.spent) if real_stack else 0.0
    worker_cpu = None  # the worker's process and its PostgreSQL backends
    if WORKER:
        worker_cpu = (cpu_seconds(WORKER.pid) - worker_started, await asyncio.to_thread(worker_clock.spent))
    moves_by_deadline = len(tally.latencies)
    await playing
    elapsed = time.monotonic() - started
    client_cpu = own_cpu_seconds() - client_cpu
    server_cpu = web_then - server_cpu
    redis_cpu = redis_then - redis_cpu
    stop.set()
    await monitor
    for profiler in profilers:
        await asyncio.to_thread(profiler.wait)
    lag.sort()
    return {
        "elapsed": elapsed,
        "connect_s": connect_s,
        "opening_cpu": opening_cpu,
        "client_cpu": client_cpu,
        "server_cpu": server_cpu,
        "moves_by_deadline": moves_by_deadline,
        "database_cpu": database_cpu,
        "redis_cpu": redis_cpu,
        "worker_cpu": worker_cpu,
        "lag_p99": lag[int(0.99 * (len(lag) - 1))] if lag else 0,
        "connect_counts": connect_counts,
        "move_counts": server_counts(counted) if counted else None,
    }


def spy(server, seconds: float, path: str) -> subprocess.Popen:
    """py-spy sampling the server's thread that holds the interpreter's lock, into `path`."""
    return subprocess.Popen(
        [str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(server.pid), "--rate", "250", "--gil",
         "--duration", str(round(seconds)), "--format", "raw", "--nonblocking", "--output", path],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip


def percentile(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(q * len(values)))] * 1000 if values else float("nan")


def settle(servers, idle_share: float = 0.15, longest: float = 120) -> None:
    """Wait until the servers are (nearly) idle and the last phase's seat sockets have all been
    counted out: what one phase left queued (400 sockets closing are 400 locked writes on the
    real stack) must not land on the next."""
    from games.matches.models import SeatSocket

    until = time.monotonic() + longest
    servers = [*servers, WORKER] if WORKER else servers  # its scoring left over is the next phase's
    while SeatSocket.objects.exists() and time.monotonic() < until:
        time.sleep(0.5)
    while time.monotonic() < until:
        before = sum(cpu_seconds(server.pid) for server in servers)
        time.sleep(1)
        if sum(cpu_seconds(server.pid) for server in servers) - before < idle_share * len(servers):
            return


def phase(name, servers, urls, seats, seconds, think, until_seq=10**9, counted=None, profile=None) -> dict:
    settle(servers)
    tally = Tally(seats)
    path = f"{profile}-{name}" if profile else None
    from games.matches.bulk import collector_paused

    # The client keeps every socket and latency: its full collections (100-150 ms, every socket
    # stopped) had landed inside phases and were counted as the server's latency.
    with collector_paused():
        timing = asyncio.run(run_phase(urls, servers, tally, seconds, think, until_seq, counted, path))
    server_cpu = timing["server_cpu"]
    latencies = sorted(latency for _, latency in tally.latencies)
    result = {
        "name": name,
        "moves": len(tally.latencies),
        "moves_per_s": len(tally.latencies) / timing["elapsed"],
        "cpu_ms": 1000 * server_cpu / max(1, timing["moves_by_deadline"]),
        "p50": percentile(latencies, 0.5),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "max": latencies[-1] * 1000 if latencies else float("nan"),
        "bytes": tally.state_bytes / max(1, tally.states),
        "errors": tally.errors,
        "client_share": timing["client_cpu"] / timing["elapsed"],
        "lag_p99": timing["lag_p99"] * 1000,
        "sent": tally.moves,
        "connect_s": timing["connect_s"],
        "database_cpu_ms": 1000 * timing["database_cpu"] / max(1, timing["moves_by_deadline"]),
        "redis_cpu_ms": 1000 * timing["redis_cpu"] / max(1, timing["moves_by_deadline"]),
        "latencies": latencies,
        "counted": (timing["moves_by_deadline"], server_cpu + timing["database_cpu"] + timing["redis_cpu"]),
    }
    result["all_cpu_ms"] = result["cpu_ms"] + result["database_cpu_ms"] + result["redis_cpu_ms"]
    ended = " (every match had ended)" if timing["elapsed"] < 0.9 * seconds else ""
    print(
        f"{name:>8}: {result['moves']} moves in {timing['elapsed']:.1f} s{ended} ({result['moves_per_s']:.0f}/s), web"
        f" CPU {result['cpu_ms']:.2f} ms a move; move -> every seat ms p50 {result['p50']:.1f} p95 {result['p95']:.1f}"
        f" p99 {result['p99']:.1f} max {result['max']:.0f}; state message {result['bytes']:.0f} B; {result['sent']}"
        f" sent, errors {result['errors'] or 'none'}"
    )
    warning = ""
    if result["client_share"] > 0.8:
        warning = "  <- THE CLIENT COULD NOT KEEP UP: these figures are floors"
    elif result["lag_p99"] > 50:
        warning = "  <- the machine is busy: the client's timings run up to this late"
    result["busy"] = bool(warning)
    print(
        f"{'':>8}  all {len(urls)} sockets had their first state {result['connect_s']:.1f} s after the first "
        f"opened ({CONNECT_AT_ONCE} opening at once), web CPU {1000 * timing['opening_cpu'] / len(urls):.2f} ms an"
        f" opening; client CPU {100 * result['client_share']:.0f}% of one core, "
        "event-loop lag p99 "
        f"{result['lag_p99']:.1f} ms{warning}"
    )
    if os.environ.get("REDIS_URL"):
        print(
            f"{'':>8}  CPU a move with PostgreSQL's and Redis's: {result['all_cpu_ms']:.2f} ms (web"
            f" {result['cpu_ms']:.2f} + PostgreSQL backends {result['database_cpu_ms']:.2f} + Redis"
            f" {result['redis_cpu_ms']:.2f}, the whole server's)"
        )
    if WORKER and WORKER.poll() is not None:
        said = "".join(WORKER_LOG.read_text().splitlines(keepends=True)[-20:])
        raise SystemExit(f"the Celery worker exited ({WORKER.returncode}), its scoring not measured; it said:\n{said}")
    if WORKER and name == "dubium":
        process, database = (1000 * each / max(1, timing["moves_by_deadline"]) for each in timing["worker_cpu"])
        print(
            f"{'':>8}  the worker's scoring of the matches that ended: {process + database:.2f} ms a move (its"
            f" process {process:.2f} + PostgreSQL {database:.2f}), not in the goals: the floors score nothing"
        )
    if counted:
        print_counts("a socket's opening", timing["connect_counts"], len(urls))
        print_counts("a move", timing["move_counts"], max(1, tally.moves))
    for server in servers if profile else []:
        print_profile(f"{path}-opening-{server.pid}.txt")
        print_profile(f"{path}-{server.pid}.txt")
    return result


def print_profile(path: str, shown: int = 25) -> None:
    """py-spy's samples of the thread holding the interpreter's lock (collapsed stacks): where the
    server's Python time goes. The functions most often on top of the stack, then Dubium's own
    (and the bench's) most often anywhere on it."""
    inclusive, own, total = Counter(), Counter(), 0
    with contextlib.suppress(FileNotFoundError), open(path) as samples:
        for line in samples:
            stack, _, count = line.rstrip().rpartition(" ")
            frames = []
            for frame in stack.split(";"):
                name, _, where = frame.rpartition(" (")
                frames.append((name, where.split(":")[0]))
            total += int(count)
            own[frames[-1]] += int(count)
            for frame in set(frames):
                inclusive[frame] += int(count)
    print(f"{'':>8}  py-spy: {total} samples holding the interpreter's lock ({path})")
    print(f"{'':>10}on top of the stack: " + ", ".join(
        f"{name} ({where.rsplit('/', 1)[-1]}) {100 * count / max(1, total):.1f}%"
        for (name, where), count in own.most_common(shown)
    ))  # fmt: skip
    # py-spy names a file from the folder on the import path: games/..., dubium/..., relays.py
    ours_named = {path.name for folder in (ROOT, ROOT / "platform", ROOT / "bench") for path in folder.iterdir()}
    ours = [
        (name, where.rsplit("/", 1)[-1], count)
        for (name, where), count in inclusive.most_common()
        if where.split("/", 1)[0] in ours_named
    ]
    print(f"{'':>10}Dubium's functions on the stack: " + ", ".join(
        f"{name} ({file}) {100 * count / max(1, total):.1f}%" for name, file, count in ours[:shown]
    ))  # fmt: skip


def print_counts(what: str, counts: dict, per: int) -> None:
    """bench/counting.py's counts, per socket or per move, and the wall times it sampled."""
    number = counts["counts"]
    redis = {name: value for name, value in number.items() if name.startswith("redis ")}
    hops = {name[4:]: value for name, value in number.items() if name.startswith("hop ")}
    redis_named = ", ".join(f"{name[6:]} {value / per:.2f}" for name, value in sorted(redis.items()))
    print(
        f"{'':>8}  {what}: {number.get('pg round trip', 0) / per:.2f} PostgreSQL round trips"
        f" ({number.get('pg socket waits', 0) / per:.2f} waits on its socket),"
        f" {sum(redis.values()) / per:.2f} Redis ({redis_named}),"
        f" {sum(hops.values()) / per:.2f} hops to the database thread"
        f" ({', '.join(f'{n} {v / per:.2f}' for n, v in sorted(hops.items()))})"
    )
    if number.get("group wall"):
        groups = number["group wall"]
        print(
            f"{'':>10}write groups: {number['group writes'] / groups:.2f} writes and"
            f" {number['group pg trips'] / groups:.1f} PostgreSQL round trips a group"
        )
    for name, figures in sorted(counts["percentiles"].items()):
        if figures:
            print(
                f"{'':>10}{name} ms: p50 {figures['p50']} p95 {figures['p95']} p99 {figures['p99']} max"
                f" {figures['max']} (n {figures['n']})"
            )


def start_servers(count: int, first_port: int | None) -> tuple[list, list[int]]:
    """Each server on a core of its own, as `make run` and `make stack` run them (WEB_CPU; set it
    to "off" to let them move between cores)."""
    ports = [free_port() for _ in range(count)] if first_port is None else list(range(first_port, first_port + count))
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "relay_server:application", "--app-dir", "bench",
             "--port", str(port), "--log-level", "warning", "--timeout-graceful-shutdown", "5",
             "--ws-max-size", str(1 << 20)],
            cwd=ROOT,
            env={**os.environ, "WEB_CPU": os.environ.get("WEB_CPU", str(number))},
        )
        for number, port in enumerate(ports)
    ]  # fmt: skip
    for port in ports:
        for _ in range(300):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.1)
    return servers, ports


def start_worker(log: Path) -> subprocess.Popen:
    """One Celery worker on the run's queue, a process as `make stack`'s, one task at a time (two
    would share the machine's two cores with the web process and PostgreSQL), its output (a line
    a task) into `log`, shown only should it exit."""
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "--quiet", "-A", "dubium", "worker", "--queues", os.environ["CELERY_QUEUE"],
         "--pool", "solo", "--loglevel", "WARNING", "--without-gossip", "--without-mingle"],
        cwd=ROOT,
        env={**os.environ, "PGAPPNAME": WORKER_APPLICATION},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
    )  # fmt: skip


def port_for(ports: list[int], table: int, seat: int) -> int:
    """The process a table's socket reaches: the same for all of a table's sockets, as
    docker/nginx.conf routes them (by the table's address), unless --split-tables puts each seat
    on the next process, as a proxy that spreads sockets one by one would."""
    return ports[(table + seat if SPLIT_TABLES else table) % len(ports)]


def dubium_urls(ports, tables, notices: bool = False):
    return [
        (
            f"ws://127.0.0.1:{port_for(ports, table, seat)}/ws/match/{match_id}/",
            f"ws://127.0.0.1:{ports[(table + seat) % len(ports)]}/ws/notices/" if notices else None,
            (match_id, token),
            seat,
        )
        for table, (match_id, tokens) in enumerate(tables)
        for seat, token in enumerate(tokens)
    ]


def warm_up(args, servers, ports, matches: int, seats: int, options: dict, think) -> None:
    """Each server plays `args.warm_up` seconds on matches (or rooms) of its own, its figures
    not printed: the first round of each had been its slowest (imports, caches, connections)."""
    tables = prepare(args.game, matches, options, "warm_", args.clock)
    with contextlib.redirect_stdout(None):
        played = phase("warm-up", servers, dubium_urls(ports, tables, args.notices), seats, args.warm_up, think)
        if not args.no_relay:
            for urls in floor_urls(args, ports, matches, seats, played, args.rounds * matches):
                phase("warm-up", servers, urls, seats, args.warm_up, think)
    print(f"{'':>10}(each server played {args.warm_up:.0f} s first, not measured)")


def floor_urls(args, ports, matches: int, seats: int, played: dict, first: int) -> tuple[list, list]:
    """The stored relay's and the bare relay's sockets for the round after Dubium's `played`
    phase: messages of its mean size, rooms numbered from `first`."""
    size = round(played["bytes"])
    snapshot = snapshot_size() if args.floor == "snapshot" else 0
    stored = relay_urls(ports, matches, seats, size, snapshot=snapshot, first=first)
    return stored, relay_urls(ports, matches, seats, size, first=first)


def relay_urls(ports, rooms: int, seats: int, size: int, snapshot: int | None = None, first: int = 0):
    """The bare relay's sockets, or the stored relay's when given the snapshot size to write; its
    rooms numbered from `first` (a stored room is played once: each round takes new ones)."""
    kind, tail = ("relay", "") if snapshot is None else ("stored", f"{snapshot}/")
    return [
        (
            f"ws://127.0.0.1:{port_for(ports, room, seat)}/ws/{kind}/{room}/{seat}/{seats}/{size}/{tail}",
            None,
            (room, None),
            seat,
        )
        for room in range(first, first + rooms)
        for seat in range(seats)
    ]


def snapshot_size() -> int:
    """The mean size of Dubium's stored snapshots as JSON, for the stored relay to write as much."""
    from games.matches.models import Match

    states = list(Match.objects.filter(seq__gt=0).values_list("state", flat=True)[:100])
    return round(sum(len(json.dumps(state)) for state in states) / max(1, len(states)))


def pooled(name: str, rounds: list[dict]) -> dict:
    """One server's rounds as one: every move's latency, the CPU of all over all the moves, the
    slowest first states. A round's p99 follows whatever else the machine did in its 20 s (a
    disk's slow flush holds every commit behind it): servers taking turns, round after round,
    meet the same hours."""
    latencies = sorted(latency for each in rounds for latency in each["latencies"])
    moves = sum(each["counted"][0] for each in rounds)
    result = {
        "p50": percentile(latencies, 0.5),
        "p95": percentile(latencies, 0.95),
        "p99": percentile(latencies, 0.99),
        "all_cpu_ms": 1000 * sum(each["counted"][1] for each in rounds) / max(1, moves),
        "connect_s": max(each["connect_s"] for each in rounds),
        "moves_per_s": statistics.mean(each["moves_per_s"] for each in rounds),
        "busy": any(each["busy"] for each in rounds),
    }
    print(
        f"{name:>8}: {len(rounds)} rounds pooled, {len(latencies)} moves; move -> every seat ms p50 {result['p50']:.1f}"
        f" p95 {result['p95']:.1f} p99 {result['p99']:.1f}; CPU a move {result['all_cpu_ms']:.2f} ms; first states"
        f" at most {result['connect_s']:.1f} s"
    )
    return result


def compare(dubium: dict, stored: dict, relay: dict, real_stack: bool, fast: bool, ratios: list[float]) -> None:
    """Issue 33's goals beside each figure (docs/performance.md, "The goals"): against the stored
    relay, the floor of a move committed before its pushes, measured in the same run. Two of them
    need another run: boardgame.io's p99 (its run.sh) and `--web 2`'s. The p99 goal is judged on
    the median of the rounds' own ratios (`ratios`, Dubium's round against the relay's next to
    it): one slow flush of the disk in either server's round moved the pooled ratio from 1.6x to
    0.35x; a round over the goal is named beside it. A round whose client could not keep up, or
    whose machine was busy, gives no verdict on what the client timed (p99, first states): its
    figures are the client's, not the server's. CPU a move is the servers' own, judged always."""
    busy = [name for name, each in (("Dubium", dubium), ("the stored relay", stored)) if each["busy"]]
    p99, cpu = statistics.median(ratios), dubium["all_cpu_ms"] / stored["all_cpu_ms"]
    over = sum(ratio > 2 for ratio in ratios)
    over_words = f"; {over} of {len(ratios)} rounds over 2x" if over else ""
    pooled_ratio = dubium["p99"] / stored["p99"]
    each = f" (rounds {', '.join(f'{ratio:.2f}x' for ratio in ratios)}; pooled {pooled_ratio:.2f}x{over_words})"
    latency = f"p99 {p99:.2f}x the stored relay's{each if len(ratios) > 1 else ''} (<= 2: {verdict(p99 <= 2, busy)})"
    if real_stack:
        goals = [
            latency,
            f"CPU a move (web + PostgreSQL + Redis) {cpu:.2f}x (<= 1.3: {verdict(cpu <= 1.3)})",
            f"first states {dubium['connect_s']:.1f} s (<= 1 s: {verdict(dubium['connect_s'] <= 1, busy)})",
        ]
    else:
        goals = [latency, f"web CPU a move {cpu:.2f}x (no goal)"]
    print(f"   goals: {'; '.join(goals)}")
    if real_stack:
        print(
            "          (the goals are one web process's: with --web N, read these against one; boardgame.io's"
            " p99 and CPU come from its run.sh, two processes against one from two runs)"
        )
    throughput = f", throughput {dubium['moves_per_s'] / max(relay['moves_per_s'], 1e-9):.2f} of it" if fast else ""
    print(
        f"  floors: the stored relay's p99 {stored['p99']:.1f} ms, CPU a move {stored['all_cpu_ms']:.2f} ms and first"
        f" states {stored['connect_s']:.1f} s (each socket counted first); the bare relay's {relay['p99']:.1f} ms and"
        f" {relay['all_cpu_ms']:.2f} ms{throughput}"
    )


def verdict(held: bool, busy: list[str] = ()) -> str:
    """What a goal's check prints: met or not, or no verdict when a round of `busy` ran busy."""
    if busy:
        return f"no verdict, {' and '.join(busy)} ran on a busy machine: run again"
    return "met" if held else "NOT met"


def main() -> None:
    global CONNECT_AT_ONCE, SPLIT_TABLES, WORKER, WORKER_LOG
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0],
        epilog="Embedded (SQLite, in-memory layer, one process) unless DATABASE_URL (PostgreSQL) and REDIS_URL are"
        " set: then the real stack, in a throwaway database created beside the one named and dropped afterwards.",
    )
    parser.add_argument("--game", choices=sorted(SEATS), default="dudo")
    parser.add_argument("--players", type=int, default=100, help="sockets, one per seat (e.g. 400 or 1000)")
    parser.add_argument("--seconds", type=float, default=30, help="of each phase")
    parser.add_argument("--web", type=int, default=1, help="server processes (real stack only)")
    parser.add_argument("--fast", action="store_true", help="move at once instead of thinking 0.5-1.5 s")
    parser.add_argument("--connect-at-once", type=int, default=CONNECT_AT_ONCE, help="sockets opening at once")
    parser.add_argument(
        "--split-tables", action="store_true",
        help="with --web N, each seat of a table on the next process (default: all of a table's sockets on"
        " one, as docker/nginx.conf routes them)",
    )  # fmt: skip
    parser.add_argument("--no-relay", action="store_true", help="skip the floors (the bare and the stored relay)")
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="Dubium and its floors in turn this many times, on new matches each round, then each pooled",
    )
    parser.add_argument(
        "--warm-up",
        type=float,
        default=5,
        help="seconds each server plays first on matches of its own, not measured (0: none): a server's first"
        " round was its slowest (boardgame.io's run.sh warms up 5 s)",
    )
    parser.add_argument(
        "--floor",
        choices=["snapshot", "log"],
        default="snapshot",
        help="what the stored relay writes a move: Dubium's log row and snapshot, or the log row alone",
    )
    parser.add_argument("--notices", action="store_true", help="each player also holds a page's notices socket")
    parser.add_argument(
        "--profile",
        metavar="PATH",
        help="sample each server with py-spy during each phase's openings and moves, into"
        " PATH-<phase>-[opening-]<pid>.txt, and print the functions most often on the stack",
    )
    parser.add_argument(
        "--clock",
        choices=sorted(PRESETS),
        default="none",
        help="the matches' clock (3+2: the ranked queue's; its wake-ups go through the broker on the real stack)",
    )
    parser.add_argument(
        "--count",
        action="store_true",
        help="count each server's round trips to PostgreSQL and Redis and hops, per socket opened and per move"
        " (bench/counting.py; its wrappers cost CPU: read the latencies of a run without it)",
    )
    parser.add_argument(
        "--worker",
        action="store_true",
        help="real stack: a Celery worker scores the matches that end, and its CPU a move (its process and its"
        " PostgreSQL backends) is printed beside Dubium's, outside the goals (the floors and boardgame.io score"
        " nothing); without it the scoring is queued and never run",
    )
    parser.add_argument("--port", type=int, help="the first server's port (default: any free one)")
    parser.add_argument(
        "--long", action="store_true", help=f"I Doubt It: moves 1-10 against moves {LONG_FROM}-{LONG_FROM + 10}"
    )
    args = parser.parse_args()
    CONNECT_AT_ONCE, SPLIT_TABLES = args.connect_at_once, args.split_tables
    if args.long:
        args.game = "doubt-it"
    seats = SEATS[args.game]
    matches = max(1, args.players // seats)
    folder = tempfile.mkdtemp(prefix="dubium-load-")
    real_stack = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    if real_stack:
        os.environ["DATABASE_URL"] = throwaway_database(os.environ["DATABASE_URL"])
        os.environ["CHANNELS_PREFIX"] = f"dubium-load-{os.getpid()}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/load.sqlite3"
        os.environ.pop("REDIS_URL", None)
        args.web = 1  # the in-memory channel layer lives in one process
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "LOG_LEVEL": "ERROR"})
    if args.clock == "none":
        os.environ["MATCH_WAKEUPS"] = "manual"  # nothing to wake: people's seats without a clock
    if real_stack:
        # The tasks published as in production (a clock's wake-ups, a finished match's scoring)
        # go to queues of the run's own, emptied at its end: no worker runs, and one that serves
        # the same Redis would have scored the throwaway database's match ids in its own.
        os.environ["CELERY_QUEUE"] = f"dubium-load-{os.getpid()}"
    # As in production: no query log (DEBUG), database connections kept (docs/performance.md).
    os.environ.update({"DEBUG": "false", "SECURE_SSL_REDIRECT": "false"})
    os.environ.setdefault("SECRET_KEY", secrets.token_urlsafe(50))  # nothing starts with DEBUG off and no key
    os.environ.setdefault("DB_CONN_MAX_AGE", "60")  # kept connections: a new one per move costs 0.6-2 ms
    servers = []
    try:  # from here on the throwaway database is dropped whatever happens
        subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
        import django

        django.setup()
        options = {"max_plays": 5000, "doubt_window_s": 0} if args.game == "doubt-it" else {}
        tables = prepare(args.game, matches, options, "load", args.clock)
        if not (args.no_relay or args.long):  # the stored relay's phase runs
            from relays import create_rooms  # Django's models, once set up

            create_rooms(matches * (args.rounds + 1))  # the last rooms for the warm-up
        if args.long:
            print(f"playing {matches} I Doubt It matches to move {LONG_FROM} through the match service ...")
            late = fast_forward(prepare(args.game, matches * 2, options, "late"), LONG_FROM)[:matches]
        if args.count:
            os.environ["BENCH_COUNT"] = "1"
        servers, ports = start_servers(args.web, args.port)
        if args.worker and real_stack:
            WORKER_LOG = Path(folder) / "worker.log"
            WORKER = start_worker(WORKER_LOG)
        counted = ports if args.count else None
        stack = "PostgreSQL + Redis" if real_stack else "SQLite + in-memory layer"
        think = None if args.fast or args.long else (0.5, 1.5)
        length = f"{args.seconds:.0f} s a phase"
        if args.long:
            length = f"10 moves a match a phase (at most {length})"
        print(
            f"{stack}, {args.web} web process(es); {args.game}, {matches} matches of {seats}"
            f" ({matches * seats} sockets), {'as fast as possible' if think is None else 'thinking 0.5-1.5 s a move'},"
            f" {length}"
        )
        if args.long:
            early = phase("moves 1-10", servers, dubium_urls(ports, tables), seats, args.seconds, None, 10)
            later = phase(
                f"{LONG_FROM}-{LONG_FROM + 10}",
                servers,
                dubium_urls(ports, late),
                seats,
                args.seconds,
                None,
                LONG_FROM + 10,
            )
            print(
                f"   late/early: web CPU a move {later['cpu_ms'] / early['cpu_ms']:.2f}x, p50 "
                f"{later['p50'] / early['p50']:.2f}x, message size {later['bytes'] / early['bytes']:.2f}x"
            )
            return
        if args.warm_up:
            warm_up(args, servers, ports, matches, seats, options, think)
        rounds = {"dubium": [], "stored": [], "relay": []}
        for number in range(args.rounds):
            if number:
                tables = prepare(args.game, matches, options, f"round{number}_", args.clock)
            dubium = phase(
                "dubium",
                servers,
                dubium_urls(ports, tables, args.notices),
                seats,
                args.seconds,
                think,
                counted=counted,
                profile=args.profile,
            )
            rounds["dubium"].append(dubium)
            if args.no_relay:
                continue
            stored_urls, relay_sockets = floor_urls(args, ports, matches, seats, dubium, number * matches)
            rounds["stored"].append(
                phase("stored", servers, stored_urls, seats, args.seconds, think, counted=counted, profile=args.profile)
            )
            rounds["relay"].append(phase("relay", servers, relay_sockets, seats, args.seconds, think, counted=counted))
        if args.no_relay and args.rounds > 1:
            pooled("dubium", rounds["dubium"])
        elif not args.no_relay:
            if args.rounds > 1:
                dubium, stored, relay = (pooled(name, each) for name, each in rounds.items())
            else:
                dubium, stored, relay = (each[0] for each in rounds.values())
            pairs = zip(rounds["dubium"], rounds["stored"], strict=True)
            ratios = [ours["p99"] / floor["p99"] for ours, floor in pairs]
            compare(dubium, stored, relay, real_stack, args.fast, ratios)
            if args.game == "doubt-it":
                print(
                    "          (several I Doubt It seats may answer at once, the relay's one at a time: "
                    "its throughput ratio compares nothing)"
                )
    finally:
        servers = [*servers, WORKER] if WORKER else servers
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
        if real_stack:
            drop_database(os.environ["DATABASE_URL"])
            forget_redis_keys(os.environ["CELERY_QUEUE"])  # the bots' queue and the layer's prefix share its name
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
