"""Fair play: what finished matches said about each account, the flags raised from it, and
what staff did about them. Players never see any of it (docs/fair-play.md)."""

from django.conf import settings
from django.db import models


class Sighting(models.Model):
    """An account signed in from this address with this browser (the browser cookie of
    middleware.py): two accounts seen on the same one may be one person."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    address = models.GenericIPAddressField(null=True, blank=True)
    browser = models.CharField(max_length=32, blank=True)
    last_seen = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "address", "browser"], name="one_sighting_per_device")]


class PlayRecord(models.Model):
    """One account's figures from one finished match (Dobble reaction times of right claims,
    thinking times of its own moves); written once by the Celery task."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    game = models.CharField(max_length=16)
    person = models.BooleanField(help_text="A person's account (not a bot's) when the match was read.")
    reactions_ms = models.JSONField(default=list)
    think_seconds = models.JSONField(default=list)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_play_record_per_match")]


class ChallengeRecord(models.Model):
    """In one match, how often `doubter` could doubt `target`'s claim, and how often it did."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="+")
    doubter = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    target = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    chances = models.PositiveIntegerField()
    doubts = models.PositiveIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "doubter", "target"], name="one_challenge_record_per_pair")
        ]


class Flag(models.Model):
    class Kind(models.TextChoices):
        REACTIONS = "reactions", "Dobble reactions faster than people's"
        FARMING = "farming", "Rating farming within a pair"
        COLLUSION = "collusion", "A pair that spares each other"
        REGULARITY = "regularity", "Thinking times as regular as a program's"
        RING = "ring", "A rating fed by a closed ring of opponents"

    class Status(models.TextChoices):
        OPEN = "open", "To review"
        DISMISSED = "dismissed", "Dismissed"
        ACTED = "acted", "Acted on"

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=12, choices=Kind.choices)
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
        help_text="The other account of a pair (farming, collusion).",
    )  # fmt: skip
    game = models.CharField(max_length=16, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    score = models.FloatField(help_text="How unlikely for an honest player (-log10 p, or a z).")
    evidence = models.JSONField(default=dict)
    matches_seen = models.PositiveIntegerField(help_text="The account's matches read when it was first flagged.")
    flagged_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-score"]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "game"], condition=models.Q(partner=None), name="one_flag_per_kind"
            ),
            models.UniqueConstraint(fields=["user", "kind", "game", "partner"], name="one_flag_per_pair"),
        ]


class RatedPlayStop(models.Model):
    """Staff stopped this account's rated play: its rated results are voided and it may not
    join the ranked queue, until the row is deleted."""

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rated_play_stop")
    created_at = models.DateTimeField(auto_now_add=True)


class ReviewAction(models.Model):
    """The audit log: every staff action on a flag or an account, never edited."""

    class Kind(models.TextChoices):
        DISMISS = "dismiss", "Dismissed the flag"
        VOID_MATCH = "void", "Voided a match's rating changes"
        STOP_RATED = "stop", "Stopped the account's rated play"

    staff = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    flag = models.ForeignKey(Flag, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    match_id = models.PositiveIntegerField(null=True, blank=True)
    note = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]
