"""How ratings hear of finished matches: the match service's `match_finished` event (apps.py connects it)."""

from games.matches import broadcast
from ratings.bluffs import record_bluffs
from ratings.models import RatingChange
from ratings.services import rate_match, why_not_rated


def rate_finished_match(sender, match_id: int, **kwargs) -> None:
    """Rate it (once, however often it is announced) and tell the table what changed."""
    changes = rate_match(match_id)
    if changes:
        broadcast.send_to_table(match_id, {"type": "rated", "match": match_id, "changes": described(changes)})


def count_bluffs(sender, match_id: int, **kwargs) -> None:
    """Store the finished match's bluff and doubt figures (once, however often it is announced)."""
    record_bluffs(match_id)


def rating_report(match) -> dict:
    """What a finished ranked match's table says of ratings: each seat's change once it is
    rated, or why it is not rated (in words); neither while it is being rated."""
    changes = rating_changes(match.pk)
    return {"rating_changes": changes, "not_rated": None if changes else why_not_rated(match)}


def rating_changes(match_id: int) -> list[dict]:
    """What a ranked result did to each seat's rating (empty until it is rated)."""
    return described(RatingChange.objects.filter(match_id=match_id))


def described(changes) -> list[dict]:
    """Rating changes as the table shows them, in seat order."""
    return [
        {
            "seat": c.seat,
            "before": round(c.before),
            "after": round(c.after),
            "delta": c.shown_delta,
            "provisional": c.provisional_after,
        }
        for c in sorted(changes, key=lambda change: change.seat)
    ]
