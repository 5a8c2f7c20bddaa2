"""Who is connected to which seat, and what a (re)connecting client is sent."""

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.matches import broadcast, lifecycle, wakeups
from games.matches.models import Match, Seat


def seat_number(match_id: int, user) -> int | None | bool:
    """The user's seat, None for a spectator, False when the match does not exist."""
    try:
        match = Match.objects.get(pk=match_id)
    except Match.DoesNotExist:
        return False
    seat = match.seat_of(user)
    return None if seat is None else seat.number


def connected(match_id: int, seat: int, is_connected: bool) -> None:
    """Count connections per seat; the last one closing starts the disconnect grace."""
    now = timezone.now()
    with transaction.atomic():
        match = lifecycle.locked(match_id)
        if is_connected:
            Seat.objects.filter(match=match, number=seat).update(connections=F("connections") + 1, disconnected_at=None)
        else:
            Seat.objects.filter(match=match, number=seat, connections__gt=0).update(connections=F("connections") - 1)
            Seat.objects.filter(match=match, number=seat, connections=0).update(disconnected_at=now)
        if match.status == Match.Status.RUNNING:
            state = match.load_state()
            seats = list(match.seats.select_related("user"))
            wakeups.plan_next(match, state, seats)
            match.save(update_fields=["wake_at"])
            transaction.on_commit(lambda: lifecycle.after_change(match, state, seats))
        else:
            transaction.on_commit(lambda: broadcast.send_table_update(match.pk))


def current_message(match_id: int, seat: int | None) -> dict:
    match = Match.objects.get(pk=match_id)
    state = match.load_state() if match.state is not None else None
    return broadcast.match_message(match, state, list(match.seats.select_related("user")), seat)
