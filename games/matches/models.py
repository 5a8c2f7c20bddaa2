"""Matches: the engine state snapshot, the seats and the append-only action log.

The snapshot is a cache: seed + options + the action log replay it exactly
(`python manage.py replay`), so the log is the record and never changes.
"""

import secrets
from functools import cached_property

from django.conf import settings
from django.db import models

from games.engine import GAMES, KEPT_HISTORY
from games.matches.jsoncolumns import Decoder, Encoder, JSONText
from games.matches.time_controls import clock_label
from games.verify_deal import commitment as deal_commitment


def game_choices() -> list[tuple[str, str]]:
    """The registered games, as the choices of every model's `game` field. A function, which
    migrations name instead of listing the games: a game added later needs no migration, and
    forms, serializers and `full_clean` still refuse a slug nobody registered."""
    return [(slug, game.name) for slug, game in GAMES.items()]


def new_salt() -> str:
    """The secret that keeps a match's published commitment from giving its seed away."""
    return secrets.token_hex(16)


class Match(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "Waiting for players"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"
        ABORTED = "aborted", "Aborted"

    class Clock(models.TextChoices):
        NONE = "none", "No clock"
        PER_TURN = "turn", "Per turn"
        PER_GAME = "game", "Per game with increment"

    game = models.CharField(max_length=16, choices=game_choices)
    options = models.JSONField(default=dict, blank=True, encoder=Encoder, decoder=Decoder)
    players = models.PositiveSmallIntegerField()
    seed = models.BigIntegerField()
    salt = models.CharField(
        max_length=32,
        default=new_salt,
        blank=True,
        help_text="Secret until the end; empty for matches before commitments.",
    )
    ranked = models.BooleanField(default=False)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="hosted_matches"
    )
    clock = models.CharField(max_length=4, choices=Clock.choices, default=Clock.NONE)
    clock_initial_ms = models.PositiveIntegerField(default=0, help_text="Per-turn limit, or the bank per game.")
    clock_increment_ms = models.PositiveIntegerField(default=0, help_text="Fischer increment per move.")
    state = JSONText(
        null=True,
        blank=True,
        encoder=Encoder,
        decoder=Decoder,
        help_text="game.dump() after the last action, its history cut to the last entries.",
    )
    history_start = models.PositiveIntegerField(
        default=0, help_text="Where the snapshot's history starts in the whole history (the rest is in the log)."
    )
    seq = models.PositiveIntegerField(default=0, help_text="How many actions the log holds.")
    result = models.JSONField(null=True, blank=True, encoder=Encoder, decoder=Decoder)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    # When the current answer window (I Doubt It's doubt window) opened: its timer runs from
    # there, not from the latest answer.
    window_opened_at = models.DateTimeField(null=True, blank=True)
    wake_at = models.DateTimeField(
        null=True, blank=True, db_index=True, help_text="When a clock runs out or a bot is due to move."
    )
    shown_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="Real-time races: when the table was last sent new face-up cards; claims are timed from it.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    settled_at = models.DateTimeField(
        null=True, blank=True, help_text="When the finished match was rated and counted in its tournament."
    )

    class Meta:
        indexes = [
            models.Index(fields=["status", "game"]),
            models.Index(
                fields=["finished_at"],
                condition=models.Q(status="finished", settled_at__isnull=True),
                name="match_unsettled",
            ),
        ]
        verbose_name_plural = "matches"

    def __str__(self) -> str:
        return f"{self.get_game_display()} #{self.pk}"

    @property
    def engine(self):
        return GAMES[self.game]

    @property
    def players_label(self) -> str:
        """Who plays, in words, where pages once said "Dudo #23": "alice v bob", "alice, bob and carol"."""
        names = [seat.user.username for seat in self.seats.all()]
        if len(names) == 2:
            return f"{names[0]} v {names[1]}"
        if len(names) > 2:
            return f"{', '.join(names[:-1])} and {names[-1]}"
        return f"{names[0]}, waiting for players" if names else "waiting for players"

    @property
    def summary(self) -> str:
        """What the match is, for a player told of it elsewhere: "ranked Dudo, alice v bob"."""
        return f"{'ranked' if self.ranked else 'casual'} {self.get_game_display()}, {self.players_label}"

    @property
    def clock_label(self) -> str:
        """The clock as players read it: "3+2", "1 minute per move", "no clock"."""
        return clock_label(self.clock, self.clock_initial_ms, self.clock_increment_ms)

    @property
    def commitment(self) -> str | None:
        """The deal's commitment that every seat and spectator sees from the start (docs/fair-play.md)."""
        return deal_commitment(self.seed, self.salt) if self.salt else None

    @property
    def deal_over(self) -> bool:
        """The seed and salt may be told only once the match is over: before, they would show every hand."""
        return self.status in (self.Status.FINISHED, self.Status.ABORTED)

    def deal_facts(self, reveal: bool) -> dict:
        """What a table or an API answer says of the deal: the commitment, and, once the match is
        over and to a viewer who may check it (`reveal`: its players, staff), the seed and salt."""
        facts = {"commitment": self.commitment}
        if reveal and self.deal_over and self.commitment:
            facts |= {"seed": self.seed, "salt": self.salt}
        return facts

    def option_labels(self) -> list[str]:
        """The table's options as players read them ("Dice per player: 1")."""
        return [
            f"{option.label}: {option.describe_value(self.options.get(name, option.default))}"
            for name, option in self.engine.options.items()
            if option.players_choose and option.matters_at(self.players, self.options)
        ]

    def load_state(self):
        """The snapshot's position. A started match that has not moved yet has no snapshot (a
        round of thousands starts without writing 18 MB of positions): its position is the
        new game its seed and options deal, the same every time, as a replay deals it."""
        return self.engine.load(self.state) if self.state is not None else self.new_game()

    @property
    def dealt(self) -> bool:
        """Started at some point (every start goes through lifecycle.begin, which sets
        `started_at`), so it has a position: stored, or its new game's. Whatever the status
        is now, a started match keeps its position."""
        return self.state is not None or self.started_at is not None

    def new_game(self):
        return self.engine.new_game(self.players, self.seed, self.options)

    @cached_property
    def opening_history(self) -> list[dict]:
        """The entries the new game's history starts with, before any action (the deal). Dealt
        once an instance: a socket's opening on a match that has not moved asked for it once a
        seat's message (docs/performance.md). Read, never changed."""
        return self.engine.dump(self.new_game())["history"]

    def snapshot_history(self) -> list[dict]:
        """The snapshot's history: the new game's while the match has not moved."""
        return self.state["history"] if self.state is not None else self.opening_history

    def store_state(self, state) -> list[dict]:
        """Keep `state` as the snapshot with only the last KEPT_HISTORY history entries, so that a
        move reads and writes the same amount however long the game has run; the entries it added
        since the stored snapshot are returned, for the action's log row."""
        data = self.engine.dump(state)
        history = data["history"]
        added = history[len(self.snapshot_history()) :]
        data["history"] = history[-KEPT_HISTORY:]
        self.history_start += len(history) - len(data["history"])
        self.state = data
        return added

    @property
    def history_length(self) -> int:
        """How many entries the whole history has (the snapshot holds its tail)."""
        return self.history_start + len(self.snapshot_history()) if self.dealt else 0

    def whole_history(self) -> list[dict]:
        """The snapshot's history with every earlier entry: those `new_game` wrote, then those
        each logged action added (MatchAction.events), up to the snapshot's move."""
        tail = self.snapshot_history()
        if not self.history_start:
            return tail
        first = self.opening_history
        earlier = self.actions.filter(seq__lte=self.seq).order_by("seq").values_list("events", flat=True)
        return [*first, *(entry for events in earlier for entry in events)][: self.history_start] + tail

    def clock_moves_in_history(self) -> list[int]:
        """The indices in the whole history of the moves the clock made for a seat whose time ran
        out (each move's first entry; what followed is the game's; a move that added none, none),
        read from the log. Asked only of a match the clock moved in (rows.clock_moved)."""
        position = len(self.opening_history)
        moves = []
        for source, events in self.actions.order_by("seq").values_list("source", "events"):
            if source == MatchAction.Source.TIMEOUT and events:
                moves.append(position)
            position += len(events)
        return moves

    def absent_seats(self, seats) -> list[int]:
        """Seats whose player never came: no socket ever opened, no move of their own (the clock's
        and a stand-in house bot's are not), no resignation. Forfeited seats, and people's seats the clock played
        to the end; not a bot account's (a polling bot holds no socket) nor a house bot's or
        uploaded code's. Decided when the match ends and kept in its result ("absent"): opening
        the finished table later is not coming to the game."""
        gone = [
            s.number
            for s in seats
            if not s.came
            and not s.resigned
            and (s.forfeited_at or not (s.user.is_bot or s.house_bot or s.code_version is not None))
        ]
        if not gone:
            return []
        not_theirs = [MatchAction.Source.TIMEOUT, MatchAction.Source.HOUSE]
        own = self.actions.filter(seat__in=gone).exclude(source__in=not_theirs)
        moved = set(own.values_list("seat", flat=True))
        return [number for number in gone if number not in moved]

    def absentees(self) -> set[int]:
        """`absent_seats` as decided when the match ended (its result keeps them); a result kept
        from before that is decided from the seats now."""
        if "absent" in self.result:
            return set(self.result["absent"])
        return set(self.absent_seats(list(self.seats.select_related("user"))))

    def idle_seats(self) -> list[int]:
        """Seats whose player came but made no move of their own: the clock made every move
        of theirs. The one definition: the rating leaves such a game out, and an event counts it
        lost by them (a player who does not move loses, as on Lichess). Decided when the match
        ends and kept in its result ("idle"), as "absent" is; a result kept from before, from the log."""
        if "idle" in (self.result or {}):
            return list(self.result["idle"])
        made = set(self.actions.values_list("seat", "source").distinct())
        moved = {seat for seat, source in made if source != MatchAction.Source.TIMEOUT}
        clocked = {seat for seat, source in made if source == MatchAction.Source.TIMEOUT}
        return sorted(clocked - moved - self.absentees())

    def seat_of(self, user) -> "Seat | None":
        if user is None or not user.is_authenticated:
            return None
        return next((seat for seat in self.seats.all() if seat.user_id == user.pk), None)


