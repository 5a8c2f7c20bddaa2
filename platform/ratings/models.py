"""Ratings: one standing per (account, game), the ledger of rated results, and solo high scores."""

from django.conf import settings
from django.db import models

from ratings import skill
from ratings.elo import START
from ratings.table import LADDER_OPPONENTS, Standing, is_established, is_ranked


class Rating(models.Model):
    """One account's standing in one game: Elo, and OpenSkill's mu and sigma beside it.

    Created by the first rated result; `recompute_ratings` rebuilds it from the RatingChange ledger.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game = models.CharField(max_length=16)
    elo = models.FloatField(default=START)
    peak = models.FloatField(default=START)
    games = models.PositiveIntegerField(default=0, help_text="Rated games played.")
    wins = models.PositiveIntegerField(default=0, help_text="Rated games finished alone in first place.")
    mu = models.FloatField(default=skill.MU)
    sigma = models.FloatField(default=skill.SIGMA)
    is_bot = models.BooleanField(default=False, help_text="Copied from the account, to filter ladders on the index.")
    established_opponents = models.PositiveIntegerField(
        default=0,
        help_text="Different opponents rated against while they were established (house bots always): "
        "a ladder place needs 10.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "game"], name="one_rating_per_game")]
        indexes = [
            # Ladder pages and places: ORDER BY elo DESC, user_id and COUNT(elo > x) read only the index.
            models.Index(fields=["game", "-elo", "user"], name="ladder"),
            models.Index(fields=["game", "is_bot", "-elo", "user"], name="ladder_by_kind"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.elo:.0f}"

    @property
    def provisional(self) -> bool:
        """Not yet established: marked "?" wherever the rating is shown, and kept off the leaderboards."""
        return not is_established(self.games, self.sigma)

    @property
    def ranked(self) -> bool:
        """On the ladder: established, and measured against enough established opponents."""
        return is_ranked(self.games, self.sigma, self.established_opponents)

    @property
    def unranked_because(self) -> str:
        """Why the rating has no ladder place, in words ("" when it has one)."""
        if self.provisional:
            return "provisional: not yet established"
        if not self.ranked:
            return (
                f"rated against {self.established_opponents} different established "
                f"player{'s' if self.established_opponents != 1 else ''}; a ladder place needs {LADDER_OPPONENTS}"
            )
        return ""

    @property
    def win_rate(self) -> float | None:
        return self.wins / self.games if self.games else None

    @property
    def ordinal(self) -> float:
        """OpenSkill's conservative estimate: mu - 3 sigma."""
        return skill.ordinal(self.mu, self.sigma)

    def standing(self) -> Standing:
        return Standing(self.elo, self.peak, self.games, self.wins, self.mu, self.sigma)

    def set_standing(self, standing: Standing) -> None:
        self.elo, self.peak, self.games, self.wins = (
            standing.elo,
            standing.peak,
            standing.games,
            standing.wins,
        )
        self.mu, self.sigma = standing.mu, standing.sigma


class RatingChange(models.Model):
    """What one rated match did to one account's rating: the ledger that recompute replays.

    Unique per (match, account), so applying the same result twice changes nothing.
    """

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game = models.CharField(max_length=16)
    seat = models.PositiveSmallIntegerField(help_text="Replays take a table's players in seat order.")
    place = models.PositiveSmallIntegerField(help_text="1 for the winner(s); equal places are ties.")
    before = models.FloatField()
    after = models.FloatField()
    delta = models.FloatField()
    mu_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_before = models.FloatField()
    sigma_after = models.FloatField()
    games_before = models.PositiveIntegerField(help_text="Rated games before this one (provisional below 30).")
    finished_at = models.DateTimeField(help_text="The match's finished_at: replays run in (finished_at, match).")

    class Meta:
        ordering = ["finished_at", "match_id"]
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_change_per_match_and_player")]
        indexes = [
            models.Index(fields=["user", "game", "finished_at"], name="rating_history"),
            models.Index(fields=["game", "finished_at", "match", "seat"], name="rating_replay"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.game} #{self.match_id}: {self.delta:+.1f}"

    @classmethod
    def newest_first(cls, user, game: str):
        """One account's changes in one game, the last rated first: the order each `before` follows
        the last `after`. A match that finished earlier can be rated later (its scoring task was
        lost and tried again, or two ended at once); a recompute puts them in finishing order."""
        return cls.objects.filter(user=user, game=game).order_by("-games_before", "-match_id")

    @property
    def provisional(self) -> bool:
        """Played while the rating was provisional."""
        return not is_established(self.games_before, self.sigma_before)

    @property
    def provisional_after(self) -> bool:
        """The rating this game left is still provisional (the table marks it "?")."""
        return not is_established(self.games_before + 1, self.sigma_after)

    @property
    def shown_delta(self) -> int:
        """The change between the whole ratings a page shows, so that "+15 → 1553" adds up."""
        return round(self.after) - round(self.before)

    @property
    def shown(self) -> str:
        """The change as pages show it: "+15 → 1553"."""
        return f"{self.shown_delta:+d} → {round(self.after)}"


class HighScore(models.Model):
    """Solo Dubito is not rated: each solo game's score goes to a high-score table instead."""

    match = models.OneToOneField("matches.Match", on_delete=models.CASCADE, related_name="high_score")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="high_scores")
    game = models.CharField(max_length=16)
    score = models.IntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        ordering = ["-score", "finished_at"]
        indexes = [models.Index(fields=["game", "-score", "finished_at"], name="high_scores")]

    def __str__(self) -> str:
        return f"{self.user} {self.game} {self.score}"


class BluffRecord(models.Model):
    """One account's bluff and doubt counts in one finished match (ratings.bluffs): one row per match and
    account, so counting a match twice changes nothing and the profile sums rows in one query."""

    match = models.ForeignKey("matches.Match", on_delete=models.CASCADE, related_name="bluff_records")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="bluff_records")
    game = models.CharField(max_length=16)
    claims = models.PositiveIntegerField(default=0, help_text="Bids (Dudo) or plays (I Doubt It) made.")
    judged = models.PositiveIntegerField(default=0, help_text="Claims whose truth the rules showed.")
    bluffs = models.PositiveIntegerField(default=0, help_text="Shown claims that were false.")
    caught = models.PositiveIntegerField(default=0, help_text="Bluffs that were doubted.")
    chances = models.PositiveIntegerField(default=0, help_text="Times a doubt was allowed.")
    doubts = models.PositiveIntegerField(default=0)
    doubts_right = models.PositiveIntegerField(default=0, help_text="Doubts that found a bluff.")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "user"], name="one_bluff_record_per_match_and_account")]
        indexes = [models.Index(fields=["user", "game"])]
