"""The one path by which a move reaches a match, whoever makes it.

Browser, HTTP bot, uploaded bot, house bot and timeout all end in `apply_action`:
lock the match row, check the seat may act and the move is not stale, validate
with the engine, append to the log (with the history entries the move added) and save
the new snapshot (with only the history's tail) in one transaction,
then (on commit) send every seat its own view.
"""

import json
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import IllegalAction
from games.matches import broadcast, clocks, fairness, lifecycle, rows, scheduling
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction

MAX_ACTION_BYTES = 4096


def submit_action(
    match_id: int, user, action, seq, source: str = MatchAction.Source.BROWSER, now: datetime | None = None
) -> Match:
    """A player's (or their bot's) move; `seq` is the last sequence number they saw."""
    now = now or timezone.now()
    with transaction.atomic():
        match, seats = rows.lock_with_seats(match_id)
        seat = next((s for s in seats if user is not None and s.user_id == user.pk), None)
        if seat is None:
            raise MatchError("not_seated", "You have no seat in this match: spectators cannot move.")
        if seat.forfeited_at is not None:
            raise MatchError("forfeited", "You have left this match.")
        apply_action(match, seat.number, action, seq=seq, source=source, now=now, seats=seats)
    return match


def apply_action(
    match: Match, seat_number: int, action, *, seq, source: str, now: datetime, seats: list | None = None
) -> None:
    """Validate and record one action on a locked match (inside the caller's transaction);
    `seats` saves a query when the caller has just loaded them."""
    check_shape(match.engine, action)
    check_running(match)
    engine = match.engine
    state = match.load_state()
    if not current(engine, state, match.seq, seq):
        raise MatchError(
            "stale", f"The match has moved on (it is at move {match.seq}, you saw {seq!r}): look again and retry."
        )
    if seat_number not in engine.to_act(state):
        raise MatchError("not_your_turn", "It is not your turn.")
    if not isinstance(action, dict):
        raise MatchError("illegal", 'An action must be a JSON object with a "type".', "action")
    window_was_open = engine.answer_window_ms(state) is not None
    own_turn = engine.to_act(state) == [seat_number]
    if engine.realtime:
        action, cards_were = realtime_claim(match, state, action, now), fairness.changed_ms(match, state)
    try:
        state = engine.apply(state, seat_number, action)
    except IllegalAction as error:
        raise MatchError("illegal", str(error), "action") from None
    if engine.realtime and fairness.changed_ms(match, state) != cards_were:
        # New cards go to the table on this commit: the next claims are timed from now (the
        # claim's `now` is when it was made, earlier; a simulated `now` may be later).
        match.shown_at = max(timezone.now(), now)

    seats = seats if seats is not None else list(match.seats.select_related("user"))
    mover = next(seat for seat in seats if seat.number == seat_number)
    changed = ("clock_ms",) if clocks.charge(match, mover, now) else ()
    if clocks.count_timeout(mover, source, own_turn):
        changed += ("timeouts_in_a_row",)
    match.seq += 1
    events = match.store_state(state)
    # The push tells the table when the clock made this move (the history says so); a move that
    # adds no entry (a pass while others may still doubt) has none to mark.
    made_by_clock = source == MatchAction.Source.TIMEOUT and events
    match.clock_moves = [match.history_length - len(events)] if made_by_clock else []
    match.turn_started_at = now
    if not window_was_open:
        match.window_opened_at = now
    over = engine.is_over(state)
    if not over:
        scheduling.plan_next(match, state, seats)
    # The move's record, in one round trip: INSERT into the action log (MatchAction, rows.logged),
    # UPDATE the mover's clock, UPDATE the match's snapshot (at game over finish_match saves it).
    stored = [rows.logged(match, seat_number, action, source, events, now)]
    stored += [rows.updated(mover, changed)] if changed else []
    stored += [] if over else [rows.snapshot(match)]
    rows.execute_all(*stored)  # one round trip on PostgreSQL
    if over:
        lifecycle.finish_match(match, state, seats, now)  # the same pushes on commit, then the settling task
        return
    # Once committed, never before: every seat its own view, then the next wake-up's Celery task.
    transaction.on_commit(lambda: broadcast.send_state(match, state, seats))
    transaction.on_commit(lambda: scheduling.queue_wakeups([match]))


def realtime_claim(match: Match, state, action: dict, now: datetime) -> dict:
    """The claim as it is logged: stamped with its game time and, in rated play, marked as a
    false start when made too soon after its cards were sent (fairness.py); refused before go."""
    if now < match.started_at:
        wait = (match.started_at - now).total_seconds()
        if wait < 0.05:  # it came after go, but its player's delay dates it before (fairness.py)
            raise MatchError("not_started", "That claim was made before go (its arrival minus your delay): "
                             "nobody could see the cards yet.")  # fmt: skip
        raise MatchError("not_started", f"The cards turn up at go, in {wait:.1f} s: wait for the countdown.")
    if "false_start" in action:
        raise MatchError(
            "illegal", 'Only the server marks a claim as a false start: send it without "false_start".', "action"
        )
    if action.get("at_ms") is None:  # the protocol's shape, though the server stamps the time itself
        raise MatchError(
            "illegal", "A claim needs its game time at_ms (the server replaces it with the arrival time).", "action"
        )
    claim = {**action, "at_ms": game_time_ms(match, now)}
    if fairness.is_false_start(match, now):
        claim["false_start"] = True
    return claim


def current(engine, state, at: int, seen) -> bool:
    """Was the action chosen on a picture of the match that is still good? The latest one always
    is; an older one only where the engine says nothing it was about has changed (Dobble)."""
    if isinstance(seen, bool) or not isinstance(seen, int) or not 0 <= seen <= at:
        return False
    return seen == at or engine.still_current(state, at - seen)


def game_time_ms(match: Match, now: datetime) -> int:
    """Milliseconds since the start, never earlier than the last logged action's."""
    elapsed = int((now - match.started_at).total_seconds() * 1000)
    last = match.actions.order_by("-seq").values_list("action", flat=True).first()
    return max(elapsed, last.get("at_ms", 0) if last else 0)


def check_shape(engine, action) -> None:
    """Before anything else, whatever path the move came by: an object of this game's keys,
    small enough to store and replay (MAX_ACTION_BYTES)."""
    if not isinstance(action, dict):
        raise MatchError("illegal", 'An action must be a JSON object with a "type".', "action")
    unknown = sorted(str(key)[:40] for key in set(action) - engine.action_keys)
    if unknown:
        raise MatchError("illegal", f"{engine.name} actions have no key {', '.join(map(repr, unknown[:5]))}.", "action")
    try:
        size = len(json.dumps(action))
    except (TypeError, ValueError, RecursionError):
        size = MAX_ACTION_BYTES + 1
    if size > MAX_ACTION_BYTES:
        raise MatchError("illegal", f"An action may be at most {MAX_ACTION_BYTES} bytes of JSON.", "action")


def check_running(match: Match) -> None:
    if match.status != Match.Status.RUNNING:
        raise MatchError("not_running", "This match is not running.")
