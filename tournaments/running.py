"""Running a tournament: start it, seat each round, score finished tables, move on, finish.

Celery calls these (tournaments/tasks.py): the beat tick starts due tournaments and
settles overdue Dobble choices, and every finished match is handed to
`record_match`. Each step locks the tournament row and looks at what is already
done, so a retried or duplicated task changes nothing. Matches are created and
played through the ordinary match service, and tournament matches are rated.

What differs between formats (how round 1 is seated, what a scored table earns and what
follows it) each tournament's format decides (`tournament.rules`, tournaments/formats/).
"""

import logging
from collections import namedtuple
from datetime import datetime, timedelta
from operator import attrgetter

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from botapi.services import seats_fields
from games.engine import get_game
from games.matches import broadcast, bulk, lifecycle, presence, wakeups
from games.matches.models import Match, Seat
from ratings.services import ladder_ratings
from tournaments import notices, scoring, seating
from tournaments.models import Entry, Table, Tournament

logger = logging.getLogger(__name__)


def start_due(now: datetime | None = None) -> int:
    """Start every scheduled tournament whose start time has come."""
    now = now or timezone.now()
    due = Tournament.objects.filter(status=Tournament.Status.SCHEDULED, starts_at__lte=now).values_list("pk", flat=True)
    for tournament_id in list(due):
        start(tournament_id, now)
    return len(due)


def start(tournament_id: int, now: datetime | None = None) -> Tournament:
    """Close entries and seat round 1, or cancel when too few entered."""
    now = now or timezone.now()
    prepare(tournament_id)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            return tournament
        tournament.left_out_at_start().delete()
        entries = list(tournament.entries.select_related("user"))
        minimum = get_game(tournament.game).smallest_table
        if len(entries) < minimum and tournament.rules.needs_a_table_to_start:
            tournament.status = Tournament.Status.CANCELLED
            tournament.cancelled_because = f"too few players came ({len(entries)} of the {minimum} a table needs)"
            tournament.save(update_fields=["status", "cancelled_because"])
            cancelled = f"{tournament.name} was cancelled at its start: {tournament.cancelled_because}. "
            notices.tell_entrants(tournament, cancelled)
            return tournament
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        rules = tournament.rules
        tournament.rounds = rules.rounds_for(len(entries))
        tournament.save()
        order = seating.set_seeds(tournament, entries, ladder_ratings(tournament.game, [e.user_id for e in entries]))
        rules.seat_first_round(order, now)
    return tournament


def prepare(tournament_id: int) -> None:
    """The format's slow work before the start, done before the start takes the lock."""
    tournament = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.SCHEDULED).first()
    if tournament is not None:
        tournament.rules.before_start()


# An entrant's account as seating a round reads it: its id and whether it is a bot, all that the
# seats, their players' kinds and the announcements read of it (10,000 User instances cost more
# than the rest of reading a round).
Account = namedtuple("Account", ("pk", "is_bot"))


@bulk.collector_paused()
def open_matches(tournament: Tournament, tables: list[Table], now: datetime) -> None:
    """Create and start the tables' matches through the match service, all in one go (a round
    of 5,000 tables takes a few queries), then save the tables: new ones in one insert
    (locked tournament)."""
    # Only what seats and announcements need: each entry's account and house bot, read by
    # tournament rather than by a list of 10,000 ids (every entry sits at a table of most rounds).
    entries = {
        pk: (Account(user_id, is_bot), house_bot)
        for pk, user_id, is_bot, house_bot in tournament.entries.values_list("pk", "user", "user__is_bot", "house_bot")
    }
    orders = [seat_order_of(tournament, table) for table in tables]
    players = [entry_id for order in orders for entry_id in order]  # each sits at one table
    fields = dict(zip(players, seats_fields([entries[e] for e in players]), strict=True))
    matches = lifecycle.start_seated_matches(
        game=tournament.game,
        tables=[
            lifecycle.SeatedTable([fields[e] for e in order], match_options(tournament, table))
            for table, order in zip(tables, orders, strict=True)
        ],
        now=now,
        ranked=True,
        **tournament.match_clock,
    )
    for table, match in zip(tables, matches, strict=True):
        table.match = match
    saved = [table for table in tables if table.pk is not None]
    insert_tables([table for table in tables if table.pk is None])
    Table.objects.bulk_update(saved, ["match", "mini_game", "choice"])
    found = [(table.match, [entries[e][0] for e in table.seating if not entries[e][1]]) for table in tables]
    about = tournament.round_name(tables[0].round) if tables else ""
    transaction.on_commit(lambda: broadcast.send_matches_found(found, about))


