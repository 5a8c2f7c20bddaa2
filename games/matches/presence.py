"""Who is connected to which seat, and what a (re)connecting client is sent.

Each open socket of a seated player is a SeatSocket row and `Seat.connections` is their
count, which the clocks read (a seat with no socket gets the disconnect grace). Every
HEARTBEAT_SECONDS each web process refreshes the rows of all its live sockets in one UPDATE
(`beat`); rows of sockets that died with their web process stop being refreshed, and
`count_out_dead_sockets` (the beat task `forget_dead_sockets`) counts them out.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.engine import GAMES
from games.matches import broadcast, lifecycle, rows, scheduling, socket_auth
from games.matches.errors import MatchError
from games.matches.models import Match, Seat, SeatSocket

# Channel names per statement in `beat` (SQLite's limit on a statement's parameters).
BEAT_CHUNK = 900


def heartbeat_seconds() -> float:
    return settings.MATCH_SOCKET_HEARTBEAT_SECONDS


def dead_after() -> timedelta:
    """Three missed heartbeats: a live socket on a busy process is late, not gone."""
    return timedelta(seconds=3 * heartbeat_seconds())


def seat_and_pace(match_id: int, user_id: int | None) -> tuple[int | None | bool, bool]:
    """The user's seat (None for anyone else, False when the match does not exist) and whether
    the match is real-time, in one statement, nothing locked: a visitor's socket opening."""
    found = rows.game_and_seat(match_id, user_id)
    if found is None:
        return False, False
    game, number = found
    return number, GAMES[game].realtime


def opened(match_id: int, user_id: int, token: str | None, channel_name: str, scope) -> tuple:
    """A signed-in socket's opening, once it has joined the groups that close it when its
    sign-in ends and its player's: (seat, real-time, sign-in still good, whole state), as
    consumers.arrive's. One locking read says the seat, the pace and, for a token, whether it
    still names the account (socket_auth.still_signed_in); a seated player's socket is then
    counted and sent the whole state read after the count, in the same transaction."""
    with transaction.atomic(savepoint=False):  # never refused: in a write group, no savepoint (writes.py)
        try:
            match, seats = rows.lock_with_seats(match_id, (token, user_id) if token is not None else None)
        except MatchError:  # no such match: nothing read, nothing to undo
            return False, False, True, None
        signed_in = match.token_names if token is not None else socket_auth.still_signed_in(scope)
        seat = next((each for each in seats if each.user_id == user_id), None)
        realtime = GAMES[match.game].realtime
        if seat is None or not signed_in:
            return None if seat is None else seat.number, realtime, signed_in, None
        state, clock_moved = counted_in(match, seats, seat, channel_name)
        return seat.number, realtime, True, whole_message(match, seats, seat.number, state, clock_moved)


def counted_in(match: Match, seats: list[Seat], seat: Seat, channel_name: str) -> tuple[object, bool]:
    """The opened socket noted and its seat's count written in one statement, with the match's
    wake-up when the seat had nobody (match locked and loaded with its seats); the match's
    position and whether the clock moved in it. The table hears of it only when the seat had
    nobody: a seat's second socket changes nothing the others see. The opened socket is sent
    the whole state, so the push skips its seat."""
    state = match.load_state() if match.dealt else None
    came_back = seat.connections == 0
    seat.connections, seat.disconnected_at = max(seat.connections, 1), None  # the count is one or more
    running, planned = match.status == Match.Status.RUNNING, match.wake_at
    if running and came_back:
        scheduling.plan_next(match, state, seats)
    # Written only when it moved: a seat with no clock and no grace running wakes nobody, and
    # rewriting the match's row for nothing made a new version of it at every opening.
    woken = [rows.updated(match, ("wake_at",))] if running and came_back and match.wake_at != planned else []
    seat.connections, clock_moved = rows.note_opening(seat.pk, channel_name, timezone.now(), match.pk, *woken)
    if came_back:
        announce(match, state, seats, seat.number)
    return state, clock_moved


def connected(match_id: int, number: int, channel_name: str, is_connected: bool) -> tuple[Match, list[Seat]]:
    """A socket of this seat opened or closed (either may be reported twice: no harm); the
    match and its seats as counted.

    A handful of round trips, as a move's: it runs on the same database thread as the process's
    moves, and every move asked for meanwhile waits for it (docs/performance.md)."""
    now = timezone.now()
    with transaction.atomic():
        match, seats = rows.lock_with_seats(match_id)
        seat = seat_numbered(seats, number)
        count = rows.note_socket(seat.pk, channel_name, now if is_connected else None)
        recount(match, seats, seat, now, count)
    return match, seats


def seat_numbered(seats: list[Seat], number: int) -> Seat:
    for seat in seats:
        if seat.number == number:
            return seat
    raise Seat.DoesNotExist(f"no seat {number}")


