"""Clocks: per-turn limits or a per-game bank with a Fischer increment.

Time runs from `match.turn_started_at`, the moment of the last change, for
every seat that may act. The seat that moves is charged; in a window where
several seats answer (a doubt window) each answer is measured from the last
change. A disconnected human's seat gets a grace period, after which the
timeout rule plays for it. Nothing here sleeps: `match.wake_at` tells the
wakeup machinery when to come back (see scheduling.py and wakeups.py).
"""

from datetime import datetime, timedelta

from django.conf import settings

from games.matches.models import MatchAction


def disconnect_grace() -> timedelta:
    return timedelta(seconds=settings.MATCH_DISCONNECT_GRACE_SECONDS)


def deadline(match, seat, state) -> datetime | None:
    """When this seat, if it is to act, times out; None when it never does: at its clock's
    limit or, away, at the end of its grace to come back, whichever is first.

    A game's answer window (I Doubt It's doubt window) ends whatever the clock says.
    Real-time games (Dobble) have no turns and no clock: a player who stops claiming
    simply gains nothing. Only absence ends their seat: a seat that has had no connection
    for the grace period (counted from the start for one that never came) is forfeited,
    and a house bot plays on for it, so a table of absent players still finishes.
    """
    limits = [limit for limit in (clock_deadline(match, seat, state), away_deadline(match, seat)) if limit]
    return min(limits) if limits else None


def on_the_clock(match, seat) -> bool:
    """A person's seat (or an HTTP bot's) in a started match; house bots and uploaded code are
    woken by their own schedule."""
    return match.turn_started_at is not None and not seat.house_bot and seat.code_version is None


def clock_deadline(match, seat, state) -> datetime | None:
    """When the seat's clock (or the game's answer window) runs out, present or not."""
    if not on_the_clock(match, seat) or match.engine.realtime:
        return None
    limits = [limit for limit in [window_deadline(match, state)] if limit]
    if match.clock == match.Clock.PER_TURN:
        limits.append(match.turn_started_at + timedelta(milliseconds=match.clock_initial_ms))
    elif match.clock == match.Clock.PER_GAME:
        limits.append(match.turn_started_at + timedelta(milliseconds=max(seat.clock_ms, 0)))
    return min(limits) if limits else None


def window_deadline(match, state) -> datetime | None:
    """When the game's answer window (I Doubt It's doubt window) closes; None while none is open."""
    window_ms = match.engine.answer_window_ms(state)
    if window_ms is None or match.turn_started_at is None:
        return None
    return (match.window_opened_at or match.turn_started_at) + timedelta(milliseconds=window_ms)


def away_deadline(match, seat) -> datetime | None:
    """When an away seat's grace to come back ends; None while it has a socket open."""
    if not on_the_clock(match, seat) or seat.connections:
        return None
    if match.engine.realtime:
        return (seat.disconnected_at or match.started_at) + disconnect_grace()
    if seat.disconnected_at is None:
        return None
    return max(match.turn_started_at, seat.disconnected_at) + disconnect_grace()


def leaves_at_timeout(match, seat, state) -> bool:
    """Is this seat's next timeout a forfeit? It is for a player away longer than the grace to come
    back by then, for whom the computer has already moved MATCH_AWAY_MOVES_BEFORE_FORFEIT times
    since they left: they have left the game, and the others must not wait out a grace a turn
    to its end (each game's rules, "A player who leaves"). Bot accounts are left to the clock (docs/tournaments.md);
    real-time games have a forfeit of their own."""
    timeout = deadline(match, seat, state)
    if timeout is None or match.engine.realtime or away_deadline(match, seat) is None or seat.user.is_bot:
        return False
    if timeout < seat.disconnected_at + disconnect_grace():
        return False
    needed = settings.MATCH_AWAY_MOVES_BEFORE_FORFEIT
    since = match.actions.filter(seat=seat.number, created_at__gte=seat.disconnected_at)
    sources = list(since.values_list("source", flat=True)[: needed + 1])
    return len(sources) >= needed and all(source == MatchAction.Source.TIMEOUT for source in sources)


