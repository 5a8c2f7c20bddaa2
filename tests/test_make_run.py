"""`make run` as a newcomer types it: the embedded ticker runs every beat entry and starts tournaments,
and each game has an arena starting within the hour, one of them within 15 minutes.

The site runs in a child process exactly as the Makefile starts it (its own SQLite file and
port); the test reads the server's log and the database it writes.
"""

import os
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from django.conf import settings

from tests.ports import free_port

REPO = Path(__file__).resolve().parents[1]
PY = str(REPO / ".venv" / "bin" / "python")


def manage(env: dict, *args: str) -> str:
    done = subprocess.run([PY, "manage.py", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout


CREATE_DUE_TOURNAMENT = """
from django.contrib.auth import get_user_model
from django.utils import timezone
from tournaments import services
from tournaments.models import Tournament
t = Tournament.objects.create(name="Starts now", game="dudo", table_size=2, rounds=1, turn_seconds=0,
                              organizer=get_user_model().objects.get(username="olga"), starts_at=timezone.now())
services.enter_house_bot(t.pk, "random")
services.enter_house_bot(t.pk, "heuristic")
print(t.pk)
"""

ARENAS_WITHIN_THE_HOUR = """
from datetime import timedelta
from django.utils import timezone
from tournaments.models import Tournament
now = timezone.now()
live = ["scheduled", "running"]
soon = Tournament.objects.filter(format="arena", status__in=live, starts_at__lte=now + timedelta(hours=1))
print(",".join(sorted({t.game for t in soon if now < t.ends_at})))
starting = [t for t in soon if t.status == "scheduled" and t.starts_at <= now + timedelta(minutes=15)]
print("soon" if starting else "none starting within 15 minutes")
"""

TOURNAMENT_STATUS = "from tournaments.models import Tournament; print(Tournament.objects.get(pk={pk}).status)"


@pytest.fixture
def make_run(tmp_path):
    """`make run` on a free port with a fresh database; yields (env, log path, base url)."""
    port = free_port()
    env = {key: value for key, value in os.environ.items() if not key.startswith(("DATABASE_URL", "REDIS_URL"))}
    env.pop("MATCH_WAKEUPS", None)
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", HOUSE_BOT_THINK_MS="50")
    log_path = tmp_path / "server.log"
    with open(log_path, "w") as log:
        server = subprocess.Popen(
            ["make", "--no-print-directory", "run", f"PORT={port}"], cwd=REPO, env=env, stdout=log,
            stderr=subprocess.STDOUT, start_new_session=True,
        )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(f"{url}/healthz", server, log_path)
        yield env, log_path, url
    finally:
        os.killpg(server.pid, 15)
        server.wait(20)


def wait_for(url: str, server: subprocess.Popen, log_path: Path, seconds: float = 150) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, log_path.read_text()
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"make run did not answer within {seconds} s:\n{log_path.read_text()}")


@pytest.mark.once  # `make run` is embedded
def test_make_run_runs_every_beat_entry_and_starts_a_tournament_due_now(make_run):
    env, log_path, _ = make_run
    pk = int(manage(env, "shell", "-c", CREATE_DUE_TOURNAMENT).split()[-1])
    deadline = time.monotonic() + 30
    status = "scheduled"
    while status == "scheduled" and time.monotonic() < deadline:
        time.sleep(0.5)
        status = manage(env, "shell", "-c", TOURNAMENT_STATUS.format(pk=pk)).split()[-1]
    assert status in ("running", "finished"), log_path.read_text()
    games, starting = manage(env, "shell", "-c", ARENAS_WITHIN_THE_HOUR).splitlines()[-2:]
    assert games == "dobble,doubt-it,dubito,dudab,dudo", "a fresh make run has an arena starting within the hour"
    assert starting == "soon", "the demo's arenas start 12 minutes apart: one starts within 15 minutes"
    log = log_path.read_text()
    for name in settings.CELERY_BEAT_SCHEDULE:
        assert f"embedded beat: {name} ran" in log, log
    assert "Traceback" not in log and "ERROR" not in log and "NotRegistered" not in log, log
