"""What a match does when it wakes: bots' and clocks' moves, played through the match service.

scheduling.py plans when a match is next due (`match.wake_at`) and asks for the wake-up;
`wake` does what is due then, through the same action path as any player. What wakes a match:
on the real stack a Celery task with an ETA per change plus a beat sweep that catches anything
lost in a restart (tasks.py); embedded, a ticker thread in the web process (dubium/ticker.py)
sweeps several times a second; in tests, nothing — they call `wake` or `play_out` themselves.

A bot that is asked (uploaded code, a webhook) may think for seconds, so it is never
asked inside the match lock nor on the thread that wakes matches: `wake` notes the
question and hands it to the bot threads (asking.py: the bot worker's on the real stack, the
web process's embedded, shared fairly between owners), and the answer is played if the match
has not moved on meanwhile.
"""

import json
import logging
import time
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.matches import actions, asking, clocks, fairness, lifecycle, rows, scheduling, seat_players
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction

log = logging.getLogger(__name__)


def wake(match_id: int, now: datetime | None = None) -> bool:
    """Do (or, for a bot that must be asked, start) the first thing that is due; False when nothing was."""
    now = now or timezone.now()
    with transaction.atomic():
        try:
            match, seats = rows.lock_with_seats(match_id)
        except MatchError:
            return False  # deleted since this wake-up was asked for
        if match.status != Match.Status.RUNNING:
            return False  # over since
        state = match.load_state()
        due = [event for event in scheduling.due_events(match, state, seats) if event[0] <= now]
        if not due:
            scheduling.plan_next(match, state, seats)
            match.save(update_fields=["wake_at"])
            return False
        when, number, action = due[0]
        seat = next(seat for seat in seats if seat.number == number)
        if action != seat_players.ASK:
            # A real-time bot claim falls due once its race was held open: it was made before that.
            made = when - fairness.hold() if match.engine.realtime and action is not None else now
            play_for(match, state, seat, action, made, seats)
            return True
        player = seat_players.player_for(seat)
        player.reserve(match, seat, now)
        scheduling.plan_next(match, state, seats)
        match.save(update_fields=["wake_at"])
        party, question = player.party(seat), (match.pk, match.seq, number)
    if settings.MATCH_WAKEUPS == "manual":
        ask_and_play(*question, now)  # tests: in step, at the test's time
    else:  # after the commit: whoever answers finds the question noted
        asking.hand_off(scheduling.task(scheduling.ASK_SEAT), party, ask_and_play, *question)
    return True


def play_for(match, state, seat, action: dict | None, now: datetime, seats: list | None = None) -> None:
    """Play a house bot's move, or the default move of a seat that ran out of time (or forfeit it:
    the game has none, the player has left, clocks.leaves_at_timeout, or has let the clock play
    for them too many times in a row, clocks.idles_out)."""
    source = MatchAction.Source.HOUSE
    if action is None:
        if clocks.leaves_at_timeout(match, seat, state):
            lifecycle.forfeit(match, seat, now)
            return
        if clocks.idles_out(match, seat, state):
            lifecycle.forfeit(match, seat, now, counted_out=True)
            return
        action = match.engine.default_action(state, seat.number)
        source = MatchAction.Source.TIMEOUT
        if action is None:
            lifecycle.forfeit(match, seat, now)
            return
    try:
        actions.apply_action(match, seat.number, action, seq=match.seq, source=source, now=now, seats=seats)
    except MatchError as error:
        log.error("%s seat %s: %s refused %s: %s", match, seat.number, source, action, error.message)
        lifecycle.forfeit(match, seat, now)


def ask_and_play(match_id: int, seq: int, number: int, now: datetime | None = None) -> bool:
    """Ask the seat's player (outside any lock: it may think for seconds), then play its answer
    if the match has not moved on. No answer or an illegal one counts against the player, and
    the seat's default move is played instead. False when the question was out of date."""
    match = Match.objects.filter(pk=match_id).first()
    if match is None or match.status != Match.Status.RUNNING or match.seq != seq:
        return False
    seat = match.seats.select_related("user").get(number=number)
    player = seat_players.player_for(seat)
    state = match.load_state()
    try:
        answer = player.ask(match, state, seat)
    except seat_players.NoAnswer:
        answer = None
    if now is None:
        now = timezone.now()
        if answer is not None and match.engine.realtime:
            now = hold_claim(match, state, now)
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        if match.status != Match.Status.RUNNING or match.seq != seq:
            return False  # somebody else moved meanwhile: the next wake-up asks again
        seat = match.seats.select_related("user").get(number=number)
        if answer is not None:
            try:
                actions.apply_action(match, number, answer.action, seq=seq, source=answer.source, now=now)
                player.accepted(seat)
                return True
            except MatchError as error:
                said = json.dumps(answer.action, default=str, ensure_ascii=False)[:200]  # as the bot wrote it
                player.refused(seat, f"Illegal answer {said}: {error.message}")
        play_for(match, match.load_state(), seat, None, now)
    return True


def hold_claim(match, state, answered: datetime) -> datetime:
    """A real-time bot's answer counts as made when it came, or at the table's bot reaction floor
    (or the rated reaction floor) if that is later; it waits until the race has been held open
    since (fairness.py)."""
    floor = fairness.earliest_claim(match, state, list(match.seats.select_related("user")))
    made = max(answered, floor) if floor else answered
    time.sleep(max(0.0, (made + fairness.hold() - timezone.now()).total_seconds()))
    return made


def wake_all_due(match_id: int, now: datetime | None = None, limit: int = 50) -> int:
    """Everything due now, one transaction per move; returns how many moves were made."""
    done = 0
    while done < limit and wake(match_id, now):
        done += 1
    return done


def sweep(now: datetime | None = None) -> int:
    """Wake every running match whose wake-up time has come (restart-proof safety net), the longest
    due first: behind a backlog (an attacker's many matches), nobody waits for later comers."""
    now = now or timezone.now()
    due = (
        Match.objects.filter(status=Match.Status.RUNNING, wake_at__lte=now)
        .order_by("wake_at")
        .values_list("pk", flat=True)
    )
    return sum(wake_all_due(match_id) for match_id in list(due))


def play_out(match_id: int, max_moves: int = 100_000):
    """Run a match whose every seat is a bot to its end in simulated time (demo data, tests)."""
    for _ in range(max_moves):
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.RUNNING:
            return match
        if match.wake_at is None:
            raise RuntimeError(f"{match} waits for a person; it cannot be played out")
        wake(match_id, now=max(match.wake_at, match.turn_started_at))
    raise RuntimeError(f"match {match_id} did not end in {max_moves} moves")
