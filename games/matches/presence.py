"""Who is connected to which seat, and what a (re)connecting client is sent.

Each open socket of a seated player is a SeatSocket row and `Seat.connections` is their
count, which the clocks read (a seat with no socket gets the disconnect grace). Every
HEARTBEAT_SECONDS each web process refreshes the rows of all its live sockets in one UPDATE
(`beat`); rows of sockets that died with their web process stop being refreshed, and
`forget_dead_sockets` counts them out.
"""

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from games.matches import broadcast, lifecycle, rows, scheduling
from games.matches.models import Match, Seat, SeatSocket

# Channel names per statement in `beat` (SQLite's limit on a statement's parameters).
BEAT_CHUNK = 900


def heartbeat_seconds() -> float:
    return settings.MATCH_SOCKET_HEARTBEAT_SECONDS


def dead_after() -> timedelta:
    """Three missed heartbeats: a live socket on a busy process is late, not gone."""
    return timedelta(seconds=3 * heartbeat_seconds())


def seat_number(match_id: int, user) -> int | None | bool:
    """The user's seat, None for a spectator, False when the match does not exist."""
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        return False
    seat = match.seat_of(user)
    return None if seat is None else seat.number


def connected(match_id: int, number: int, channel_name: str, is_connected: bool) -> None:
    """A socket of this seat opened or closed (either may be reported twice: no harm).

    A handful of statements, as a move's: it runs on the same database thread as the process's
    moves, and every move asked for meanwhile waits for it (docs/performance.md)."""
    now = timezone.now()
    with transaction.atomic():
        match, seats = rows.lock_with_seats(match_id)
        seat = seat_numbered(seats, number)
        if is_connected:
            SeatSocket.objects.bulk_create(
                [SeatSocket(seat=seat, channel_name=channel_name, last_seen=now)],
                update_conflicts=True, unique_fields=["channel_name"], update_fields=["seat", "last_seen"],
            )  # fmt: skip
        else:
            SeatSocket.objects.filter(channel_name=channel_name).delete()
        recount(match, seats, seat, now)


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


def forget_dead_sockets(now: datetime | None = None) -> int:
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


def recount(match: Match, seats: list[Seat], seat: Seat, changed_at: datetime) -> None:
    """Store the seat's socket count; the last one gone starts the grace (match locked and
    loaded with its seats, `seat` among them)."""
    count = seat.sockets.count()
    if count == seat.connections:
        return
    seat.disconnected_at = changed_at if count == 0 else None
    seat.connections = count
    seat.save(update_fields=["connections", "disconnected_at"])
    if match.status == Match.Status.RUNNING:
        state = match.load_state()
        scheduling.plan_next(match, state, seats)
        match.save(update_fields=["wake_at"])
        transaction.on_commit(lambda: lifecycle.after_change(match, state, seats))
    else:
        transaction.on_commit(lambda: broadcast.send_table_state(match, seats))


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
    match.clock_moves = match.clock_moves_in_history()
    return broadcast.match_message(match, state, list(match.seats.select_related("user")), seat)
