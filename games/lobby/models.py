from django.conf import settings
from django.db import models

from games.matches.models import GAME_CHOICES


class QueueEntry(models.Model):
    """A player waiting for a ranked match of one game and table size."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    players = models.PositiveSmallIntegerField()
    rating = models.FloatField(help_text="The player's rating when they joined, for pairing.")
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["joined_at"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_queue_per_game")]
        indexes = [models.Index(fields=["game", "players", "joined_at"])]


class LobbySocket(models.Model):
    """One open lobby socket; "players online" counts those whose heartbeat is recent, so the
    sockets of a crashed web process drop out of the count by themselves."""

    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(db_index=True)
