"""Arena: players join any time while it runs and sit down again as soon as their game ends;
points per game, doubled on a streak; the leaderboard is the standings (docs/tournaments.md,
"Arena"; the rules themselves, pure, in tournaments/arena.py).

Every change happens under the tournament's lock, through the ordinary paths: a wave of
tables is opened with `running.open_matches` (the match service), a finished game reaches
`running.record_match` through the match service's signal, which calls `write_scores` and
`after_scored` here. A wave runs when a table is scored, when someone joins or comes back
(a Celery task after the commit: eager in embedded mode) and on every beat tick (`tick`), which
also ends arenas whose time is up: no game starts after the end, games under way finish and
count, and the arena is over when the last of them is scored.
"""

from datetime import datetime

from django.db import transaction
from django.db.models import Sum
from django.urls import reverse
from django.utils import timezone
from django.utils.timezone import localtime

from games.engine import get_game
from games.matches import lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match, Seat
from games.matches.occasions import Offer
from tournaments import arena, notices, running, scoring, tasks, tiebreaks
from tournaments.formats.base import TournamentFormat
from tournaments.models import Entry, Score, Table, Tournament
from tournaments.rounds import ordinal

SCORING = (
    "a win is worth 2 points and a draw 1; at tables of three or more, first place alone is a win and "
    "finishing ahead of at least half the others counts as a draw. Win two games in a row and every game "
    "after counts double until you fail to win one."
)
BERSERK_WORDS = " Berserk: halve your own clock before your first move, and a win earns 1 more point."
MOST_MINUTES = 24 * 60


