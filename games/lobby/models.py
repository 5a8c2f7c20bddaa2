from django.conf import settings
from django.db import models

from games.engine import GAMES
from games.matches.models import game_choices
from games.matches.time_controls import PRESETS


def terms(game: str, time_control: str) -> str:
    """A preset of the queue or a challenge in words: "ranked, 3+2", "casual, no clock"; a
    real-time game (Dobble) has no clock to name, only ranked or casual."""
    preset = PRESETS[time_control]
    kind = "ranked" if preset.ranked else "casual"
    return kind if GAMES[game].realtime else f"{kind}, {preset.label}"


class QueueEntry(models.Model):
    """A player waiting for a ranked match of one game and table size."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entries")
    game = models.CharField(max_length=16, choices=game_choices)
    players = models.PositiveSmallIntegerField()
    time_control = models.CharField(
        max_length=8, default="3+2", help_text="A key of time_controls.PRESETS; only equal ones are paired."
    )
    rating = models.FloatField(help_text="The player's rating when they joined, for pairing.")
    joined_at = models.DateTimeField()
    meet_bots = models.BooleanField(default=False, help_text="A person who chose to be paired with bots too.")

    class Meta:
        ordering = ["joined_at"]
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_queue_per_game")]
        indexes = [models.Index(fields=["game", "players", "joined_at"])]

    @property
    def terms(self) -> str:
        return terms(self.game, self.time_control)


class QueuePairing(models.Model):
    """A match the queue seated a player in. A lobby page that connects after the `match_found`
    went out (it was still loading) sends them there; no other match of theirs is jumped to."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    paired_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["user", "paired_at"])]


class Rematch(models.Model):
    """The players of a finished match who asked to play it again; it starts once every person has."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="rematch")
    accepted_by = models.JSONField(default=list, help_text="User ids of the people who asked or agreed.")
    new_match = models.ForeignKey(
        "matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="rematch_of"
    )

    def asked_by(self) -> list[str]:
        """The names of those who asked, in seat order: what the finished table shows, live and on reload."""
        seats = sorted(self.match.seats.all(), key=lambda seat: seat.number)
        return [seat.user.username for seat in seats if seat.user_id in self.accepted_by]


class Challenge(models.Model):
    """One player invites another, by name, to a game; the match starts when it is accepted."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        CANCELLED = "cancelled", "Cancelled"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges_sent")
    challenged = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="challenges")
    game = models.CharField(max_length=16, choices=game_choices)
    time_control = models.CharField(max_length=8, default="none")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
        indexes = [models.Index(fields=["challenged", "status"])]

    @property
    def terms(self) -> str:
        return terms(self.game, self.time_control)


class LobbySocket(models.Model):
    """One open lobby socket; "players online" counts those whose heartbeat is recent, so the
    sockets of a crashed web process drop out of the count by themselves."""

    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(db_index=True)
