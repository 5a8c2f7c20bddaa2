from django.conf import settings
from django.db import models

from games.matches.models import GAME_CHOICES
from games.matches.time_controls import PRESETS


class QueueEntry(models.Model):
    """A player waiting for a ranked match of one game and table size."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries")
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    players = models.PositiveSmallIntegerField()
    time_control = models.CharField(
        max_length=8, default="3+2", help_text="A key of time_controls.PRESETS; only equal ones are paired."
    )
    rating = models.FloatField(help_text="The player's rating when they joined, for pairing.")
    joined_at = models.DateTimeField()

    class Meta:
        ordering = ["joined_at"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_queue_per_game")]
        indexes = [models.Index(fields=["game", "players", "joined_at"])]

    @property
    def time_control_label(self) -> str:
        return PRESETS[self.time_control].label
