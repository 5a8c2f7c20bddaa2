"""The Celery task that reads a finished match for fair play, off the move path (docs/fair-play.md)."""

from celery import shared_task

from fairplay.judge import judge_match
from fairplay.records import read_match
from games.matches.models import Match


@shared_task(ignore_result=True)
def review_match(match_id: int) -> int:
    """Store what the match says of its players and judge them; how many flags it raised. Safe twice."""
    match = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED).first()
    if match is None:
        return 0
    return len(judge_match(match, read_match(match)))
