"""Load: many people playing at once over websockets, against real ASGI server processes.

    .venv/bin/python bench/load.py [--matches 50] [--seconds 30] [--web 1]
    DATABASE_URL=postgres://... REDIS_URL=redis://... .venv/bin/python bench/load.py --web 2

Creates --matches two-player Dudo matches between fresh accounts in a throwaway database,
starts --web uvicorn processes (embedded defaults, or the real stack when DATABASE_URL and
REDIS_URL are set; then the two seats of a match sit on different processes), and lets every
player play random legal moves as fast as the server answers for --seconds. Reported: moves
per second, and the latency from sending a move to the mover seeing the state it made
(p50/p95/p99/max), which is the whole path: socket, match service, database, channel layer.
Figures in docs/performance.md.
"""

import argparse
import asyncio
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def throwaway_database(url: str) -> str:
    """A new PostgreSQL database beside the one in `url`, so the bench never touches real data."""
    import psycopg

    base, _, _ = url.rpartition("/")
    name = f"dubium_load_{os.getpid()}"
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{base}/{name}"


def drop_database(url: str) -> None:
    import psycopg

    base, _, name = url.rpartition("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def prepare(matches: int) -> list[tuple[int, list[str]]]:
    """Migrate the throwaway database and create the matches: [(match id, [token of seat 0, 1])]."""
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from games.matches import lifecycle

    User = get_user_model()
    tables = []
    for number in range(matches):
        users = [User.objects.create_user(f"load{number}x{seat}") for seat in range(2)]  # tokens only
        match = lifecycle.create_match(game="dudo", players=2, host=users[0])
        lifecycle.join_match(match.pk, users[1])
        lifecycle.start_match(match.pk, users[0])
        tables.append((match.pk, [Token.objects.create(user=user).key for user in users]))
    return tables


async def player(url: str, token: str, deadline: float, latencies: list[float], rng: random.Random) -> int:
    """Play random legal moves until the deadline or the match ends; returns moves made."""
    import websockets

    moves, sent_at, sent_seq = 0, None, -1
    origin = "http://" + url.split("/")[2]
    headers = {"Authorization": f"Token {token}"}
    async with websockets.connect(
        url, additional_headers=headers, origin=origin, open_timeout=20, compression=None
    ) as ws:
        while time.monotonic() < deadline:
            try:
                message = json.loads(await asyncio.wait_for(ws.recv(), timeout=deadline - time.monotonic()))
            except TimeoutError:
                break
            if message.get("type") != "state":
                continue
            if sent_at is not None and message["seq"] > sent_seq:
                latencies.append(time.monotonic() - sent_at)
                sent_at = None
            if message["status"] != "running":
                break
            if message["legal"] and sent_at is None:
                action = rng.choice(message["legal"])
                sent_seq = message["seq"]
                sent_at = time.monotonic()
                await ws.send(json.dumps({"type": "action", "action": action, "seq": sent_seq}))
                moves += 1
    return moves


async def play_all(ports: list[int], tables, seconds: float) -> tuple[int, list[float], float]:
    latencies: list[float] = []
    rng = random.Random(1)
    started = time.monotonic()
    deadline = started + seconds
    clients = [
        player(f"ws://127.0.0.1:{ports[seat % len(ports)]}/ws/match/{match_id}/", token, deadline, latencies, rng)
        for match_id, tokens in tables
        for seat, token in enumerate(tokens)
    ]
    moves = sum(await asyncio.gather(*clients))
    return moves, latencies, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--web", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="dubium-load-")
    real_stack = bool(os.environ.get("DATABASE_URL") and os.environ.get("REDIS_URL"))
    if real_stack:
        os.environ["DATABASE_URL"] = throwaway_database(os.environ["DATABASE_URL"])
        os.environ["CHANNELS_PREFIX"] = f"dubium-load-{os.getpid()}"
    else:
        os.environ["DATABASE_URL"] = f"sqlite:///{folder}/load.sqlite3"
        os.environ.pop("REDIS_URL", None)
        args.web = 1  # the in-memory channel layer lives in one process
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "MATCH_WAKEUPS": "manual", "LOG_LEVEL": "WARNING"})
    tables = prepare(args.matches)
    ports = [free_port() for _ in range(args.web)]
    servers = [
        subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "dubium.asgi:application", "--app-dir", "platform",
             "--port", str(port), "--log-level", "warning", "--timeout-graceful-shutdown", "5"],
            cwd=ROOT,
        )
        for port in ports
    ]  # fmt: skip
    try:
        for port in ports:
            for _ in range(200):
                try:
                    socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                    break
                except OSError:
                    time.sleep(0.1)
        cpu_before = sum(cpu_seconds(server.pid) for server in servers)
        moves, latencies, elapsed = asyncio.run(play_all(ports, tables, args.seconds))
        server_cpu = sum(cpu_seconds(server.pid) for server in servers) - cpu_before
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            try:
                server.wait(15)
            except subprocess.TimeoutExpired:
                server.kill()
        if real_stack:
            drop_database(os.environ["DATABASE_URL"])
    latencies.sort()
    stack = "PostgreSQL + Redis" if real_stack else "SQLite + in-memory layer"
    print(f"{stack}, {args.web} web process(es), {args.matches} matches, {2 * args.matches} sockets, {elapsed:.0f} s")
    cpu_per_move = 1000 * server_cpu / max(moves, 1)
    print(f"moves: {moves} ({moves / elapsed:.0f}/s); web processes' CPU: {cpu_per_move:.1f} ms a move")
    if latencies:
        pick = lambda q: latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000  # noqa: E731
        print(
            f"move -> own new state, ms: p50 {statistics.median(latencies) * 1000:.0f}, p95 {pick(0.95):.0f}, "
            f"p99 {pick(0.99):.0f}, max {latencies[-1] * 1000:.0f}"
        )


if __name__ == "__main__":
    main()
