"""Celery tasks around matches; each is safe to run twice.

The top of games/matches: the tasks play moves through the match service (wakeups.py), so the
modules below that queue them (scheduling.py, wakeups.py) name them rather than import them.
"""

import logging
from datetime import datetime, timedelta

from celery import shared_task
from django.utils import timezone

from games.matches import asking, presence, scheduling, signals, wakeups
from games.matches.models import Match

logger = logging.getLogger(__name__)

# A finished match whose scoring task has not run after this long was lost on the way
# (a broker flushed by a restart, a worker killed before it acknowledged): score it again.
SETTLE_GRACE = timedelta(seconds=30)


@shared_task(ignore_result=True)
def wake_match(match_id: int) -> int:
    """Play whatever is due in one match (ETA set to its wake-up time)."""
    return wakeups.wake_all_due(match_id)


@shared_task(ignore_result=True)
def sweep_matches() -> int:
    """Beat: wake matches whose ETA task was lost (worker restart, broker flush), and queue the
    wake-ups that have come within reach (scheduling.queue_coming)."""
    scheduling.queue_coming()
    return wakeups.sweep()


@shared_task(ignore_result=True)
def ask_seat(match_id: int, seq: int, number: int, party: str = "") -> None:
    """Bot queue: ask a bot seat for its move (wakeups.ask_and_play) on this worker's bot threads,
    in its owner's (`party`) turn; a question lost with the worker is asked again by the sweep."""
    asking.run_fairly(party, wakeups.ask_and_play, match_id, seq, number)


@shared_task(ignore_result=True)
def settle_match(match_id: int) -> None:
    """Hand a finished match to the apps that score it (queued by scheduling.queue_settling).
    `settle` sends `signals.match_finished`, whose receivers run here, inside this task; each app
    connects its own in its apps.py: ratings `rate_finished_match` and `count_bluffs`
    (ratings/receivers.py), tournaments `score_tournament_table` (tournaments/running.py: the
    format's `seat_points`, e.g. a Dobble series' points), fairplay `review_finished_match` and
    botapi `tell_webhooks_the_end` (each queues a task of its own)."""
    settle(match_id)


@shared_task(ignore_result=True)
def settle_forgotten_matches() -> int:
    """Beat: score finished matches whose `settle_match` task never ran."""
    return settle_forgotten()


@shared_task(ignore_result=True)
def forget_dead_sockets() -> int:
    """Beat: count out the sockets of web processes that crashed (presence.py)."""
    return presence.count_out_dead_sockets()


def settle(match_id: int) -> None:
    """Announce the finished match to the apps that score it (ratings, tournaments: each
    idempotent), then mark it settled."""
    signals.match_finished.send(sender=Match, match_id=match_id)
    Match.objects.filter(pk=match_id, settled_at__isnull=True).update(settled_at=timezone.now())


def settle_forgotten(now: datetime | None = None) -> int:
    cutoff = (now or timezone.now()) - SETTLE_GRACE
    forgotten = Match.objects.filter(status=Match.Status.FINISHED, settled_at__isnull=True, finished_at__lte=cutoff)
    ids = list(forgotten.values_list("pk", flat=True))
    for match_id in ids:
        try:
            settle(match_id)
        except Exception:  # one match that cannot be settled must not keep the others waiting
            logger.exception("settling match %s failed; it stays unsettled and is tried again", match_id)
    return len(ids)
