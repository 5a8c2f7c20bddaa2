from django.conf import settings
from django.db import models

from games.matches.models import GAME_CHOICES


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Open for entries"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    class Format(models.TextChoices):
        SWISS = "swiss", "Swiss rounds"
        ROUND_ROBIN = "round-robin", "Round robin"
        DOBBLE_SERIES = "dobble-series", "Dobble series (loser picks the next mini-game)"
        ROUNDS_TOTAL = "rounds-total", "Lowest total over the rounds (Dudab Buba)"

    name = models.CharField(max_length=120)
    game = models.CharField(max_length=16, choices=GAME_CHOICES)
    format = models.CharField(max_length=16, choices=Format.choices, default=Format.SWISS)
    table_size = models.PositiveSmallIntegerField(default=2)
    rounds = models.PositiveSmallIntegerField(default=3)
    max_entries = models.PositiveIntegerField(default=32)
    options = models.JSONField(default=dict, blank=True)
    description = models.TextField(blank=True)
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="organized_tournaments"
    )
    starts_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [models.UniqueConstraint(fields=["name", "game"], name="tournament_name_unique_per_game")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.SCHEDULED


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]
