"""Starts the production process layout natively: two uvicorn servers, a Celery worker and beat
on a throw-away PostgreSQL database and a Redis server of their own.

The processes reach PostgreSQL through a proxy and Redis is a private `redis-server`, so a
test can take either away (`stack["cut_database"]`, `stack["restart"]("redis")`) without
touching the machine's services, which the test run itself uses."""

import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.conftest import services_required
from tests.ports import free_port
from tests.stack.proxy import Proxy

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("STACK_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres")


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False




def wait_for_port(port: int, seconds: float = 10) -> None:
    deadline = time.monotonic() + seconds
    while not reachable("127.0.0.1", port):
        if time.monotonic() > deadline:
            raise RuntimeError(f"nothing listens on port {port} after {seconds} s")
        time.sleep(0.1)


def wait_for(url: str, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    redis_server = shutil.which("redis-server")
    if not (reachable("127.0.0.1", 5432) and redis_server):
        if services_required():
            pytest.fail("the stack test needs PostgreSQL on 127.0.0.1:5432 and the redis-server program")
        pytest.skip("needs PostgreSQL on 127.0.0.1 and redis-server (make test-real runs it)")
    import psycopg

    name = f"dubium_stack_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    database = Proxy(("127.0.0.1", 5432), free_port() if os.environ.get("TEST_PORTS") else 0)
    redis_port = free_port()
    env = {
        # Not a test process: settings.py would move its REDIS_URL to the xdist process's database.
        **{key: value for key, value in os.environ.items() if key != "PYTEST_XDIST_WORKER"},
        "DATABASE_URL": f"postgres://postgres@127.0.0.1:{database.port}/{name}",
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}/0",
        "CHANNELS_PREFIX": name,
        "CELERY_QUEUE": name,
        "MATCH_WAKEUPS": "celery",
        "HOUSE_BOT_THINK_MS": "50",
        "MATCH_SOCKET_HEARTBEAT_SECONDS": "1",
        "REGISTRATION_RATE": "1000/hour",
        "TOKEN_RATE": "1000/min",
        "API_ACCOUNT_BURST": "1000/s",
        "API_ADDRESS_BURST": "1000/s",
        "API_ACCOUNT_RATE": "60000/min",
        "API_ADDRESS_RATE": "60000/min",
        "BOT_WEBHOOK_ALLOW_PRIVATE": "true",  # the bot servers of the tests listen on 127.0.0.1
        "DEBUG": "true",
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
    }
    logs = tmp_path_factory.mktemp("stack")
    ports = [free_port(), free_port()]
    commands = {
        "redis": [redis_server, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"]
    }
    commands |= {
        f"web{i}": [sys.executable, "-m", "uvicorn", "dubium.asgi:application", "--port", str(port)]
        for i, port in enumerate(ports)
    }
    commands["worker"] = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "dubium",
        "worker",  # the prefork pool, as in production: a process per task slot
        "--queues",
        name,
        "--concurrency",
        "2",
        "--loglevel",
        "INFO",
        "--without-gossip",
        "--without-mingle",
    ]

    commands["bots"] = [  # bot calls, on their queue (asking.py), as `make stack` runs them
        sys.executable,
        "-m",
        "celery",
        "-A",
        "dubium",
        "worker",
        "--queues",
        f"{name}-bots",
        "--pool",
        "solo",
        "--hostname",
        "bots@%h",
        "--loglevel",
        "INFO",
        "--without-gossip",
        "--without-mingle",
    ]
    commands["beat"] = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "dubium",
        "beat",
        "--loglevel",
        "INFO",
        "--schedule",
        str(logs / "celerybeat-schedule"),
    ]

    def launch(label: str) -> subprocess.Popen:
        """Each process leads a session of its own, so a crash takes its children with it."""
        log = open(logs / f"{label}.log", "a")
        process = subprocess.Popen(
            commands[label], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True
        )
        if label == "redis":
            wait_for_port(redis_port)
        return process

    def crash(label: str) -> None:
        """Kill a process and its children at once, as a crash or an OOM kill would; it stays
        down until `restart`."""
        with lock:
            held_down.add(label)
            with contextlib.suppress(ProcessLookupError):  # crashed already
                os.killpg(processes[label].pid, signal.SIGKILL)
            processes[label].wait(timeout=10)

    def restart(label: str, down_seconds: float = 0) -> None:
        """Crash a process (if it still runs) and start it again after `down_seconds`."""
        crash(label)
        time.sleep(down_seconds)
        with lock:
            processes[label] = launch(label)
            held_down.discard(label)
        if label.startswith("web"):
            wait_for(f"http://127.0.0.1:{ports[int(label[3:])]}/healthz")

    def supervise() -> None:
        """Start again any process that dies by itself, as production's restart policy does
        (docker/compose.yaml, `make stack`); the log says when it had to."""
        while not stopping.wait(0.5):
            with lock:
                for label, process in processes.items():
                    if label not in held_down and process.poll() is not None:
                        with open(logs / "supervisor.log", "a") as log:
                            log.write(f"{label} exited with {process.returncode}, started again\n")
                        processes[label] = launch(label)

    lock, stopping, held_down = threading.Lock(), threading.Event(), set()
    processes = {"redis": launch("redis")}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    processes |= {label: launch(label) for label in commands if label != "redis"}
    supervisor = threading.Thread(target=supervise, daemon=True)
    supervisor.start()
    try:
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/healthz")
        yield {
            "ports": ports,
            "env": env,
            "logs": logs,
            "processes": processes,
            "crash": crash,
            "restart": restart,
            "cut_database": database.cut,
        }
    finally:
        stopping.set()
        supervisor.join(timeout=5)
        for process in processes.values():
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
        database.close()
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