class Arena(TournamentFormat):
    slug = "arena"
    name = "Arena"
    label = "Arena (join any time; a new game as soon as yours ends)"
    computes_its_rounds = True  # a wave of tables is a round; there is no count of them to choose
    needs_a_table_to_start = False  # people join while it runs
    runs_until_a_time = True
    offers_berserk = True
    decides_who_starts = False  # tables are seated by waiting time and score: who starts is the table option's
    corrections_refused = "An arena's points follow from each game and the streak before it: they are not corrected."
    settings = {"": ("duration_minutes",), "2": ("berserk",)}

    def errors(self) -> dict[str, str]:
        errors = super().errors()
        if not 1 <= self.tournament.duration_minutes <= MOST_MINUTES:
            errors["duration_minutes"] = "An arena runs from 1 minute to a day."
        return errors

    # Words

    def summary(self) -> str:
        tables, _ = self.tables_and_rounds()
        minutes = self.tournament.duration_minutes
        length = f"{minutes // 60} hour{'s' if minutes >= 120 else ''}" if minutes % 60 == 0 else f"{minutes} minutes"
        return f"Arena, {length} at {tables}"

    def scoring_words(self) -> str:
        words = f"Arena: {SCORING}"
        return words + BERSERK_WORDS if self.tournament.may_berserk else words

    def round_name(self, number: int) -> str:
        """A wave of tables is no round to the players: their game is of the arena."""
        return self.tournament.name

    def early_finish(self) -> str:
        return ""

    def next_words(self, table: Table, entry: Entry) -> str:
        tournament = self.tournament
        if tournament.status == Tournament.Status.RUNNING and timezone.now() >= tournament.ends_at:
            return "The arena's time is up: the final standings come when the last games end."
        if entry.paused:
            return PAUSED
        return "The arena seats you again as soon as an opponent is free."

    def standing(self, entry: Entry) -> str:
        """ "you: 14 points, 3rd of 9 · on a streak · 23 minutes left", for the player's table."""
        tournament = self.tournament
        totals = totals_of(tournament)
        points, _ = totals.get(entry.pk, (0, 0))
        place = ordinal(places(totals)[entry.pk])
        words = [f"you: {points} point{'' if points == 1 else 's'}, {place} of {len(totals)}"]
        if last_streaks(tournament, [entry.pk]).get(entry.pk, 0) >= arena.STREAK_START:
            words.append("on a streak")
        if entry.paused:
            words.append("paused")
        words.append(time_left(tournament, timezone.now()))
        return " · ".join(words)

    def seat_notes(self, table: Table) -> dict[int, str]:
        """A berserk player's seat says so to everyone at the table."""
        return {number: "berserk" for number, entry_id in enumerate(table.seating) if entry_id in table.berserk}

    # Running

    def rounds_for(self, players: int) -> int:
        return 0

    def resumed(self, now: datetime) -> None:
        self.seat_waiting(now)

    @classmethod
    def tick(cls, now: datetime | None = None) -> int:
        """The beat: a wave in every running arena (players whose rematch wait is over, a short
        table's fill wait), and the end of those whose time is up; how many arenas it saw."""
        now = now or timezone.now()
        arenas = Tournament.objects.filter(format=cls.slug, status=Tournament.Status.RUNNING)
        found = list(arenas.values_list("pk", flat=True))
        for tournament_id in found:
            seat_now(tournament_id, now)
        return len(found)

    def seat_first_round(self, order: list[int], now: datetime) -> None:
        """Everyone entered waits from the start; the first wave seats them."""
        self.tournament.entries.filter(paused=False).update(waiting_since=now)
        self.seat_waiting(now)

    def entered(self, entry: Entry) -> None:
        """A player who joins while it runs waits from now, and a wave comes once this commits
        (before the start, the start seats everyone)."""
        if self.tournament.status != Tournament.Status.RUNNING:
            return
        entry.waiting_since = timezone.now()
        entry.save(update_fields=["waiting_since"])
        call_a_wave(self.tournament.pk)

    def write_scores(self, table: Table, earned: dict[int, tuple[float, str]]) -> None:
        """The arena's points (arena.score_table), each with the player's streak after it. A player
        who never came, or came and made no move of their own, is paused, as they are clearly not
        at their screen."""
        tournament, match, order = self.tournament, table.match, table.seating
        result = scoring.counted_result(tournament, match.result if match.status == Match.Status.FINISHED else None)
        streaks = last_streaks(tournament, order)
        if result is None:  # stopped with no result: counts for nobody, streaks stand
            found = [arena.Earned(0, streaks.get(entry, 0), arena.NO_GAME) for entry in order]
        else:
            absent, idle = set(result.get("absent", [])), set(result.get("idle", []))
            seats = [
                arena.SeatBefore(streaks.get(e, 0), e in table.berserk, n in absent, n in idle)
                for n, e in enumerate(order)
            ]
            found = arena.score_table(scoring.full_ranking(result, len(order)), seats)
        Score.objects.bulk_create(
            Score(
                tournament=tournament,
                entry_id=entry_id,
                round=table.round,
                table=table,
                points=got.points,
                kind=KINDS[got.outcome],
                streak=got.streak,
            )
            for entry_id, got in zip(order, found, strict=True)
        )
        for outcome, why in AWAY.items():
            away = [entry_id for entry_id, got in zip(order, found, strict=True) if got.outcome == outcome]
            if away:
                Entry.objects.filter(pk__in=away, house_bot="").update(paused=True, waiting_since=None)
                notices.tell_entrants(
                    tournament, f"{tournament.name}: {why}, so you are paused. ", "Rejoin the arena", entries=away
                )

    def after_scored(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """Its players wait for the next wave, which comes at once (or the arena ends)."""
        tournament = self.tournament
        tournament.entries.filter(pk__in=seat_order, paused=False, withdrawn_after=None).update(waiting_since=now)
        if now >= tournament.ends_at:
            self.end_when_played(now)
        else:
            self.seat_waiting(now)

    def seat_waiting(self, now: datetime) -> None:
        """One wave: the players free now sit down at the tables arena.seat gives (locked tournament)."""
        tournament = self.tournament
        if tournament.status != Tournament.Status.RUNNING or now >= tournament.ends_at:
            return
        field = waiting_field(tournament, now)
        if not field:
            return
        tables = arena.seat(
            field,
            table_size=tournament.table_size,
            smallest=get_game(tournament.game).smallest_table,
            now=now.timestamp(),
            anyone_playing=tournament.tables.filter(scored=False).exists(),
        )
        if not tables:
            return
        wave = tournament.current_round + 1
        running.open_matches(
            tournament,
            [Table(tournament=tournament, round=wave, number=n, seating=s) for n, s in enumerate(tables, start=1)],
            now,
        )
        Entry.objects.filter(pk__in=[e for seats in tables for e in seats]).update(waiting_since=None)

    def end_when_played(self, now: datetime) -> None:
        """After its time: over once no game of it is left to score; nobody played, it is cancelled."""
        tournament = self.tournament
        if tournament.tables.filter(scored=False).exists():
            return
        tournament.entries.update(waiting_since=None)
        if tournament.tables.exists():
            running.finish(tournament, now)
            return
        tournament.status = Tournament.Status.CANCELLED
        tournament.cancelled_because = "nobody played a game in it"
        tournament.save(update_fields=["status", "cancelled_because"])

    # Entries

    def accepts_late_entries(self) -> bool:
        return self.tournament.status == Tournament.Status.RUNNING and timezone.now() < self.tournament.ends_at

    def withdrawal_refused(self) -> str:
        return "In an arena you pause instead: your points stay, and you can rejoin while it runs."

    def entry_refused(self, user) -> str:
        """One arena at a time (docs/tournaments.md, "One arena at a time"): not while the player is
        in another whose time overlaps this one's and is not paused there."""
        now = timezone.now()
        clash = next(
            (other for other in other_arenas(user, self.tournament) if overlap(other, self.tournament, now)), None
        )
        if clash is None:
            return ""
        until = localtime(clash.ends_at)
        if clash.status == Tournament.Status.SCHEDULED:
            starts = localtime(clash.starts_at)
            return (
                f"You are already in {clash.name}, from {starts:%H:%M} to {until:%H:%M %Z}, which overlaps this "
                "arena: you play one arena at a time. Leave that one on its page first, or join this one later."
            )
        return (
            f"You are playing in {clash.name} until {until:%H:%M %Z}, which overlaps this arena: you play one arena "
            "at a time. Pause there first (your points stay), then join this one."
        )

    def offer(self, table: Table, entry: Entry) -> Offer | None:
        """Berserk, while the game runs, before the player's first move (as on Lichess), and not
        twice; the table takes the button away once they move."""
        if not self.tournament.may_berserk or entry.pk not in table.seating or entry.pk in table.berserk:
            return None
        match = table.match
        if match is None or match.status != Match.Status.RUNNING:
            return None
        number = match.seats.filter(user_id=entry.user_id).values_list("number", flat=True).first()
        if number is None or lifecycle.has_moved(match, number):
            return None
        return Offer(
            "Berserk",
            reverse("arena-berserk", args=[self.tournament.pk]),
            f"Halve your clock now, before your first move: a win earns {arena.BERSERK_BONUS} more point.",
            until_first_move=True,
        )

    # Standings

    def default_tiebreaks(self) -> list[str]:
        """Equal points: more games won first (the leaderboard too); then a shared place."""
        return [tiebreaks.WINS]


PAUSED = "You are paused: your points stay; press “Rejoin the arena” on its page to be seated again."


def totals_of(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Every entry's points and games won (a game counted won is one that left a streak)."""
    totals = {pk: (0, 0) for pk in tournament.entries.values_list("pk", flat=True)}
    for entry_id, points, kind, streak in tournament.scores.values_list("entry_id", "points", "kind", "streak"):
        won = kind == scoring.PLAYED and streak > 0
        got, wins = totals[entry_id]
        totals[entry_id] = (got + int(points), wins + won)
    return totals


def places(totals: dict) -> dict:
    """Most points first, then most games won; equal on both share a place."""
    return {key: 1 + sum(other > mine for other in totals.values()) for key, mine in totals.items()}


def time_left(tournament: Tournament, now: datetime) -> str:
    """The arena's time in words: "23 minutes left", or what happens now that it is over."""
    if tournament.status == Tournament.Status.FINISHED:
        return "over: the standings are final"
    if tournament.status == Tournament.Status.PAUSED:
        return "paused by its organizer"
    seconds = (tournament.ends_at - now).total_seconds()
    if seconds <= 0:
        return "time is up: the last games are being played out"
    if seconds < 60:
        return "less than a minute left"
    minutes = int(seconds // 60)  # whole minutes still to play, as a clock shows them
    return f"{minutes} minute{'' if minutes == 1 else 's'} left"


# Why a player is paused after a game: not at their screen.
AWAY = {
    arena.ABSENT: "you did not come to your game",
    arena.NO_MOVE: "you made no move of your own in your game (the arena counts it as lost)",
}

KINDS = {
    arena.WON: scoring.PLAYED,
    arena.DREW: scoring.PLAYED,
    arena.LOST: scoring.PLAYED,
    arena.ABSENT: scoring.FORFEITED,
    arena.NO_MOVE: scoring.FORFEITED,
    arena.NO_GAME: scoring.UNPLAYED,
}


def last_streaks(tournament: Tournament, entry_ids: list[int]) -> dict[int, int]:
    """Each entry's wins in a row after their last game (0 before their first)."""
    streaks: dict[int, int] = {}
    scores = tournament.scores.filter(entry_id__in=entry_ids).order_by("entry_id", "-round")
    for entry_id, streak in scores.values_list("entry_id", "streak"):
        streaks.setdefault(entry_id, streak)
    return streaks


def waiting_field(tournament: Tournament, now: datetime) -> list[arena.Waiting]:
    """The entries free for a table now: waiting, not paused, and (people) not playing another
    game anywhere on the site, which they finish first; with their points and last table."""
    waiting = list(
        tournament.entries.filter(paused=False, withdrawn_after=None)
        .exclude(waiting_since=None)
        .values_list("pk", "user_id", "house_bot", "waiting_since")
    )
    people = [user_id for _, user_id, bot, _ in waiting if not bot]
    busy = set(
        Seat.objects.filter(user_id__in=people, match__status=Match.Status.RUNNING, forfeited_at=None).values_list(
            "user_id", flat=True
        )
    )
    waiting = [row for row in waiting if row[1] not in busy]
    ids = [row[0] for row in waiting]
    points = dict(
        tournament.scores.filter(entry_id__in=ids)
        .values("entry_id")
        .annotate(total=Sum("points"))
        .values_list("entry_id", "total")
    )
    last: dict[int, frozenset[int]] = {}
    tables = tournament.scores.filter(entry_id__in=ids).exclude(table=None).order_by("entry_id", "-round")
    for entry_id, seating in tables.values_list("entry_id", "table__seating"):
        last.setdefault(entry_id, frozenset(seating) - {entry_id})
    return [
        arena.Waiting(pk, int(points.get(pk) or 0), since.timestamp(), last.get(pk, frozenset()), bool(bot))
        for pk, _, bot, since in waiting
    ]


def call_a_wave(tournament_id: int) -> None:
    """Seat waiting players once the current transaction commits (a Celery task: eager embedded)."""
    transaction.on_commit(lambda: tasks.arena_wave.delay(tournament_id))


def seat_now(tournament_id: int, now: datetime | None = None) -> None:
    """A wave for one arena, or its end once its time is up (the task and the beat call this)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.RUNNING:
            return
        rules = Arena(tournament)
        if now >= tournament.ends_at:
            rules.end_when_played(now)
        else:
            rules.seat_waiting(now)


def other_arenas(user, tournament: Tournament) -> list[Tournament]:
    """The arenas not over in which `user` is entered and not paused, besides `tournament`."""
    return list(
        Tournament.objects.filter(
            format=Arena.slug,
            status__in=[Tournament.Status.SCHEDULED, *Tournament.LIVE],
            entries__user=user,
            entries__paused=False,
            entries__withdrawn_after=None,
        ).exclude(pk=tournament.pk)
    )


def overlap(one: Tournament, other: Tournament, now: datetime) -> bool:
    """Do the two arenas' times still to come overlap (each from its start, or now, to its end)?"""
    return max(now, one.started_at or one.starts_at, other.started_at or other.starts_at) < min(
        one.ends_at, other.ends_at
    )


def entry_of(tournament: Tournament, user) -> Entry:
    entry = tournament.entries.filter(user=user).first()
    if entry is None or entry.withdrawn_after is not None:
        raise MatchError("not_entered", "You are not in this arena.")
    return entry


def pause_player(tournament_id: int, user) -> Entry:
    """The player steps away: not seated again (the game under way is played on) until they rejoin."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entry = entry_of(tournament, user)
        entry.paused, entry.waiting_since = True, None
        entry.save(update_fields=["paused", "waiting_since"])
        return entry


def rejoin(tournament_id: int, user, now: datetime | None = None) -> Entry:
    """Back from a pause: waiting from now (or, at a table, once its game ends)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entry = entry_of(tournament, user)
        if tournament.status not in Tournament.LIVE and not tournament.is_open:
            raise MatchError("closed", "This arena is over.")
        refused = Arena(tournament).entry_refused(user)
        if refused:
            raise MatchError("refused", refused)
        at_a_table = any(
            entry.pk in seats for seats in tournament.tables.filter(scored=False).values_list("seating", flat=True)
        )
        entry.paused = False
        entry.waiting_since = now if tournament.status == Tournament.Status.RUNNING and not at_a_table else None
        entry.save(update_fields=["paused", "waiting_since"])
        call_a_wave(tournament.pk)
        return entry


def go_berserk(tournament_id: int, user, now: datetime | None = None) -> Table:
    """Halve one's own clock in the arena game under way, for a point more on a win (before
    one's first move: the match service checks that, and halves the bank)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.may_berserk:
            raise MatchError("bad_request", "This arena has no berserk.")
        entry = entry_of(tournament, user)
        table = next(
            (
                t
                for t in tournament.tables.filter(scored=False, match__status=Match.Status.RUNNING)
                if entry.pk in t.seating
            ),
            None,
        )
        if table is None:
            raise MatchError("not_playing", "You have no game under way in this arena.")
        if entry.pk in table.berserk:
            raise MatchError("already_halved", "You went berserk in this game already.")
        lifecycle.halve_bank(table.match_id, user, now)
        table.berserk = [*table.berserk, entry.pk]
        table.save(update_fields=["berserk"])
        others = [entry_id for entry_id in table.seating if entry_id != entry.pk]
        notices.tell_entrants(
            tournament, f"{tournament.name}: {user.username} went berserk: their clock is halved, and a win earns "
            f"them {arena.BERSERK_BONUS} more point. ", entries=others,
        )  # fmt: skip
        return table
