"""What the lobby shows: open tables, queue sizes, matches in play, players online."""

from django.db.models import Count
from django.utils import timezone

from games.lobby.models import LobbySocket, QueueEntry
from games.matches import presence
from games.matches.models import Match


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
        "online": count_online(),
    }


def count_online() -> int:
    """Lobby sockets across every web process whose heartbeat is recent (like seat presence)."""
    return LobbySocket.objects.filter(last_seen__gte=timezone.now() - presence.dead_after()).count()


def socket_alive(channel_name: str, is_open: bool = True) -> None:
    """A lobby socket opened or beat (is_open) or closed; rows long dead are swept meanwhile."""
    now = timezone.now()
    if is_open:
        LobbySocket.objects.update_or_create(channel_name=channel_name, defaults={"last_seen": now})
    else:
        LobbySocket.objects.filter(channel_name=channel_name).delete()
    LobbySocket.objects.filter(last_seen__lt=now - 10 * presence.dead_after()).delete()
