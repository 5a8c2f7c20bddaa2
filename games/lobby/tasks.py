from celery import shared_task

from games.lobby.matchmaking import matchmake
from games.lobby.models import QueueEntry


@shared_task(ignore_result=True)
def matchmake_all() -> int:
    """Beat: widen windows as time passes and seat whoever now fits together."""
    pairs = QueueEntry.objects.values_list("game", "players").distinct()
    return sum(len(matchmake(game, players)) for game, players in pairs)
