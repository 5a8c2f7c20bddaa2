"""Celery tasks that run tournaments; each is safe to run twice (see running.py)."""

from celery import shared_task

from tournaments import running, series
from tournaments.formats import arena, dobble_series


@shared_task(ignore_result=True)
def tournament_tick() -> None:
    """Beat: start tournaments whose time has come, seat waiting arena players (and end arenas
    whose time is up), settle Dobble choices nobody made, forfeit players who never came, score
    tables whose match ended unheard."""
    running.start_due()
    arena.tick()
    dobble_series.choose_overdue()
    running.forfeit_no_shows()
    running.score_stalled()


@shared_task(ignore_result=True)
def create_series_events() -> int:
    """Beat: each recurring series' events of the coming hour, day or week (series.py)."""
    return series.create_due()


@shared_task(ignore_result=True)
def arena_wave(tournament_id: int) -> None:
    """Seat an arena's waiting players now (someone joined or came back)."""
    arena.seat_now(tournament_id)