TABLE_COLUMNS = tuple(field.attname for field in Table._meta.concrete_fields)
table_row = attrgetter(*TABLE_COLUMNS)  # a table's values in that order, as a tuple


def insert_tables(tables: list[Table]) -> None:
    """New tables in one plain-SQL statement, their ids reserved first (a round of 5,000)."""
    for table, table_id in zip(tables, bulk.reserve_ids(Table, len(tables)), strict=True):
        table.pk = table_id
        table._state.adding = False
    bulk.insert_many(Table, TABLE_COLUMNS, list(map(table_row, tables)))


def match_options(tournament: Tournament, table: Table) -> dict:
    """The tournament's options, with the table's mini-game and what its format adds (in a
    Dobble series, who deals)."""
    options = dict(tournament.options)
    if table.mini_game:
        options["mini_game"] = table.mini_game
    return tournament.rules.match_options(table, options)


def score_tournament_table(sender, match_id: int, **kwargs) -> None:
    """The match service's `match_finished` event (apps.py connects it), sent in the Celery task
    games.matches.tasks.settle_match: score the match's table, if it has one, and move on."""
    record_match(match_id)


def record_match(match_id: int, now: datetime | None = None) -> bool:
    """Score an ended tournament match (finished or cancelled) and move its tournament on;
    False when there is nothing (left) to do: not a tournament match, still running, or
    already scored. This is the tournaments' one entry point for "a match ended". It runs in
    the Celery task games.matches.tasks.settle_match (through `score_tournament_table`); a table
    left unscored, in the beat task tournaments.tasks.tournament_tick (`score_stalled`) or on
    an organizer's resume. The points are the format's: `table_points` -> `rules.seat_points`."""
    now = now or timezone.now()
    table = Table.objects.filter(match_id=match_id).only("tournament_id").first()
    if table is None:
        return False
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=table.tournament_id)
        table = Table.objects.select_related("match").get(pk=table.pk)
        if table.scored or table.match.status not in (Match.Status.FINISHED, Match.Status.ABORTED):
            return False
        # Never before the match that ended it: one played out in simulated time ends ahead of the clock.
        now = max(now, table.match.finished_at or now)
        if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.PAUSED):
            return False  # cancelled by its organizer: the match stands (and is rated), the tournament stops
        seat_order = seat_order_of(tournament, table)
        tournament.rules.write_scores(table, table_points(tournament, table.match, seat_order))
        stored = table.match.result or {}
        if tournament.no_show_minutes:  # absent to the end of a game shorter than the no-show time
            for number in set(stored.get("absent", [])) - set(stored.get("forfeited", [])):
                withdraw_no_show(table.pk, number)
        for number in stored.get("idle", []):  # came and made no move: a no-show too, whatever the no-show time
            withdraw_no_show(table.pk, number, made_no_move=True)
        table.scored = True
        # Paused: the standings count it at once; what follows it is seated on resume (move_on).
        table.moved_on = tournament.status == Tournament.Status.RUNNING
        table.save(update_fields=["scored", "moved_on"])
        if table.moved_on:
            tournament.rules.after_scored(table, seat_order, now)
    return True


def move_on(tournament: Tournament, now: datetime) -> None:
    """On resume: seat what follows the tables scored during the pause, one at a time, so only
    the last of a round seats the next one (locked tournament)."""
    for table in tournament.tables.filter(moved_on=False).select_related("match").order_by("round", "number"):
        table.moved_on = True
        table.save(update_fields=["moved_on"])
        tournament.rules.after_scored(table, seat_order_of(tournament, table), now)


def score_stalled(now: datetime | None = None) -> int:
    """Beat: score tables whose match ended without being heard: cancelled matches (nobody
    announces those), and finished ones whose scoring failed. Each table on its own, so a
    table that cannot be scored never holds up the others."""
    ended = Q(match__status=Match.Status.ABORTED) | Q(
        match__status=Match.Status.FINISHED, match__settled_at__isnull=False
    )
    live = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    stalled = Table.objects.filter(ended, scored=False, tournament__status__in=live)
    done = 0
    for match_id in list(stalled.values_list("match_id", flat=True)):
        try:
            done += record_match(match_id, now)
        except Exception:
            logger.exception("scoring the table of match %s failed; it is tried again on the next tick", match_id)
    return done


def finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    notices.tell_entrants(tournament, f"{tournament.name} is over. ", "See the final standings")


