"""What the lobby shows: open tables, queue sizes, matches in play, players online."""

from django.core.cache import cache
from django.db.models import Count

from games.lobby.models import QueueEntry
from games.matches.models import Match

ONLINE_KEY = "lobby-online"


def lobby_snapshot(game: str) -> dict:
    tables = (
        Match.objects.filter(game=game, status=Match.Status.OPEN)
        .prefetch_related("seats__user")
        .order_by("-created_at")[:50]
    )
    queues = QueueEntry.objects.filter(game=game).values("players").annotate(waiting=Count("pk"))
    return {
        "type": "lobby",
        "game": game,
        "tables": [
            {
                "id": table.pk,
                "players": table.players,
                "ranked": table.ranked,
                "options": table.options,
                "clock": table.clock,
                "clock_label": table.clock_label,
                "host": table.host.username if table.host else None,
                "seats": [
                    {"seat": s.number, "player": s.user.username, "bot": s.user.is_bot} for s in table.seats.all()
                ],
            }
            for table in tables
        ],
        "queues": {str(row["players"]): row["waiting"] for row in queues},
        "playing": Match.objects.filter(game=game, status=Match.Status.RUNNING).count(),
        "online": max(0, cache.get(ONLINE_KEY, 0)),
    }


def count_online(change: int) -> None:
    """Lobby connections across every web process (the cache is Redis on the real stack)."""
    cache.add(ONLINE_KEY, 0, None)
    cache.incr(ONLINE_KEY, change)
