"""When a match is next due, and the Celery tasks asked for then.

After every change `plan_next` stores in `match.wake_at` when the next thing is due: a seat's
own move as its player (seat_players.py) says — a house bot after its thinking or reaction time,
a bot that must be asked, a spent clock. Once the change is committed, `queue_wakeups` asks the
broker to wake the match at that time if it is near (a wake-up further off is queued by the
beat's sweep as it comes near: `queue_coming`), and `queue_settling` to score a match that has
finished.
What is done when a match wakes is wakeups.py's.

The tasks (tasks.py) sit above everything that plans: they play moves through the match
service (wakeups.py, actions.py), which plans with this module. So the tasks queued from below
tasks.py are named here, not imported, as the beat schedule and the task routes in settings
name them; Celery's registry holds them in every process (apps.py loads tasks.py at start).
"""

import logging
from datetime import datetime, timedelta

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from games.matches import seat_players
from games.matches.models import Match

log = logging.getLogger(__name__)

WAKE_MATCH = "games.matches.tasks.wake_match"
SETTLE_MATCH = "games.matches.tasks.settle_match"
ASK_SEAT = "games.matches.tasks.ask_seat"  # queued by wakeups.py, which that task calls


def due_events(match, state, seats) -> list[tuple[datetime, int, dict | str | None]]:
    """(when, seat, action, ASK, or None for a spent clock) for every seat that may act."""
    by_number = {seat.number: seat for seat in seats}
    events = []
    for number in match.engine.to_act(state):
        seat = by_number[number]
        move = seat_players.player_for(seat).next_move(match, state, seat, seats)
        if move is not None:
            events.append((move[0], number, move[1]))
    return sorted(events, key=lambda event: (event[0], event[1]))


def plan_next(match, state, seats) -> None:
    """`match.wake_at`: the first time a seat acts by itself. Only the times are worked out;
    what a bot plays is decided when it wakes (`due_events`)."""
    by_number = {seat.number: seat for seat in seats}
    times = [
        seat_players.player_for(seat).next_time(match, state, seat, seats)
        for seat in (by_number[number] for number in match.engine.to_act(state))
    ]
    match.wake_at = min((when for when in times if when is not None), default=None)


def task(name: str):
    """One of tasks.py's tasks, from Celery's registry."""
    return current_app.tasks[name]


# A wake-up further ahead than this is not queued when it is planned, but by the beat's sweep
# once it comes within reach (`queue_coming`). A person's clock runs out, or their grace to come
# back ends, minutes later, and every move plans it again: queued at every move, each was a
# publish to the broker on the web process's database thread (behind which the process's moves
# wait) and a task the worker held until its time, though the next move had made it moot.
WAKE_AHEAD = timedelta(seconds=10)
COMING_KEY = "wake-ups-queued-until"


def queue_wakeups(matches: list, now: datetime | None = None) -> None:
    """Ask for each match's wake-up at its `wake_at` (after commit), over one broker connection
    however many matches a round starts, if it is due within WAKE_AHEAD; if the broker is down,
    the beat sweep wakes them from the stored `wake_at` instead."""
    if settings.MATCH_WAKEUPS != "celery":
        return
    reach = (now or timezone.now()) + WAKE_AHEAD
    publish([match for match in matches if match.wake_at is not None and match.wake_at <= reach])


def queue_coming(now: datetime | None = None) -> int:
    """Beat (with the sweep): queue the wake-ups that have come within reach since the last call,
    each once: those planned further ahead than WAKE_AHEAD were not queued then. The cache
    remembers how far the last call reached (lost with it, some are queued twice: no harm, a
    wake-up finds nothing due). How many were queued."""
    if settings.MATCH_WAKEUPS != "celery":
        return 0
    now = now or timezone.now()
    reach = now + WAKE_AHEAD
    reached = max(cache.get(COMING_KEY) or now, now)
    coming = list(Match.objects.filter(status=Match.Status.RUNNING, wake_at__gt=reached, wake_at__lte=reach))
    publish(coming)
    cache.set(COMING_KEY, reach, None)
    return len(coming)


def publish(matches: list) -> None:
    if not matches:
        return
    wake_match = task(WAKE_MATCH)
    try:
        with wake_match.app.producer_or_acquire() as producer:
            for match in matches:
                wake_match.apply_async((match.pk,), eta=match.wake_at, producer=producer)
    except BrokerUnreachable as error:
        log.warning("wake-up not queued for %d match(es), the sweep will do it: %s", len(matches), error)


def queue_settling(match_id: int) -> None:
    """Score the match (after commit); if the broker is down, `settle_forgotten` does it later."""
    try:
        task(SETTLE_MATCH).delay(match_id)
    except BrokerUnreachable as error:
        log.warning("match %s: scoring not queued, the settle sweep will do it: %s", match_id, error)