class Seat(models.Model):
    # No index of its own: the unique (match, number) index starts with it (migration 0015).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="seats", db_index=False)
    number = models.PositiveSmallIntegerField()
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="seats")
    house_bot = models.CharField(
        max_length=32, blank=True, help_text="Name of the house bot that plays this seat (games.bots)."
    )
    code_version = models.PositiveIntegerField(
        null=True, blank=True, help_text="Version of the seat's uploaded bot code that plays it (botapi)."
    )
    clock_ms = models.IntegerField(default=0, help_text="Time left in the bank (per-game clocks).")
    connections = models.PositiveSmallIntegerField(default=0, help_text="Open sockets: SeatSocket rows, counted.")
    disconnected_at = models.DateTimeField(null=True, blank=True)
    forfeited_at = models.DateTimeField(null=True, blank=True)
    resigned = models.BooleanField(default=False, help_text="The forfeit was the player's own resignation.")
    counted_out = models.BooleanField(
        default=False,
        help_text="The forfeit was the clock's: it ran out on the connected player's turn too many times in a row "
        "(clocks.idles_out).",
    )
    gone_at = models.PositiveIntegerField(
        null=True, blank=True, help_text="Where in the whole history the forfeit came: the index of the entry after it."
    )
    timeouts_in_a_row = models.PositiveSmallIntegerField(
        default=0, help_text="Moves the clock made for the seat since its player last moved (clocks.idles_out)."
    )

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="one_player_per_seat"),
            models.UniqueConstraint(fields=["match", "user"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"{self.match} seat {self.number}: {self.user}"

    @property
    def came(self) -> bool:
        """The player opened the table at some point: a socket of theirs is open, or one closed."""
        return self.connections > 0 or self.disconnected_at is not None

    def why_gone(self, result: dict | None) -> str | None:
        """Why the player is out of the game, in the words the table and the replay use:
        "resigned", "timed out" (counted out at the table, the clock having run out on their turn
        too many times in a row), "left" (forfeited by absence or time after opening the table) or
        "did not come" (also a seat the clock played to the end); None while they play. Once the
        match has ended its result says who never came: opening the finished table is not coming."""
        absent = (result or {}).get("absent", [])
        if self.forfeited_at is None and self.number not in absent:
            return None
        if self.resigned:
            return "resigned"
        if self.counted_out:
            return "timed out"
        came = self.number not in absent if result else self.came
        return "left" if came else "did not come"

    def gone_words(self, result: dict | None) -> str | None:
        """`why_gone` as the history says it after the player's name: a player counted out while
        at the table never left, and the line says what happened instead."""
        why = self.why_gone(result)
        if why != "timed out":
            return why
        times = settings.MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT
        return f"was counted out: their clock ran out {times} times in a row"


class SeatSocket(models.Model):
    """One open socket of a seated player. Its consumer refreshes `last_seen` while it lives, so
    the sockets of a web process that crashed (and never said goodbye) can be told apart and
    counted out (presence.count_out_dead_sockets)."""

    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="sockets")
    channel_name = models.CharField(max_length=200, unique=True)
    last_seen = models.DateTimeField(db_index=True)


class MatchAction(models.Model):
    class Source(models.TextChoices):
        BROWSER = "browser", "Browser"
        API = "api", "HTTP bot"
        SANDBOX = "sandbox", "Uploaded bot"
        HOUSE = "house", "House bot"
        TIMEOUT = "timeout", "Clock ran out"

    # No index of its own: the unique (match, seq) index starts with it (migration 0015).
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions", db_index=False)
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.JSONField(encoder=Encoder, decoder=Decoder)
    events = models.JSONField(
        default=list, encoder=Encoder, decoder=Decoder, help_text="The history entries this action added."
    )
    source = models.CharField(max_length=8, choices=Source.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seq"]
        constraints = [models.UniqueConstraint(fields=["match", "seq"], name="one_action_per_sequence_number")]


class ChatMessage(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=300)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at"]
