"""Celery tasks of the bots app; each is safe to run twice."""

from celery import shared_task

from botapi import ladder


@shared_task(ignore_result=True)
def ladder_tick() -> int:
    """Beat: start the ladder's bot matches that can be formed now."""
    return len(ladder.run_ladder())
