"""Starts the production process layout natively: two uvicorn servers and a Celery worker
on a throw-away PostgreSQL database and a Redis database of their own."""

import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

from tests.conftest import services_required

ROOT = Path(__file__).resolve().parents[2]
POSTGRES = os.environ.get("STACK_TEST_POSTGRES", "postgres://postgres@127.0.0.1:5432/postgres")
REDIS = os.environ.get("STACK_TEST_REDIS", "redis://127.0.0.1:6379/7")


def reachable(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=1):
            return True
    except OSError:
        return False


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


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
    if not (reachable("127.0.0.1", 5432) and reachable("127.0.0.1", 6379)):
        if services_required():
            pytest.fail("PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379) must be reachable for the stack test")
        pytest.skip("needs PostgreSQL and Redis on 127.0.0.1 (make test-real runs it)")
    import psycopg

    name = f"dubium_stack_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(POSTGRES, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": POSTGRES.rsplit("/", 1)[0] + "/" + name,
        "REDIS_URL": REDIS,
        "CHANNELS_PREFIX": name,
        "CELERY_QUEUE": name,
        "MATCH_WAKEUPS": "celery",
        "HOUSE_BOT_THINK_MS": "50",
        "REGISTRATION_RATE": "1000/hour",
        "DEBUG": "true",
        "PYTHONPATH": f"{ROOT}{os.pathsep}{ROOT / 'platform'}",
    }
    logs = tmp_path_factory.mktemp("stack")
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], cwd=ROOT, env=env, check=True)
    ports = [free_port(), free_port()]
    commands = {
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
        log = open(logs / f"{label}.log", "a")
        return subprocess.Popen(commands[label], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT)

    def restart(label: str, down_seconds: float = 0) -> None:
        """Kill a process hard, as a crash would, and start it again after `down_seconds`."""
        processes[label].kill()
        processes[label].wait(timeout=10)
        time.sleep(down_seconds)
        processes[label] = launch(label)
        if label.startswith("web"):
            wait_for(f"http://127.0.0.1:{ports[int(label[3:])]}/healthz")

    processes = {label: launch(label) for label in commands}
    try:
        for port in ports:
            wait_for(f"http://127.0.0.1:{port}/healthz")
        yield {"ports": ports, "env": env, "logs": logs, "processes": processes, "restart": restart}
    finally:
        for process in processes.values():
            process.terminate()
        for process in processes.values():
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
        with psycopg.connect(POSTGRES, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
