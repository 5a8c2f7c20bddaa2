from __future__ import annotations

from datetime import timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from games.engine import IllegalAction, get_game
from games.matches.models import game_choices
from games.matches.time_controls import PRESETS, clock_label
from games.registry import bot_names
from tournaments import scoring, tiebreaks
from tournaments.formats import registry

if TYPE_CHECKING:  # the formats import these models
    from tournaments.formats.base import TournamentFormat

MIN_TURN_SECONDS = 5  # a shorter per-move clock is over before a person has read the table


def may_organize(user) -> bool:
    """An active person (not a bot) with the organizer's right."""
    return user.is_authenticated and user.is_active and not user.is_bot and user.can_organize


class Tournament(models.Model):
    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Open for entries"
        RUNNING = "running", "Running"
        PAUSED = "paused", "Paused"
        FINISHED = "finished", "Finished"
        CANCELLED = "cancelled", "Cancelled"

    LIVE = (Status.RUNNING, Status.PAUSED)

    name = models.CharField(max_length=120)
    game = models.CharField(max_length=16, choices=game_choices)
    format = models.CharField(max_length=16, choices=registry.choices, default="swiss")
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
    tiebreaks = models.JSONField(
        default=list,
        blank=True,
        help_text='Tiebreaks in order, e.g. ["buchholz-cut-1", "buchholz", "direct-encounter"]; '
        "empty: the format's default (docs/tournaments.md).",
    )
    accelerated_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss: rounds in which the top half of the seeds pair as if one point ahead."
    )
    forbidden_pairs = models.JSONField(
        default=list, blank=True, help_text="Swiss: pairs of usernames never seated together while avoidable."
    )
    series_ranking = models.CharField(
        max_length=10,
        choices=[("points", "By points"), ("wins", "By mini-games won")],
        default="points",
        help_text="Dobble series: rank by the point system, or by mini-games won as in the rulebook.",
    )
    size_factors = models.JSONField(
        default=dict,
        blank=True,
        editable=False,
        help_text="Rounds total at tables of different sizes: each size's factor, measured at the start "
        "(tournaments/size_scale.py).",
    )
    best_of = models.PositiveSmallIntegerField(
        default=1,
        help_text="Knockout at two seats: games per pairing (1, 3, 5...); the first to win most goes through.",
    )
    advance = models.PositiveSmallIntegerField(
        default=0, help_text="Knockout at larger tables: players of each table who go through (0: half the table)."
    )
    check_in_minutes = models.PositiveSmallIntegerField(
        default=0,
        help_text="Players check in during this many minutes before the start; whoever has not is left out "
        "(0: no check-in).",
    )
    no_show_minutes = models.PositiveSmallIntegerField(
        default=5,
        help_text="A player who has neither opened their table nor moved this many minutes after it started "
        "forfeits (0: the clock plays for an absent player).",
    )
    withdraw_no_shows = models.BooleanField(
        default=True,
        help_text="Swiss and round robin: a player who forfeits by not coming is not paired again unless the "
        "organizer pairs them again (FIDE's rule for a player absent without notice).",
    )
    late_entry_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="Swiss: entries stay open until this round is seated (0: closed at the start)."
    )
    late_entry_points = models.FloatField(
        default=0.0,
        choices=[(0.0, "Nothing (zero-point byes)"), (0.5, "Half a point each (half-point byes)")],
        help_text="Swiss with late entry: what a late entrant gets for each round played before they entered.",
    )
    time_control = models.CharField(
        max_length=8,
        blank=True,
        choices=[(key, preset.label) for key, preset in PRESETS.items() if preset.mode == "game"],
        help_text='A clock per game ("3+2": 3 minutes each, 2 seconds added a move) instead of the per-turn clock.',
    )
    duration_minutes = models.PositiveSmallIntegerField(
        default=60, help_text="Arena: how long it runs; players join and leave any time until the end."
    )
    berserk = models.BooleanField(
        default=True,
        help_text="Arena at two seats with a clock per game: a player may halve their own clock, before their "
        "first move, for one more point if they win.",
    )
    series = models.ForeignKey(
        "Series", null=True, blank=True, on_delete=models.SET_NULL, related_name="events",
        help_text="The recurring series that created it.",
    )  # fmt: skip
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_because = models.CharField(
        max_length=120, blank=True, help_text="Why it was cancelled, in words (set when it is)."
    )

    class Meta:
        ordering = ["starts_at"]
        # A series' events share its name (each page shows its start beside it); other names are one per game.
        constraints = [
            models.UniqueConstraint(
                fields=["name", "game"], condition=models.Q(series=None), name="tournament_name_unique_per_game"
            )
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def clock_label(self) -> str:
        """Every match's clock as players read it ("3+2", "1 minute per move", "no clock")."""
        clock = self.match_clock
        mode, initial, increment = (clock.get(key, 0) for key in ("clock", "clock_initial_ms", "clock_increment_ms"))
        return clock_label(mode or "none", initial, increment)

    @property
    def match_clock(self) -> dict:
        """The clock fields every match of it starts with (lifecycle.start_seated_matches): a clock
        per game where one is chosen, else the per-turn clock; none in real time (Dobble)."""
        if get_game(self.game).realtime:
            return {}
        if self.time_control:
            return PRESETS[self.time_control].as_table()
        if self.turn_seconds:
            return {"clock": "turn", "clock_initial_ms": self.turn_seconds * 1000}
        return {}

    @property
    def ends_at(self):
        """An arena's end, its length after it started (or is to start): no game starts after it
        (those under way finish and count)."""
        return (self.started_at or self.starts_at) + timedelta(minutes=self.duration_minutes)

    @property
    def may_berserk(self) -> bool:
        """Where the format offers it (an arena), halving one's own clock needs a bank to halve and
        one opponent to beat."""
        return (
            self.rules.offers_berserk and self.berserk and self.table_size == 2
            and self.match_clock.get("clock") == "game"
        )  # fmt: skip

    @property
    def rules(self) -> TournamentFormat:
        """The tournament's format, as an object that decides for it (tournaments/formats/base.py)."""
        return registry.get(self.format)(self)

    @property
    def format_name(self) -> str:
        return self.rules.name

    @property
    def format_summary(self) -> str:
        """The event in a line of words: "Swiss, 4 rounds at tables of 2", "Knockout, best of 3"."""
        return self.rules.summary()

    @property
    def current_round(self) -> int:
        """The last round seated so far (0 before the start)."""
        return self.tables.aggregate(last=models.Max("round"))["last"] or 0

    def round_name(self, number: int) -> str:
        """A round as players read it ("Round 2 of Winter Swiss"): the format says it."""
        return self.rules.round_name(number)

    def managed_by(self, user) -> bool:
        """Organizers manage their own tournaments; superusers anybody's."""
        return may_organize(user) and (self.organizer_id == user.pk or user.is_superuser)

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.SCHEDULED

    @property
    def early_finish(self) -> str:
        """Why a finished tournament played fewer rounds than it was set for, in words, or ""."""
        return self.rules.early_finish()

    def left_out_at_start(self):
        """The entries a start now leaves out: where check-in is asked, the people who have not
        checked in (house bots are always there)."""
        if not self.check_in_minutes:
            return self.entries.none()
        return self.entries.filter(checked_in_at=None, house_bot="")

    def clean(self) -> None:
        """Settings that cannot make an event: each format refuses its own (the admin shows these)."""
        game = get_game(self.game)
        errors = {}
        if not game.smallest_table <= self.table_size <= game.max_players:
            errors["table_size"] = f"{game.name} is played at {game.smallest_table} to {game.max_players} seats."
        rules = registry.FORMATS.get(self.format)
        if rules is None:
            errors["format"] = f"Choose a format: {', '.join(registry.FORMATS)}."
        else:
            errors.update(rules(self).errors())
        known = list(rules.tiebreaks_offered() if rules else tiebreaks.NAMES)
        if not isinstance(self.tiebreaks, list) or any(name not in known for name in self.tiebreaks):
            errors["tiebreaks"] = f"List tiebreaks in order, from: {', '.join(known)}."
        if not isinstance(self.forbidden_pairs, list) or any(
            not isinstance(pair, list) or len(pair) != 2 for pair in self.forbidden_pairs
        ):
            errors["forbidden_pairs"] = 'List pairs of usernames, e.g. [["ann", "bob"]].'
        errors.update(self.size_errors(game))
        too_many = self.too_many_entered() if self.pk else ""
        if too_many:
            errors["max_entries"] = too_many
        if self.pk:  # the game changed under the house bots entered for another one
            strangers = set(self.entries.exclude(house_bot="").values_list("house_bot", flat=True)) - set(
                bot_names(self.game)
            )
            if strangers:
                errors["game"] = (
                    f"{game.name} has no house bot {', '.join(sorted(strangers))}: take those entries out first."
                )
        try:  # refused when saved, not at the start, when a round fails to seat
            if not isinstance(self.options, dict):
                raise IllegalAction("Options are an object of the game's option names and values.")
            game.clean_options(self.table_size if "table_size" not in errors else game.min_players, self.options)
        except IllegalAction as error:
            errors["options"] = str(error)
        if errors:
            raise ValidationError(errors)

    def too_many_entered(self) -> str:
        """Why `max_entries` is too few for the people already entered, in words, or ""."""
        entered = self.entries.count()
        if self.max_entries >= entered:
            return ""
        return f"{entered} have entered already: allow at least {entered} entries."

    def size_errors(self, game) -> dict[str, str]:
        """Numbers that cannot make an event, whatever its format: fewer than two players, tables
        bigger than the field, a blink of a clock (each format refuses its own: TournamentFormat.errors)."""
        errors = {}
        if self.max_entries < 2:
            errors["max_entries"] = "Allow at least two entries: a game needs two players."
        elif self.table_size > self.max_entries:
            errors["max_entries"] = f"Tables of {self.table_size} need at least {self.table_size} entries."
        if not game.realtime and 0 < self.turn_seconds < MIN_TURN_SECONDS:
            errors["turn_seconds"] = f"Give at least {MIN_TURN_SECONDS} seconds a move (0: no clock)."
        return errors


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_entries")
    house_bot = models.CharField(max_length=20, blank=True, help_text="Set when a house bot plays this entry.")
    seed = models.PositiveIntegerField(null=True, blank=True, help_text="Place by rating when the tournament started.")
    rating = models.FloatField(
        null=True, blank=True, help_text="Ladder rating at the start, which the seed follows (unrated: empty)."
    )
    checked_in_at = models.DateTimeField(null=True, blank=True)
    withdrawn_after = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The last round this entry was paired in before withdrawing."
    )
    no_show_round = models.PositiveSmallIntegerField(
        null=True, blank=True, help_text="The round this entry did not come to, which withdrew it."
    )
    made_no_move = models.BooleanField(
        default=False,
        help_text="It came to that round's table but made no move of its own (the clock made every one).",
    )
    joined_at = models.DateTimeField(auto_now_add=True)
    waiting_since = models.DateTimeField(
        null=True, blank=True, help_text="Arena: free for a table since then; empty while at a table or paused."
    )
    paused = models.BooleanField(
        default=False, help_text="Arena: paused (by the player, or for not coming to a game): not seated until back."
    )

    class Meta:
        ordering = ["joined_at"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def clean(self) -> None:
        """A house bot plays only its own account's entry, never a person's (nor another owner's bot)."""
        if self.house_bot and not (self.user_id and self.user.is_bot and self.user.bot_owner_id is None):
            raise ValidationError({"house_bot": "A house bot plays only its own account's entry, never a person's."})

    @property
    def no_show_words(self) -> str:
        """Why a no-show was withdrawn, to follow the player's name or "you"."""
        if self.made_no_move:
            return f"made no move in round {self.no_show_round} (the clock made every one)"
        return f"did not come to round {self.no_show_round}"

    @property
    def withdrawal_words(self) -> str:
        """How the entry left, for its badge: a knockout player leaves during the round they are in,
        a Swiss or round robin player after the round they were paired in."""
        if self.no_show_round:
            return f"withdrawn: {self.no_show_words}"
        if not self.withdrawn_after:
            return "withdrawn"
        during = self.tournament.rules.leaves_at_once
        return f"withdrawn {'in' if during else 'after'} round {self.withdrawn_after}"


class Table(models.Model):
    """One table of one round. In a Dobble series the next mini-game waits for its chooser
    (the last mini-game's loser): the table exists, its match does not yet. The chooser stays
    recorded once the mini-game is settled, with how it was (`choice`)."""

    class Choice(models.TextChoices):
        CHOSEN = "chosen", "Chosen by the loser"
        TIMED_OUT = "timed-out", "The loser's time ran out: the least played"
        HOUSE_BOT = "house-bot", "A house bot lost: the least played"
        BOT_CODE = "bot-code", "A bot's uploaded code or webhook lost: the least played"

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
    choice = models.CharField(
        max_length=10, blank=True, choices=Choice.choices, help_text="How the chooser's mini-game was settled."
    )
    scored = models.BooleanField(default=False)
    moved_on = models.BooleanField(
        default=True, help_text="False while a table scored during a pause waits to seat what follows it."
    )
    berserk = models.JSONField(default=list, blank=True, help_text="Arena: entry ids who halved their own clock.")

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
    kind = models.CharField(
        max_length=10,
        default=scoring.PLAYED,
        choices=[
            (scoring.PLAYED, "Played"),
            (scoring.WALKOVER, "Won by the others' forfeit"),
            (scoring.FORFEITED, "Forfeited"),
            (scoring.BYE, "Bye"),
            (scoring.UNPLAYED, "Not played"),
            (scoring.LATE, "Missed: entered late"),
        ],
        help_text="How the points were earned: tiebreaks and pairing treat byes, forfeits and unplayed games apart.",
    )
    streak = models.PositiveSmallIntegerField(
        default=0, help_text="Arena: games won in a row after this one (from two on, the next games count double)."
    )

    class Meta:
        ordering = ["round"]
        constraints = [models.UniqueConstraint(fields=["entry", "round"], name="one_score_per_entry_and_round")]


class ScoreCorrection(models.Model):
    """An organizer's change to a table's points: who, when, why, and the points before and after."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="corrections")
    by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    at = models.DateTimeField(auto_now_add=True)
    reason = models.CharField(max_length=200)
    before = models.JSONField(help_text="Entry id -> points before the correction.")
    after = models.JSONField(help_text="Entry id -> points after the correction.")

    class Meta:
        ordering = ["at"]


class Series(models.Model):
    """Events repeated every hour, day or week: the beat creates each one ahead
    (tournaments/series.py), a copy of the latest with its house bots, named by its start."""

    class Every(models.TextChoices):
        HOUR = "hour", "Every hour"
        DAY = "day", "Every day"
        WEEK = "week", "Every week"

    name = models.CharField(max_length=80, unique=True, help_text="Each event's name; pages show its start beside it.")
    organizer = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="series")
    every = models.CharField(max_length=4, choices=Every.choices)
    time_zone = models.CharField(
        max_length=64, default="UTC", help_text="Daily and weekly events keep their hour here, summer time or not."
    )
    active = models.BooleanField(default=True, help_text="Off: no more events are created.")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name_plural = "series"

    def __str__(self) -> str:
        return self.name
