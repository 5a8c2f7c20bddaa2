"""House bots and clocks without sleeping.

After every change `plan_next` stores in `match.wake_at` when the next thing is
due: a house bot's move (its thinking or reaction time after the last change)
or a seat's timeout. `wake` does what is due, through the same action path as
any player. What wakes a match: on the real stack a Celery task with an ETA per
change plus a beat sweep that catches anything lost in a restart; embedded, a
ticker thread in the web process (dubium/ticker.py) sweeps several times a
second; in tests, nothing — they call `wake` or `play_out` themselves.
"""

import logging
import random
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from kombu.exceptions import OperationalError as BrokerUnreachable

from games.bots import get_bot
from games.matches import clocks

log = logging.getLogger(__name__)


def bot_move(match, state, seat) -> tuple[datetime, dict] | None:
    """What the house bot on this seat will play and when; the same answer every time it is asked."""
    engine = match.engine
    rng = random.Random(f"{match.seed}-{match.seq}-{seat.number}")
    bot = get_bot(match.game, seat.house_bot)
    view = engine.view(state, seat.number)
    action = bot.choose(view, engine.legal_actions(state, seat.number), rng)
    if action is None:
        return None
    if not engine.realtime:
        delay_ms = int(settings.HOUSE_BOT_THINK_MS * rng.uniform(0.5, 1.5))
        return match.turn_started_at + timedelta(milliseconds=delay_ms), action
    when = match.turn_started_at + timedelta(milliseconds=bot.reaction_ms(view, action, rng))
    # A real-time legal action may carry the earliest game time it can be played (a lockout's end).
    earliest = match.started_at + timedelta(milliseconds=action.get("at_ms", 0) + 1)
    return max(when, earliest), action


# The action of a due event for a seat played by uploaded code: what it plays is known only
# once the code has been asked (botapi), which happens outside the match lock.
UPLOADED = "uploaded"


def due_events(match, state, seats) -> list[tuple[datetime, int, dict | str | None]]:
    """(when, seat, house bot action, UPLOADED, or None for a timeout) for every seat that may act."""
    by_number = {seat.number: seat for seat in seats}
    events = []
    for number in match.engine.to_act(state):
        seat = by_number[number]
        if seat.house_bot:
            move = bot_move(match, state, seat)
            if move is not None:
                events.append((move[0], number, move[1]))
        elif seat.code_version is not None:
            events.append((match.turn_started_at, number, UPLOADED))
        else:
            limit = clocks.deadline(match, seat, state)
            if limit is not None:
                events.append((limit, number, None))
    return sorted(events, key=lambda event: (event[0], event[1]))


def plan_next(match, state, seats) -> None:
    events = due_events(match, state, seats)
    match.wake_at = events[0][0] if events else None


def wake(match_id: int, now: datetime | None = None) -> bool:
    """Do the first thing that is due in this match; False when nothing was."""
    from games.matches.models import Match

    now = now or timezone.now()
    with transaction.atomic():
        match = Match.objects.select_for_update().filter(pk=match_id).first()
        if match is None or match.status != Match.Status.RUNNING:
            return False  # deleted, or over since this wake-up was asked for
        state = match.load_state()
        seats = list(match.seats.select_related("user"))
        due = [event for event in due_events(match, state, seats) if event[0] <= now]
        if not due:
            plan_next(match, state, seats)
            match.save(update_fields=["wake_at"])
            return False
        _, number, action = due[0]
        seat = next(seat for seat in seats if seat.number == number)
        if action != UPLOADED:
            play_for(match, state, seat, action, now)
            return True
        asked_at = match.seq
    return play_uploaded(match_id, asked_at, number, now)


def play_for(match, state, seat, action: dict | None, now: datetime) -> None:
    """Play a house bot's move, or the default move of a seat that ran out of time (or forfeit it)."""
    from games.matches import actions, lifecycle
    from games.matches.errors import MatchError
    from games.matches.models import MatchAction

    source = MatchAction.Source.HOUSE
    if action is None:
        action = match.engine.default_action(state, seat.number)
        source = MatchAction.Source.TIMEOUT
        if action is None:
            lifecycle.forfeit(match, seat, now)
            return
    try:
        actions.apply_action(match, seat.number, action, seq=match.seq, source=source, now=now)
    except MatchError as error:
        log.error("%s seat %s: %s refused %s: %s", match, seat.number, source, action, error.message)
        lifecycle.forfeit(match, seat, now)


def play_uploaded(match_id: int, seq: int, number: int, now: datetime) -> bool:
    """Ask the seat's uploaded code (outside any lock: it may think for seconds), then play its
    answer if the match has not moved on. A crash, a timeout or an illegal answer counts against
    the code and the seat's default move is played instead."""
    from botapi import services as uploaded
    from botapi.sandbox import SandboxError
    from games.matches import actions
    from games.matches.errors import MatchError
    from games.matches.models import Match, MatchAction

    match = Match.objects.get(pk=match_id)
    seat = match.seats.get(number=number)
    try:
        action = uploaded.play_move(match, match.load_state(), seat)
    except SandboxError:
        action = None
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.RUNNING or match.seq != seq:
            return True  # somebody else moved meanwhile: look again
        seat = match.seats.select_related("user").get(number=number)
        if action is not None:
            try:
                actions.apply_action(match, number, action, seq=seq, source=MatchAction.Source.SANDBOX, now=now)
                return True
            except MatchError as error:
                uploaded.record_failure(seat, f"Illegal answer {str(action)[:200]}: {error.message}")
        play_for(match, match.load_state(), seat, None, now)
    return True


def wake_all_due(match_id: int, now: datetime | None = None, limit: int = 50) -> int:
    """Everything due now, one transaction per move; returns how many moves were made."""
    done = 0
    while done < limit and wake(match_id, now):
        done += 1
    return done


def sweep(now: datetime | None = None) -> int:
    """Wake every running match whose wake-up time has come (restart-proof safety net)."""
    from games.matches.models import Match

    now = now or timezone.now()
    due = Match.objects.filter(status=Match.Status.RUNNING, wake_at__lte=now).values_list("pk", flat=True)
    return sum(wake_all_due(match_id) for match_id in list(due))


def play_out(match_id: int, max_moves: int = 100_000):
    """Run a match whose every seat is a bot to its end in simulated time (demo data, tests)."""
    from games.matches.models import Match

    for _ in range(max_moves):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.RUNNING:
            return match
        if match.wake_at is None:
            raise RuntimeError(f"{match} waits for a person; it cannot be played out")
        wake(match_id, now=max(match.wake_at, match.turn_started_at))
    raise RuntimeError(f"match {match_id} did not end in {max_moves} moves")


def schedule(match) -> None:
    """Ask for a wake-up at `match.wake_at` (after commit); if the broker is down, the beat
    sweep wakes the match from the stored `wake_at` instead."""
    if settings.MATCH_WAKEUPS == "celery" and match.wake_at is not None:
        from games.matches.tasks import wake_match

        try:
            wake_match.apply_async((match.pk,), eta=match.wake_at)
        except BrokerUnreachable as error:
            log.warning("%s: wake-up not queued, the sweep will do it: %s", match, error)


def match_finished(match_id: int) -> None:
    """Score the match (after commit); if the broker is down, `settle_forgotten` does it later."""
    from games.matches.tasks import match_finished as task

    try:
        task.delay(match_id)
    except BrokerUnreachable as error:
        log.warning("match %s: scoring not queued, the settle sweep will do it: %s", match_id, error)
