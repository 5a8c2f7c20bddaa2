"""How late this process is running what it owes on time: the embedded ticker's rounds (house bots'
moves, clocks, the queue, tournaments) and its event loop (every socket's pushes).

Each source notes how late it was on its last round; `recent` is the worst noted in the last
WINDOW_SECONDS. dubium/inflight.py sheds HTTP requests while it is over HTTP_SHED_WHEN_LATE_SECONDS:
under a flood the ticker and the event loop share the process (and its one core) with the request
threads, and on a busy machine the ticker fell behind the attacker's own matches: a house bot's move
reached its table 44.8 s late (docs/security.md, "Bots cannot stall the site").
"""

import asyncio
import time

WINDOW_SECONDS = 2.0
LOOP_PERIOD_SECONDS = 0.1

_noted: dict[str, tuple[float, float]] = {}  # source: (when, seconds late); one assignment each, thread-safe


def note(source: str, seconds: float) -> None:
    _noted[source] = (time.monotonic(), max(seconds, 0.0))


def recent() -> float:
    """The worst lateness any source noted in the last WINDOW_SECONDS (0 if none)."""
    now = time.monotonic()
    return max((late for when, late in list(_noted.values()) if now - when <= WINDOW_SECONDS), default=0.0)


def forget() -> None:
    _noted.clear()


async def watch_event_loop() -> None:
    """Note how much later than asked this event loop wakes a sleeper, forever."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(LOOP_PERIOD_SECONDS)
        note("event loop", time.monotonic() - asked - LOOP_PERIOD_SECONDS)
