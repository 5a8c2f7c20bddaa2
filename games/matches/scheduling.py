"""When a match is next due, and the Celery tasks asked for then.

After every change `plan_next` stores in `match.wake_at` when the next thing is due: a seat's
own move as its player (seat_players.py) says — a house bot after its thinking or reaction time,
a bot that must be asked, a spent clock. Once the change is committed, `queue_wakeups` asks the
broker to wake the match at that time, and `queue_settling` to score a match that has finished.
What is done when a match wakes is wakeups.py's.

The tasks (tasks.py) sit above everything that plans: they play moves through the match
service (wakeups.py, actions.py), which plans with this module. So the tasks queued from below
tasks.py are named here, not imported, as the beat schedule and the task routes in settings
name them; Celery's registry holds them in every process (apps.py loads tasks.py at start).
"""

import logging
from datetime import datetime

from celery import current_app
from django.conf import settings
from kombu.exceptions import OperationalError as BrokerUnreachable

from games.matches import seat_players

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


def queue_wakeups(matches: list) -> None:
    """Ask for each match's wake-up at its `wake_at` (after commit), over one broker connection
    however many matches a round starts; if the broker is down, the beat sweep wakes them from
    the stored `wake_at` instead."""
    due = [match for match in matches if match.wake_at is not None]
    if settings.MATCH_WAKEUPS != "celery" or not due:
        return
    wake_match = task(WAKE_MATCH)
    try:
        with wake_match.app.producer_or_acquire() as producer:
            for match in due:
                wake_match.apply_async((match.pk,), eta=match.wake_at, producer=producer)
    except BrokerUnreachable as error:
        log.warning("wake-up not queued for %d match(es), the sweep will do it: %s", len(due), error)


def queue_settling(match_id: int) -> None:
    """Score the match (after commit); if the broker is down, `settle_forgotten` does it later."""
    try:
        task(SETTLE_MATCH).delay(match_id)
    except BrokerUnreachable as error:
        log.warning("match %s: scoring not queued, the settle sweep will do it: %s", match_id, error)
