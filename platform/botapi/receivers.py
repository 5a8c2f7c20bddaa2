"""What bots hear of the match service's events (apps.py connects them)."""

from botapi import players, tasks
from games.matches import asking
from games.matches.models import Seat


def tell_webhooks_the_end(sender, match_id: int, **kwargs) -> None:
    """Hand the `end` notice of every bot seat of the match to the bot threads: whatever finished
    the match (the ticker, a worker, a person's move) does not wait for the endpoints."""
    bot_seats = Seat.objects.filter(match_id=match_id, code_version__isnull=False).select_related("user")
    for seat in bot_seats:
        asking.hand_off(tasks.tell_the_end, players.owner_party(seat.user), players.announce_end, match_id, seat.number)
