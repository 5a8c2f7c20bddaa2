"""Bots that programmers own: every version of what plays them, their ladder settings, their questions.

A version is uploaded code or a webhook endpoint: either way a match knows exactly what played it.
"""

from django.conf import settings
from django.db import models


class BotCode(models.Model):
    class Kind(models.TextChoices):
        UPLOADED = "uploaded", "Uploaded code"
        WEBHOOK = "webhook", "Webhook"

    bot = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="code_versions")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices, default=Kind.UPLOADED)
    source = models.TextField(blank=True)
    endpoint = models.URLField(max_length=500, blank=True, help_text="Webhook bots: where moves are POSTed.")
    sha256 = models.CharField(max_length=64, blank=True)
    game = models.CharField(max_length=16, blank=True, help_text="Uploaded code: the game whose opening tested it.")
    uploaded_at = models.DateTimeField(auto_now_add=True)
    moves = models.PositiveIntegerField(default=0, help_text="Moves it has answered in matches.")
    failures = models.PositiveIntegerField(default=0, help_text="Moves it failed (crash, timeout, illegal answer).")
    last_error = models.TextField(blank=True)
    last_error_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["bot", "version"], name="one_code_per_bot_version")]

    def __str__(self) -> str:
        return f"{self.bot.username} v{self.version}"


class BotProfile(models.Model):
    """What the owner chose for the ladder, and the strikes that suspend a bot failing again and again."""

    bot = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_profile")
    ladder = models.BooleanField(default=False, help_text="Plays rated ladder matches by itself.")
    ladder_game = models.CharField(max_length=16, blank=True, help_text="The game it plays on the ladder.")
    ladder_games_per_day = models.PositiveSmallIntegerField(default=20)
    open_to_challenges = models.BooleanField(
        default=False, help_text="Other owners' bots may start matches against it without asking."
    )
    strikes = models.PositiveSmallIntegerField(default=0, help_text="Failed moves in a row.")
    suspended_at = models.DateTimeField(null=True, blank=True)
    suspended_because = models.CharField(max_length=300, blank=True)


class MoveQuestion(models.Model):
    """A bot seat has been asked for its move at `seq`; until `deadline` nobody asks it again."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    seat = models.PositiveSmallIntegerField()
    seq = models.PositiveIntegerField()
    deadline = models.DateTimeField()
    started = models.BooleanField(default=False, help_text="A webhook bot has been told the match started.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "seat"], name="one_question_per_seat")]


class Challenge(models.Model):
    """A ranked match offered to another owner's bot: it starts only when that owner accepts."""

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for an answer"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"

    challenger = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bot_challenges")
    game = models.CharField(max_length=16)
    house_bots = models.JSONField(default=list, blank=True, help_text="House bots seated as well.")
    ranked = models.BooleanField(default=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    created_at = models.DateTimeField(auto_now_add=True)
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")


class LadderMatch(models.Model):
    """A match the ladder started; a driven bot that does not come to it in time makes it not played."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="+")
    started_at = models.DateTimeField()
    checked = models.BooleanField(default=False, help_text="Everyone came, or the match was called off.")

    @property
    def about(self) -> str:
        """What the match is, for the bots' event streams: "Bot ladder: ranked Dudo, Ace v Bee"."""
        return f"Bot ladder: {self.match.summary}"


class BotFailure(models.Model):
    """One failed move of a bot's version, with what its author needs to find the fault."""

    code = models.ForeignKey(BotCode, on_delete=models.CASCADE, related_name="failure_reports")
    match = models.ForeignKey("matches.Match", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    step = models.PositiveIntegerField(null=True, blank=True, help_text="The replay's step of the failed move.")
    message = models.TextField()
    traceback = models.TextField(blank=True, help_text="Uploaded code: where in bot.py it crashed.")
    printed = models.TextField(blank=True, help_text="Uploaded code: the last lines it printed.")
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-pk"]

    @property
    def replay_url(self) -> str:
        """The match's replay opened at the position the bot failed on (it opens once the match ends)."""
        return f"/match/{self.match_id}/replay/?step={self.step}" if self.match_id else ""
