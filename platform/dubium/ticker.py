"""Embedded mode's stand-in for `celery beat`: one daemon thread in the web process.

It runs every task of CELERY_BEAT_SCHEDULE at its interval, in this thread (eager,
like every task in embedded mode), except the match sweep, which it runs on every
tick so that house bots answer within a fraction of a second. The real stack runs
the same schedule with `celery beat` and a worker instead.
"""

import logging
import threading
import time

from django.conf import settings
from django.db import close_old_connections

from dubium.celery import app
from games.matches.wakeups import sweep

log = logging.getLogger(__name__)

SWEEP_TASK = "games.matches.tasks.sweep_matches"


def start_ticker(interval: float = 0.2, stop: threading.Event | None = None) -> threading.Thread:
    """Tick every `interval` seconds until `stop` is set."""
    stop = stop or threading.Event()
    last_run: dict[str, float] = {}

    def tick() -> None:
        sweep()
        now = time.monotonic()
        for name, entry in settings.CELERY_BEAT_SCHEDULE.items():
            if entry["task"] != SWEEP_TASK and now - last_run.get(name, -1e9) >= entry["schedule"]:
                last_run[name] = now
                app.tasks[entry["task"]].apply()

    def run() -> None:
        # A worker imports every app's tasks module at start-up; the web process must do it too,
        # or the schedule's tournament and ladder tasks are unknown here.
        app.loader.import_default_modules()
        while not stop.is_set():
            try:
                tick()
            except Exception:
                log.exception("embedded ticker failed")
            finally:
                close_old_connections()
            stop.wait(interval)

    thread = threading.Thread(target=run, name="dubium-ticker", daemon=True)
    thread.start()
    return thread
