from celery import shared_task

from games.lobby.matchmaking import matchmake
from games.lobby.models import QueueEntry


@shared_task(ignore_result=True)
def matchmake_all() -> int:
    """Beat: widen windows as time passes and seat whoever now fits together."""
    pools = QueueEntry.objects.values_list("game", "players", "time_control").distinct()
    return sum(len(matchmake(game, players, time_control=clock)) for game, players, clock in pools)