def beat(sockets: dict[str, tuple[int, int]], is_open: Callable[[str], bool]) -> dict[int, int]:
    """These sockets ({channel name: (match id, seat number)}) are alive: one UPDATE for all
    of them. Any taken for dead meanwhile count again, unless they have closed since. Returns
    each of their matches' seq, which the process checks its sockets have heard (consumers.py)."""
    names = list(sockets)
    now = timezone.now()
    refreshed = 0
    for start in range(0, len(names), BEAT_CHUNK):
        refreshed += SeatSocket.objects.filter(channel_name__in=names[start : start + BEAT_CHUNK]).update(last_seen=now)
    if refreshed != len(names):
        count_again(sockets, is_open)
    match_ids = sorted({match_id for match_id, _ in sockets.values()})
    seqs = {}
    for start in range(0, len(match_ids), BEAT_CHUNK):
        seqs.update(Match.objects.filter(pk__in=match_ids[start : start + BEAT_CHUNK]).values_list("pk", "seq"))
    return seqs


def count_again(sockets: dict[str, tuple[int, int]], is_open: Callable[[str], bool]) -> None:
    """Count again the sockets that were taken for dead (their rows are gone) and are still open."""
    names = list(sockets)
    known = set()
    for start in range(0, len(names), BEAT_CHUNK):
        stored = SeatSocket.objects.filter(channel_name__in=names[start : start + BEAT_CHUNK])
        known.update(stored.values_list("channel_name", flat=True))
    for name in names:
        if name not in known and is_open(name):
            connected(*sockets[name], name, True)


def count_out_dead_sockets(now: datetime | None = None) -> int:
    """Count out the sockets whose heartbeat stopped (their web process crashed); how many."""
    now = now or timezone.now()
    dead = SeatSocket.objects.filter(last_seen__lt=now - dead_after())
    seats = dead.values("seat__match_id", "seat__number").annotate(last_seen=Max("last_seen"))
    forgotten = 0
    for row in list(seats):
        with transaction.atomic():
            match, seats = rows.lock_with_seats(row["seat__match_id"])
            seat = seat_numbered(seats, row["seat__number"])
            forgotten += seat.sockets.filter(last_seen__lt=now - dead_after()).delete()[0]
            recount(match, seats, seat, row["last_seen"])
    return forgotten


def recount(match: Match, seats: list[Seat], seat: Seat, changed_at: datetime, count: int | None = None) -> None:
    """Store the seat's socket count (`count`, or counted now); the last one gone starts the
    grace (match locked and loaded with its seats, `seat` among them)."""
    count = seat.sockets.count() if count is None else count
    if count == seat.connections:
        return
    seat.disconnected_at = changed_at if count == 0 else None
    seat.connections = count
    running = match.status == Match.Status.RUNNING
    state = match.load_state() if running else None
    if running:
        scheduling.plan_next(match, state, seats)
    counted = rows.updated(seat, ("connections", "disconnected_at"))
    rows.execute_all(counted, *([rows.updated(match, ("wake_at",))] if running else []))  # one round trip
    announce(match, state, seats)


def announce(match: Match, state, seats: list[Seat], opened: int | None = None) -> None:
    """On commit, who is at the table to everyone at it (`opened`: as broadcast.send_state's): at
    a table still open its whole state, which the lobby hears of too (it lists who sits where); at
    one that started only who is there (a finished table's two sockets closing sent two whole
    states and two lobby pushes), and in a running match the wake-up its clocks now need."""
    if match.status == Match.Status.OPEN:
        transaction.on_commit(lambda: broadcast.send_table_state(match, seats, opened))
    else:
        transaction.on_commit(lambda: seats_changed(match, state, seats, opened))


def seats_changed(match: Match, state, seats: list[Seat], opened: int | None) -> None:
    """After commit: the table hears who is at it; a wake-up comes near if a grace started."""
    broadcast.send_seats(match, state, seats, opened)
    scheduling.queue_wakeups([match])


def forfeit_if_never_came(match_id: int, number: int, now: datetime | None = None) -> bool:
    """The seat forfeits (a house bot plays on) if its player still has not come; False when they
    have meanwhile, or the match is over: the caller's list of absentees may be out of date."""
    now = now or timezone.now()
    with transaction.atomic():
        match = lifecycle.locked(match_id)
        seat = match.seats.select_related("user").get(number=number)
        if match.status != Match.Status.RUNNING or not match.absent_seats([seat]):
            return False
        lifecycle.forfeit(match, seat, now)
        return True


def current_message(match_id: int, seat: int | None) -> dict:
    match = Match.objects.get(pk=match_id)
    state = match.load_state() if match.dealt else None
    clock_moved = bool(match.seq) and rows.clock_moved(match.pk)
    return whole_message(match, list(match.seats.select_related("user")), seat, state, clock_moved)


def whole_message(match: Match, seats: list[Seat], seat: int | None, state, clock_moved: bool) -> dict:
    """What a (re)connecting client is sent: the whole state (`state`: the match's position),
    every clock move marked (`clock_moved`: rows.clock_moved's answer)."""
    match.clock_moves = match.clock_moves_in_history() if match.seq and clock_moved else []
    message = broadcast.match_message(match, state, seats, seat) | broadcast.rematch_facts(match)
    match.clock_moves = []  # as a push about this socket (no move made) marks, should one follow
    return message
