"""Embedded mode's stand-in for `celery beat`: one daemon thread in the web process.

It runs every task of CELERY_BEAT_SCHEDULE at its interval, in this thread (eager,
like every task in embedded mode), except the match sweep, which runs on every tick
so that house bots answer within a fraction of a second. The real stack runs
the same schedule with `celery beat` and a worker instead.

No worker ever starts here, so nothing else makes Celery import the task modules:
the ticker does it before its first tick. Each entry runs on its own, so one that
fails is logged and the others still run. How long each round took is noted (dubium/lateness.py):
everything that fell due meanwhile waited that long, and while it is too long the web process sheds
HTTP requests (dubium/inflight.py).
"""

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

from dubium import lateness
from dubium.celery import app

log = logging.getLogger(__name__)

SWEEP_TASK = "games.matches.tasks.sweep_matches"


def start_ticker(interval: float = 0.2, stop: threading.Event | None = None) -> threading.Thread:
    """Tick every `interval` seconds until `stop` is set."""
    stop = stop or threading.Event()
    app.loader.import_default_modules()  # the autodiscovered tasks modules, as a worker would
    missing = [entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values() if entry["task"] not in app.tasks]
    if missing:
        raise RuntimeError(f"the beat schedule names tasks Celery does not know: {', '.join(missing)}")
    last_run: dict[str, float] = {}
    ran_once: set[str] = set()

    def run_entry(name: str, task: str) -> None:
        try:
            app.tasks[task].apply(throw=True)
        except Exception:
            log.exception("embedded beat: %s failed", name)
        else:
            if name not in ran_once:
                ran_once.add(name)
                log.info("embedded beat: %s ran", name)
        finally:
            close_old_connections()

    def tick() -> None:
        now = time.monotonic()
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
            every = 0 if entry["task"] == SWEEP_TASK else entry["schedule"]
            if now - last_run.get(name, -1e9) >= every:
                last_run[name] = now
                run_entry(name, entry["task"])

    def run() -> None:
        while not stop.is_set():
            started = time.monotonic()
            tick()
            lateness.note("ticker", time.monotonic() - started)  # what fell due meanwhile waited this long
            stop.wait(interval)

    thread = threading.Thread(target=run, name="dubium-ticker", daemon=True)
    thread.start()
    return thread