def table_points(tournament: Tournament, match: Match, seat_order: list[int]) -> dict[int, tuple[float, str]]:
    """What each entry at the table earned and how (scoring.py), by the tournament's format."""
    players = len(seat_order)
    result = scoring.counted_result(tournament, match.result if match.status == Match.Status.FINISHED else None)
    kind = scoring.kinds(result, players)
    rules = tournament.rules
    by_seat = rules.seat_points(match, result, players)
    # Seats whose player never came, or came and made no move of their own, get nothing, even where
    # the clock won their game for them, both made none or the others' forfeits left them alone
    # (FIDE: when both players are absent, both lose); where a game takes points away (Dobble's
    # well and hot potato), no better than the worst played.
    not_played = {seat for seat, how in kind.items() if how in (scoring.FORFEITED, scoring.WALKOVER)}
    absent = set()
    if not_played and not rules.lowest_wins:
        absent = (match.absentees() | set(match.idle_seats())) & not_played
    nothing = min([0.0, *by_seat.values()])
    return {
        entry_id: (nothing, scoring.FORFEITED)
        if seat in absent
        else (by_seat.get(seat, 0.0), kind[seat] if seat in by_seat else scoring.UNPLAYED)
        for seat, entry_id in enumerate(seat_order)
    }


def forfeit_no_shows(now: datetime | None = None) -> int:
    """Beat: at a running tournament's tables, a person who has neither opened their table nor
    moved `no_show_minutes` after it started forfeits, as a club forfeits a player who does not
    turn up. Bot accounts are left to the clock: a bot that polls over HTTP holds no socket and
    may wait minutes for its first turn. How many seats forfeited."""
    now = now or timezone.now()
    candidates = Seat.objects.filter(
        match__status=Match.Status.RUNNING,
        match__tournament_table__tournament__status=Tournament.Status.RUNNING,
        match__tournament_table__tournament__no_show_minutes__gt=0,
        user__is_bot=False,
        house_bot="",
        code_version=None,
        connections=0,
        disconnected_at=None,
        forfeited_at=None,
    ).values_list(
        "match_id", "number", "match__started_at", "match__tournament_table__tournament__no_show_minutes",
        "match__tournament_table",
    )
    forfeited = 0
    for match_id, number, started_at, minutes, table_id in list(candidates):
        if started_at + timedelta(minutes=minutes) <= now and forfeit_no_show(table_id, match_id, number, now):
            forfeited += 1
    return forfeited


def forfeit_no_show(table_id: int, match_id: int, number: int, now: datetime) -> bool:
    """The absent seat forfeits and, in the same transaction, its player is withdrawn: the
    forfeit may end the round's last table, and the next round is seated once that commits."""
    with transaction.atomic():
        withdraw_no_show(table_id, number)  # the tournament locked before the match, as the organizer's actions do
        if presence.forfeit_if_never_came(match_id, number, now):
            return True
        transaction.set_rollback(True)  # the player came meanwhile: not withdrawn either
        return False


def withdraw_no_show(table_id: int, number: int, made_no_move: bool = False) -> None:
    """FIDE's rule for a player absent without notice: withdrawn, not paired in the following
    rounds, unless the organizer pairs them again (a player who explains). So is a player who came
    and made no move of their own (`made_no_move`): an arbiter withdraws them alike. A format that
    does not seat the field again every round keeps its tables whatever happens, and a tournament
    may choose to pair them on."""
    table = Table.objects.get(pk=table_id)
    tournament = Tournament.objects.select_for_update().get(pk=table.tournament_id)
    if tournament.withdraw_no_shows and tournament.rules.reseats:
        Entry.objects.filter(pk=table.seating[number], withdrawn_after=None).update(
            withdrawn_after=table.round, no_show_round=table.round, made_no_move=made_no_move
        )


def waiting(tournament: Tournament, round_number: int) -> bool:
    """A table of the round is still to be played, or scored during a pause and not yet moved on."""
    return tournament.tables.filter(Q(scored=False) | Q(moved_on=False), round=round_number).exists()


def seat_order_of(tournament: Tournament, table: Table) -> list[int]:
    """A table's entries in seat order (fixed tables turn each round)."""
    return tournament.rules.seat_order(table.seating, table.round)


def play_out(tournament_id: int, max_moves: int = 1_000_000) -> Tournament:
    """Play every match of a started all-bot tournament to its end in simulated time (demo data,
    tests): always the move due first across its tables, so that its matches end, and its rounds
    move on, in the order of their times."""
    for _ in range(max_moves):
        running = Match.objects.filter(tournament_table__tournament_id=tournament_id, status=Match.Status.RUNNING)
        match = running.order_by("wake_at", "pk").only("wake_at", "turn_started_at").first()
        if match is None:
            return Tournament.objects.get(pk=tournament_id)
        if match.wake_at is None:
            raise RuntimeError(f"{match} waits for a person; it cannot be played out")
        wakeups.wake(match.pk, now=max(match.wake_at, match.turn_started_at))
    raise RuntimeError(f"tournament {tournament_id} did not end in {max_moves} moves")
