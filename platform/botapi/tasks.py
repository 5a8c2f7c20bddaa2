"""Celery tasks of the bots app; each is safe to run twice."""

from celery import shared_task

from botapi import ladder, players
from games.matches import asking


@shared_task(ignore_result=True)
def ladder_tick() -> int:
    """Beat: start the ladder's bot matches that can be formed now."""
    return len(ladder.run_ladder())


@shared_task(ignore_result=True)
def tell_the_end(match_id: int, number: int, party: str = "") -> None:
    """Bot queue: a bot seat's `end` notice, on this worker's bot threads in its owner's turn."""
    asking.run_fairly(party, players.announce_end, match_id, number)
