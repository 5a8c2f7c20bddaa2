from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.template.defaultfilters import pluralize

from games.engine import IllegalAction, get_game
from games.matches.models import game_choices
from games.matches.time_controls import clock_label
from games.registry import bot_names
from tournaments import scoring, tiebreaks

MIN_TURN_SECONDS = 5  # a shorter per-move clock is over before a person has read the table


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
        KNOCKOUT = "knockout", "Knockout (two seats: seeded bracket; larger tables: top players of each go through)"

        @property
        def short_label(self) -> str:
            """The format as a heading says it ("Knockout"), without the explanation of the form's choice."""
            return self.label.split(" (")[0]

    LIVE = (Status.RUNNING, Status.PAUSED)

    name = models.CharField(max_length=120)
    game = models.CharField(max_length=16, choices=game_choices)
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
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    cancelled_because = models.CharField(
        max_length=120, blank=True, help_text="Why it was cancelled, in words (set when it is)."
    )

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
    def format_name(self) -> str:
        return self.Format(self.format).short_label

    @property
    def format_summary(self) -> str:
        """The event in a line of words: "Swiss, 4 rounds at tables of 2", "Knockout, best of 3".
        A round robin's and a knockout's rounds are only known once the entries are (at the start)."""
        if self.format == self.Format.KNOCKOUT and self.table_size == 2:
            series = "one game a pairing" if self.best_of == 1 else f"best of {self.best_of}"
            return f"Knockout, {series}"
        if self.format == self.Format.KNOCKOUT:
            through = self.advance or self.table_size // 2
            who = "the winner of each goes" if through == 1 else f"the top {through} of each go"
            return f"Knockout at tables of up to {self.table_size}, {who} through"
        tables = "tables of 2" if self.table_size == 2 else f"tables of up to {self.table_size}"
        rounds = f"{self.rounds} round{'s' if self.rounds != 1 else ''}"
        if self.format == self.Format.ROUND_ROBIN:
            known = "" if self.status == self.Status.SCHEDULED else f" ({rounds})"
            return f"Round robin, everyone meets everyone at {tables}{known}"
        if self.format == self.Format.ROUNDS_TOTAL:
            return f"Lowest total over {rounds} at {tables}"
        if self.format == self.Format.SWISS:
            fast = {0: "", 1: ", round 1 accelerated"}.get(self.accelerated_rounds, ", the first rounds accelerated")
            return f"Swiss, {rounds} at {tables}{fast}"
        if self.format == self.Format.DOBBLE_SERIES:
            ranked = "mini-games won (the rulebook's way)" if self.series_ranking == "wins" else "points"
            return f"{self.format_name}, {rounds} at {tables}, ranked by {ranked}"

    @property
    def current_round(self) -> int:
        """The last round seated so far (0 before the start)."""
        return self.tables.aggregate(last=models.Max("round"))["last"] or 0

    def round_name(self, number: int) -> str:
        """A round as players read it, on its tables' pages and in the notices that send them
        there: "Round 2 of Winter Swiss"."""
        return f"Round {number} of {self.name}"

    @property
    def is_open(self) -> bool:
        return self.status == self.Status.SCHEDULED

    @property
    def early_finish(self) -> str:
        """Why a finished tournament played fewer rounds than it was set for, in words, or "":
        a field left too small for a table (the others withdrawn) plays no more rounds. (A round
        robin's last player wins the rounds left by forfeit; a knockout's rounds are its own.)"""
        played = self.current_round if self.status == self.Status.FINISHED else self.rounds
        if self.format in (self.Format.KNOCKOUT, self.Format.ROUND_ROBIN) or played >= self.rounds:
            return ""
        return f"Finished after round {played} of {self.rounds}: too few players were left for another table."

    def left_out_at_start(self):
        """The entries a start now leaves out: where check-in is asked, the people who have not
        checked in (house bots are always there)."""
        if not self.check_in_minutes:
            return self.entries.none()
        return self.entries.filter(checked_in_at=None, house_bot="")

    def clean(self) -> None:
        """Formats that only make sense for some games or table sizes (the admin shows these)."""
        game = get_game(self.game)
        errors = {}
        if not game.smallest_table <= self.table_size <= game.max_players:
            errors["table_size"] = f"{game.name} is played at {game.smallest_table} to {game.max_players} seats."
        if self.format == self.Format.DOBBLE_SERIES and self.game != "dobble":
            errors["format"] = "A Dobble series is for Dobble."
        if self.format == self.Format.ROUNDS_TOTAL and self.game != "dudab":
            errors["format"] = "Lowest total over the rounds is Dudab Buba's format."
        if self.format == self.Format.ROUND_ROBIN and game.min_players > 2:
            errors["format"] = f"A round robin is played at two seats; {game.name} needs at least {game.min_players}."
        elif self.format == self.Format.ROUND_ROBIN and self.table_size != 2:
            errors["format"] = "A round robin is played at two seats."
        known = [*tiebreaks.NAMES, "points"]
        if not isinstance(self.tiebreaks, list) or any(name not in known for name in self.tiebreaks):
            errors["tiebreaks"] = f"List tiebreaks in order, from: {', '.join(known)}."
        if not isinstance(self.forbidden_pairs, list) or any(
            not isinstance(pair, list) or len(pair) != 2 for pair in self.forbidden_pairs
        ):
            errors["forbidden_pairs"] = 'List pairs of usernames, e.g. [["ann", "bob"]].'
        if self.format == self.Format.KNOCKOUT and self.best_of % 2 == 0:
            errors["best_of"] = "Play an odd number of games per pairing (1, 3, 5...)."
        if self.format == self.Format.KNOCKOUT and self.advance >= self.table_size:
            errors["advance"] = (
                f"At tables of {self.table_size}, at most {self.table_size - 1} can go through from each: choose fewer."
            )
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
        if self.late_entry_rounds and self.format != self.Format.SWISS:
            errors["late_entry_rounds"] = "Late entry is for Swiss tournaments."
        if self.accelerated_rounds and self.format != self.Format.SWISS:
            errors["accelerated_rounds"] = "Accelerated rounds are for Swiss tournaments."
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
        """Numbers that cannot make an event: no round, fewer than two players, tables bigger than
        the field, more Swiss rounds than opponents, settings past the last round, a blink of a clock."""
        errors = {}
        counts_rounds = self.format in (self.Format.SWISS, self.Format.DOBBLE_SERIES, self.Format.ROUNDS_TOTAL)
        if counts_rounds and self.rounds < 1:
            errors["rounds"] = "Play at least one round."
        if self.max_entries < 2:
            errors["max_entries"] = "Allow at least two entries: a game needs two players."
        elif self.table_size > self.max_entries:
            errors["max_entries"] = f"Tables of {self.table_size} need at least {self.table_size} entries."
        elif self.format == self.Format.SWISS and self.table_size == 2 and self.rounds >= self.max_entries:
            others = self.max_entries - 1
            errors["rounds"] = (
                f"With at most {self.max_entries} players each meets at most {others} "
                f"other{pluralize(others)}: play at most {others} round{pluralize(others)}, or allow more entries."
            )
        if self.format == self.Format.SWISS and self.accelerated_rounds > self.rounds:
            errors["accelerated_rounds"] = f"Accelerate at most the {self.rounds} rounds played."
        if self.format == self.Format.SWISS and self.late_entry_rounds > self.rounds:
            errors["late_entry_rounds"] = f"Late entry can last at most until round {self.rounds}, the last."
        if not game.realtime and 0 < self.turn_seconds < MIN_TURN_SECONDS:
            errors["turn_seconds"] = f"Give at least {MIN_TURN_SECONDS} seconds a move (0: no clock)."
        return errors

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
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["joined_at"]
        verbose_name_plural = "entries"
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_entry_per_player")]

    def clean(self) -> None:
        """A house bot plays only its own account's entry, never a person's (nor another owner's bot)."""
        if self.house_bot and not (self.user_id and self.user.is_bot and self.user.bot_owner_id is None):
            raise ValidationError({"house_bot": "A house bot plays only its own account's entry, never a person's."})

    @property
    def withdrawal_words(self) -> str:
        """How the entry left, for its badge: a knockout player leaves during the round they are in,
        a Swiss or round robin player after the round they were paired in."""
        if self.no_show_round:
            return f"withdrawn: did not come to round {self.no_show_round}"
        if not self.withdrawn_after:
            return "withdrawn"
        during = self.tournament.format == Tournament.Format.KNOCKOUT
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