def count_timeout(seat, source: str, own_turn: bool) -> bool:
    """Keep the seat's run of moves made by the clock (True when it changed, to be saved): one
    more for a timeout on its own turn (the only seat to act), back to 0 for a move of its own.
    A timeout while several seats answer at once (I Doubt It's doubt window, where staying silent
    is a fair answer) and a stand-in house bot's moves neither count nor end the run."""
    if source == MatchAction.Source.TIMEOUT and own_turn:
        seat.timeouts_in_a_row += 1
        return True
    if source != MatchAction.Source.TIMEOUT and source != MatchAction.Source.HOUSE and seat.timeouts_in_a_row:
        seat.timeouts_in_a_row = 0
        return True
    return False


def idles_out(match, seat, state) -> bool:
    """Is this seat's next timeout a forfeit because its player, connected, has let the clock
    move for them MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT - 1 times in a row already? A tab left open
    must not win a game on the clock's moves. Only on the seat's own turn (count_timeout), never
    in a real-time game (it has no clock). A player whose connection dropped has the grace to
    come back instead (leaves_at_timeout)."""
    return (
        on_the_clock(match, seat)
        and seat.connections > 0
        and not match.engine.realtime
        and match.engine.to_act(state) == [seat.number]
        and seat.timeouts_in_a_row + 1 >= settings.MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT
    )


def stop(match, seats, to_act: list[int], now: datetime) -> None:
    """The match ended during these seats' turn (a resignation, a forfeit): their banks keep the
    time they had left at the end, not the time at the turn's start (the caller saves them)."""
    for seat in seats:
        if seat.number in to_act and charge(match, seat, now):
            seat.clock_ms = max(0, seat.clock_ms - match.clock_increment_ms)


def charge(match, seat, now: datetime) -> bool:
    """Take the thinking time from the seat that just moved and add the increment; True when
    the seat's bank changed (and needs saving)."""
    if match.clock != match.Clock.PER_GAME or match.turn_started_at is None:
        return False
    spent = int((now - match.turn_started_at).total_seconds() * 1000)
    seat.clock_ms = seat.clock_ms - spent + match.clock_increment_ms
    return True


def bank(match, seat) -> int:
    """A seat's per-game bank; the whole starting time at a table still waiting to start."""
    return match.clock_initial_ms if match.status == match.Status.OPEN else seat.clock_ms


def snapshot(match, state, seats, to_act: list[int], now: datetime) -> dict:
    """What the clients draw: each bank and, for seats to act, the milliseconds left on their
    clock and, while away, of their grace to come back (two figures, so that a player's clock
    keeps showing their own time while they are away), and which of them leave the game at that
    timeout instead of having the computer move for them (away, or idle: idles_out); and the time
    left of the game's answer window, which the table shows beside the question, not as anyone's
    clock."""
    left, away, leaving = {}, {}, []
    window = window_deadline(match, state) if match.status == match.Status.RUNNING else None
    for seat in seats:
        if seat.number in to_act:
            for limits, limit in ((left, clock_deadline(match, seat, state)), (away, away_deadline(match, seat))):
                if limit is not None:
                    limits[str(seat.number)] = max(0, int((limit - now).total_seconds() * 1000))
            if str(seat.number) in away and leaves_at_timeout(match, seat, state):
                leaving.append(seat.number)
            elif str(seat.number) in left and idles_out(match, seat, state):
                leaving.append(seat.number)
    return {
        "mode": match.clock,
        "initial_ms": match.clock_initial_ms,
        "increment_ms": match.clock_increment_ms,
        "bank_ms": {str(s.number): bank(match, s) for s in seats} if match.clock == match.Clock.PER_GAME else {},
        "ms_left": left,
        "away_ms_left": away,
        "leaving": leaving,
        "window_ms_left": None if window is None else max(0, int((window - now).total_seconds() * 1000)),
        "server_time": now.isoformat(),
    }
