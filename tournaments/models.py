from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games.engine import get_game
from games.matches.models import GAME_CHOICES
from games.matches.time_controls import clock_label


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Open for entries"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
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
    turn_seconds = models.PositiveIntegerField(
        default=60, help_text="Per-turn clock of every match (0: no clock). Dobble is real-time and has none."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at"]
        constraints = [models.UniqueConstraint(fields=["name", "game"], name="tournament_name_unique_per_game")]

    def __str__(self) -> str:
        return self.name

    @property
    def clock_label(self) -> str:
        """Every match's clock as players read it ("1 minute per move", "no clock")."""
        if self.turn_seconds == 0 or get_game(self.game).realtime:
            return "no clock"
        return clock_label("turn", self.turn_seconds * 1000, 0)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.SCHEDULED

    def clean(self) -> None:
        """Formats that only make sense for some games or table sizes (the admin shows these)."""
        game = get_game(self.game)
        errors = {}
        if not max(2, game.min_players) <= self.table_size <= game.max_players:
            errors["table_size"] = f"{game.name} is played at {max(2, game.min_players)} to {game.max_players} seats."
        if self.format == self.Format.DOBBLE_SERIES and self.game != "dobble":
            errors["format"] = "A Dobble series is for Dobble."
        if self.format == self.Format.ROUNDS_TOTAL and self.game != "dudab":
            errors["format"] = "Lowest total over the rounds is Dudab Buba's format."
        if self.format == self.Format.ROUND_ROBIN and self.table_size != 2:
            errors["format"] = "A round robin is played at two seats."
        if errors:
            raise ValidationError(errors)

    @property
    def fixed_tables(self) -> bool:
        """Series formats keep each table together for every round; Swiss and round robin reseat."""
        return self.format in (self.Format.DOBBLE_SERIES, self.Format.ROUNDS_TOTAL)

    @property
    def lowest_wins(self) -> bool:
        return self.format == self.Format.ROUNDS_TOTAL


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    house_bot = models.CharField(max_length=20, blank=True, help_text="Set when a house bot plays this entry.")
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at"]
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]


class Table(models.Model):
    """One table of one round. In a Dobble series the next mini-game waits for its chooser
    (the last mini-game's loser): the table exists, its match does not yet."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    round = models.PositiveSmallIntegerField()
    number = models.PositiveSmallIntegerField()
    seating = models.JSONField(help_text="Entry ids in seat order.")
    match = models.OneToOneField(
        "matches.Match", null=True, blank=True, on_delete=models.PROTECT, related_name="tournament_table"
    )
    mini_game = models.CharField(max_length=24, blank=True)
    chooser = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.CASCADE, related_name="+")
    choose_by = models.DateTimeField(null=True, blank=True)
    scored = models.BooleanField(default=False)

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "round", "number"], name="one_table_per_number_and_round")
        ]


class Score(models.Model):
    """What one entry earned in one round: unique, so a result counted twice counts once."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="scores")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="scores")
    round = models.PositiveSmallIntegerField()
    table = models.ForeignKey(Table, null=True, blank=True, on_delete=models.CASCADE, related_name="scores")
    points = models.FloatField()

    class Meta:
        ordering = ["round"]
        constraints = [models.UniqueConstraint(fields=["entry", "round"], name="one_score_per_entry_and_round")]
