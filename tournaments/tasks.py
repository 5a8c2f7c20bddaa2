"""Celery tasks that run tournaments; each is safe to run twice (see running.py)."""

from celery import shared_task

from tournaments import running
from tournaments.formats import registry


@shared_task(ignore_result=True)
def tournament_tick() -> None:
    """Beat: start tournaments whose time has come, let each format settle what it waits for
    (Dobble choices nobody made), forfeit players who never came, score tables whose match
    ended unheard."""
    running.start_due()
    for found in registry.FORMATS.values():
        found.tick()
    running.forfeit_no_shows()
    running.score_stalled()
