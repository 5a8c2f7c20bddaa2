"""Celery tasks around matches; each is safe to run twice."""

from celery import shared_task

from games.matches import wakeups


@shared_task(ignore_result=True)
def wake_match(match_id: int) -> int:
    """Play whatever is due in one match (ETA set to its wake-up time)."""
    return wakeups.wake_all_due(match_id)


@shared_task(ignore_result=True)
def sweep_matches() -> int:
    """Beat: wake matches whose ETA task was lost (worker restart, broker flush)."""
    return wakeups.sweep()


@shared_task(ignore_result=True)
def match_finished(match_id: int) -> None:
    """Hand a finished match to the apps that score it; each one is idempotent."""
    from games.matches import broadcast
    from ratings.services import rate_match
    from tournaments.running import record_match

    if rate_match(match_id):
        broadcast.send_to_table(
            match_id, {"type": "rated", "match": match_id, "changes": broadcast.rating_changes(match_id)}
        )
    record_match(match_id)
