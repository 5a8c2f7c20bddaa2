"""What the lobby shows: open tables, queue sizes, matches in play, players online."""

from django.db import transaction
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


def sockets_alive(sockets: dict, is_open) -> None:
    """These lobby sockets of one web process are alive: one UPDATE for all of them, and a row
    for any that was swept meanwhile (its process could not beat for minutes)."""
    names = [name for name in sockets if is_open(name)]
    now = timezone.now()
    refreshed = 0
    for start in range(0, len(names), presence.BEAT_CHUNK):
        chunk = names[start : start + presence.BEAT_CHUNK]
        refreshed += LobbySocket.objects.filter(channel_name__in=chunk).update(last_seen=now)
    if refreshed < len(names):
        rows = [LobbySocket(channel_name=name, last_seen=now) for name in names]
        LobbySocket.objects.bulk_create(rows, ignore_conflicts=True)


@transaction.atomic  # a write group's call opens its own transaction (games/matches/writes.py)
def socket_alive(channel_name: str, is_open: bool = True) -> None:
    """A lobby socket opened or beat (is_open) or closed; rows long dead are swept meanwhile."""
    now = timezone.now()
    if is_open:
        LobbySocket.objects.update_or_create(channel_name=channel_name, defaults={"last_seen": now})
    else:
        LobbySocket.objects.filter(channel_name=channel_name).delete()
    LobbySocket.objects.filter(last_seen__lt=now - 10 * presence.dead_after()).delete()
