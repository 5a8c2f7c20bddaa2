"""Celery tasks that run tournaments; each is safe to run twice (see running.py)."""

from celery import shared_task

from tournaments import running, series
from tournaments.formats import arena, registry


@shared_task(ignore_result=True)
def tournament_tick() -> None:
    """Beat: start tournaments whose time has come, let each format settle what it waits for
    (Dobble choices nobody made; an arena's waiting players, and its end), forfeit players who
    never came, score tables whose match ended unheard."""
    running.start_due()
    for found in registry.FORMATS.values():
        found.tick()
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
