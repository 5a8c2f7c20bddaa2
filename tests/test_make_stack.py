"""`make stack` runs as production does and on the database it is given (it ran with DEBUG on, and
created and used `dubium` whatever DATABASE_URL said)."""

import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
ELSEWHERE = "postgres://postgres@127.0.0.1:5432/dubium_elsewhere"
pytestmark = pytest.mark.once


def test_make_stack_runs_production_settings_on_the_given_database():
    env = {**os.environ, "DATABASE_URL": ELSEWHERE, "REDIS_URL": "redis://127.0.0.1:6379/7"}
    planned = subprocess.run(["make", "-n", "stack"], cwd=REPO, env=env, capture_output=True, text=True, timeout=60)
    assert planned.returncode == 0, planned.stderr
    commands = [line for line in planned.stdout.splitlines() if "manage.py" in line or "dubium.stack" in line]
    assert len(commands) == 3
    for command in commands:
        assert f"DATABASE_URL={ELSEWHERE} REDIS_URL=redis://127.0.0.1:6379/7 DEBUG=false" in command
        assert "SECRET_KEY=" in command and "SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false" in command
    assert "DATABASE_URL=" + ELSEWHERE in next(line for line in planned.stdout.splitlines() if "local-services" in line)


def test_on_a_fresh_clone_the_stack_key_is_made_with_its_folder_once_and_for_its_owner_only(tmp_path):
    """A fresh clone has no var/ (git keeps no empty folder): the key's step makes it."""
    env = {key: value for key, value in os.environ.items() if key != "SECRET_KEY"}
    make = ["make", "--no-print-directory", "-f", str(REPO / "Makefile"), "-C", str(tmp_path), "stack-key"]
    made = subprocess.run(make, env=env, capture_output=True, text=True, timeout=60)
    assert made.returncode == 0, made.stderr
    key = tmp_path / "var" / "stack-secret-key"
    assert len(key.read_text().strip()) >= 50
    assert key.stat().st_mode & 0o777 == 0o600
    again = subprocess.run(make, env=env, capture_output=True, text=True, timeout=60)
    assert again.returncode == 0 and (tmp_path / "var" / "stack-secret-key").read_text() == key.read_text()


def test_with_a_secret_key_given_no_key_file_is_made(tmp_path):
    env = {**os.environ, "SECRET_KEY": "given"}
    make = ["make", "-f", str(REPO / "Makefile"), "-C", str(tmp_path), "stack-key"]
    assert subprocess.run(make, env=env, capture_output=True, timeout=60).returncode == 0
    assert not (tmp_path / "var").exists()


@pytest.fixture
def fake_services(tmp_path):
    """PostgreSQL and Redis tools that answer "up" and write down what they were asked."""
    calls = tmp_path / "calls"
    for tool, answer in [("pg_isready", ""), ("redis-cli", "PONG"), ("psql", ""), ("createdb", "")]:
        script = tmp_path / tool
        script.write_text(f'#!/bin/sh\necho "{tool} $*" >> {calls}\necho {answer}\n')
        script.chmod(0o755)
    return tmp_path, calls


@pytest.mark.parametrize(
    "url, created",
    [
        (ELSEWHERE, "createdb -h 127.0.0.1 -U postgres dubium_elsewhere"),
        ("postgres://postgres@localhost/dubium_x?sslmode=disable", "createdb -h 127.0.0.1 -U postgres dubium_x"),
        ("postgres://app@db.internal:5432/dubium", None),  # another server's databases are not ours to create
    ],
)
def test_the_services_script_creates_the_database_it_is_given_on_this_machine_only(fake_services, url, created):
    folder, calls = fake_services
    env = {**os.environ, "PATH": f"{folder}:{os.environ['PATH']}", "DATABASE_URL": url}
    done = subprocess.run(["bash", "docker/local-services.sh"], cwd=REPO, env=env, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr
    creations = [line for line in calls.read_text().splitlines() if line.startswith("createdb")]
    assert creations == ([created] if created else [])
