"""Running a tournament: start it, seat each round, score finished tables, move on, finish.

Celery calls these (tournaments/tasks.py): the beat tick starts due tournaments and
settles overdue Dobble choices, and every finished match is handed to
`record_match`. Each step locks the tournament row and looks at what is already
done, so a retried or duplicated task changes nothing. Matches are created and
played through the ordinary match service, and tournament matches are rated.

Formats (docs/tournaments.md):
- Swiss: every round reseats players by standings; points per table on a 0..1 scale.
- Round robin (two seats): everyone meets everyone once (circle method).
- Dobble series: fixed tables play one mini-game per round, opening with the towering
  inferno; each mini-game's loser chooses the next; points by the Dobble point system.
- Rounds total (Dudab Buba): fixed tables play one game per round; lowest total wins.
"""

import logging
from collections import namedtuple
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from botapi.services import seats_fields
from games.dobble.points import SERIES_OPENER, next_chooser
from games.engine import get_game
from games.matches import broadcast, lifecycle, presence, rows, wakeups
from games.matches.errors import MatchError
from games.matches.models import Match, Seat
from ratings.services import ladder_ratings
from tournaments import brackets, knockout, notices, pairing, scoring, seating, services, size_scale
from tournaments.models import Entry, Score, Table, Tournament

CHOICE_SECONDS = 30
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
    measure_table_sizes_ahead(tournament_id)
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if tournament.status != Tournament.Status.SCHEDULED:
            return tournament
        tournament.left_out_at_start().delete()
        entries = list(tournament.entries.select_related("user"))
        minimum = get_game(tournament.game).smallest_table
        if len(entries) < minimum:
            tournament.status = Tournament.Status.CANCELLED
            tournament.cancelled_because = f"too few players came ({len(entries)} of the {minimum} a table needs)"
            tournament.save(update_fields=["status", "cancelled_because"])
            cancelled = f"{tournament.name} was cancelled at its start: {tournament.cancelled_because}. "
            notices.tell_entrants(tournament, cancelled)
            return tournament
        tournament.status = Tournament.Status.RUNNING
        tournament.started_at = now
        if tournament.format == Tournament.Format.ROUND_ROBIN:
            tournament.rounds = pairing.round_robin_rounds(len(entries))
        knockout_through = tournament.advance or tournament.table_size // 2
        if tournament.format == Tournament.Format.KNOCKOUT:
            tournament.rounds = knockout.rounds_needed(len(entries), tournament.table_size, knockout_through)
        tournament.save()
        order = seating.set_seeds(tournament, entries, ladder_ratings(tournament.game, [e.user_id for e in entries]))
        if tournament.format == Tournament.Format.KNOCKOUT:
            open_knockout_tables(tournament, 1, brackets.seat_first_round(tournament, order, minimum), now)
        elif tournament.fixed_tables:
            sizes, _ = pairing.table_sizes(len(order), tournament.table_size, minimum)
            if tournament.format == Tournament.Format.ROUNDS_TOTAL:
                tournament.size_factors = size_scale.dudab_factors(tournament.options, set(sizes))
                tournament.save(update_fields=["size_factors"])
            opener = first_mini_game(tournament)
            tables = [
                Table(tournament=tournament, round=1, number=number, seating=seats, mini_game=opener)
                for number, seats in enumerate(pairing.snake(order, sizes), start=1)
            ]
            open_matches(tournament, tables, now)
        else:
            seat_round(tournament, 1, now)
    return tournament


def measure_table_sizes_ahead(tournament_id: int) -> None:
    """A rounds total's size factors take seconds of simulated games to measure (size_scale.py):
    measured before the start takes the tournament's lock, which on SQLite holds every other
    write of the site, so nothing waits for them ("database is locked" under load); the start
    then finds them in the process's cache."""
    tournament = Tournament.objects.filter(pk=tournament_id, status=Tournament.Status.SCHEDULED).first()
    if tournament is None or tournament.format != Tournament.Format.ROUNDS_TOTAL:
        return
    playing = tournament.entries.count() - tournament.left_out_at_start().count()
    minimum = get_game(tournament.game).smallest_table
    if playing >= minimum:
        sizes, _ = pairing.table_sizes(playing, tournament.table_size, minimum)
        size_scale.dudab_factors(tournament.options, set(sizes))


def seat_round(tournament: Tournament, round_number: int, now: datetime) -> None:
    """Swiss or round-robin tables for one round, with byes scored at once (locked tournament)."""
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        tables, sitting_out = round_robin_schedule(tournament, round_number)
        gone = set(tournament.entries.exclude(withdrawn_after=None).values_list("pk", flat=True))
        # An odd field: everyone sits out one round, for nothing, as a crosstable leaves it blank.
        # Whoever meets a withdrawn player wins by forfeit, as FIDE scores the games a withdrawal leaves.
        walkovers = [e for t in tables if gone & set(t) for e in t if e not in gone]
        byes = [(e, 0.0) for e in sitting_out if e not in gone] + [(e, 1.0) for e in walkovers]
        tables = [t for t in tables if not gone & set(t)]
    else:
        tables, swiss_byes = seating.swiss_round(tournament, round_number)
        byes, walkovers = [(e, 1.0) for e in swiss_byes], []
    open_matches(
        tournament,
        [
            Table(tournament=tournament, round=round_number, number=number, seating=seats)
            for number, seats in enumerate(tables, start=1)
        ],
        now,
    )
    Score.objects.bulk_create(
        [
            Score(tournament=tournament, entry_id=entry_id, round=round_number, points=points, kind=scoring.BYE)
            for entry_id, points in byes
        ]
    )
    notices.tell_sitting_out(tournament, round_number, byes, set(walkovers))


# An entrant's account as seating a round reads it: its id and whether it is a bot, all that the
# seats, their players' kinds and the announcements read of it (10,000 User instances cost more
# than the rest of reading a round).
Account = namedtuple("Account", ("pk", "is_bot"))


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
    engine = get_game(tournament.game)
    clock = {}
    if tournament.turn_seconds and not engine.realtime:
        clock = {"clock": Match.Clock.PER_TURN, "clock_initial_ms": tournament.turn_seconds * 1000}
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
        **clock,
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


def insert_tables(tables: list[Table]) -> None:
    """New tables in one plain-SQL statement, their ids reserved first (a round of 5,000)."""
    for table, table_id in zip(tables, rows.reserve_ids(Table, len(tables)), strict=True):
        table.pk = table_id
        table._state.adding = False
    rows.insert_many(Table, TABLE_COLUMNS, [tuple(getattr(table, name) for name in TABLE_COLUMNS) for table in tables])


def match_options(tournament: Tournament, table: Table) -> dict:
    """The tournament's options, with the table's mini-game and, in a Dobble series, who deals."""
    options = dict(tournament.options)
    if table.mini_game:
        options["mini_game"] = table.mini_game
    if tournament.format == Tournament.Format.DOBBLE_SERIES and table.round > 1:
        options["last_winner"] = last_winner_seat(tournament, table)
    return options


def last_winner_seat(tournament: Tournament, table: Table) -> int:
    """The seat, in this table's order, of whoever won the table's previous mini-game
    (the well deals from them); the first seat when that game had no winner."""
    previous = (
        Table.objects.select_related("match")
        .filter(tournament=tournament, number=table.number, round=table.round - 1)
        .first()
    )
    order = seat_order_of(tournament, table)
    if previous is None or previous.match is None or not (previous.match.result or {}).get("ranking"):
        return 0
    winner = seat_order_of(tournament, previous)[previous.match.result["ranking"][0][0]]
    return order.index(winner) if winner in order else 0


def record_finished_match(sender, match_id: int, **kwargs) -> None:
    """The match service's `match_finished` event (apps.py subscribes)."""
    record_match(match_id)


def record_match(match_id: int, now: datetime | None = None) -> bool:
    """Score an ended tournament match (finished or cancelled) and move its tournament on;
    False when there is nothing (left) to do: not a tournament match, still running, or
    already scored. This is the tournaments' one entry point for "a match ended"."""
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
        write_scores(tournament, table, table_points(tournament, table.match, seat_order))
        stored = table.match.result or {}
        if tournament.no_show_minutes:  # absent to the end of a game shorter than the no-show time
            for number in set(stored.get("absent", [])) - set(stored.get("forfeited", [])):
                withdraw_no_show(table.pk, number)
        table.scored = True
        # Paused: the standings count it at once; what follows it is seated on resume (move_on).
        table.moved_on = tournament.status == Tournament.Status.RUNNING
        table.save(update_fields=["scored", "moved_on"])
        if table.moved_on:
            advance(tournament, table, seat_order, now)
    return True


def move_on(tournament: Tournament, now: datetime) -> None:
    """On resume: seat what follows the tables scored during the pause, one at a time, so only
    the last of a round seats the next one (locked tournament)."""
    for table in tournament.tables.filter(moved_on=False).select_related("match").order_by("round", "number"):
        table.moved_on = True
        table.save(update_fields=["moved_on"])
        advance(tournament, table, seat_order_of(tournament, table), now)


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


def write_scores(tournament: Tournament, table: Table, earned: dict[int, tuple[float, str]]) -> None:
    """One Score per entry and round; a knockout series adds each game's points to the first's."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        earned = dict(earned)
        for score in Score.objects.filter(tournament=tournament, round=table.round, entry_id__in=list(earned)):
            score.points += earned.pop(score.entry_id)[0]
            score.save(update_fields=["points"])
    Score.objects.bulk_create(
        [
            Score(tournament=tournament, entry_id=entry_id, round=table.round, table=table, points=points, kind=kind)
            for entry_id, (points, kind) in earned.items()
        ]
    )


def open_knockout_tables(tournament: Tournament, round_number: int, tables: list[Table], now: datetime) -> None:
    """Open the matches of a knockout round (a withdrawn player's seats left at once, so the
    others go on); its byes are written as bye scores."""
    open_matches(tournament, tables, now)
    gone = {e for e in tournament.entries.exclude(withdrawn_after=None).select_related("user") if any(
        e.pk in table.seating for table in tables)}  # fmt: skip
    for entry in gone:
        services.leave_games(tournament, entry, now)
    byes = tournament.tables.filter(round=round_number).values_list("seating", flat=True)
    Score.objects.bulk_create(
        [
            Score(tournament=tournament, entry_id=seats[0], round=round_number, points=1.0, kind=scoring.BYE)
            for seats in byes
            if len(seats) == 1
        ]
    )


def advance_knockout(tournament: Tournament, table: Table, now: datetime) -> None:
    """A series goes on, or the round is over: seat the next one, or finish after the final."""
    two_seats = tournament.table_size == 2
    slots = brackets.bracket(tournament)[table.round - 1]
    slot = next(s for s in slots if table in s.tables)
    if two_seats and slot.winner is None:
        open_matches(tournament, [brackets.next_game(tournament, slot)], now)
        return
    if not all(brackets.decided(s, two_seats) for s in slots) or waiting(tournament, table.round):
        return
    minimum = get_game(tournament.game).smallest_table
    groups = brackets.following_round(tournament, slots, minimum)
    if groups is None:
        finish(tournament, now)
        return
    tables = brackets.seat_pairings(tournament, table.round + 1, groups)
    open_knockout_tables(tournament, table.round + 1, tables, now)


def advance(tournament: Tournament, table: Table, seat_order: list[int], now: datetime) -> None:
    """After a table is scored: its next mini-game or game, the next round, or the end."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        advance_knockout(tournament, table, now)
        return
    if tournament.fixed_tables and table.round < tournament.rounds:
        next_table(tournament, table, seat_order, now)
    elif not tournament.fixed_tables and not waiting(tournament, table.round):
        if table.round < tournament.rounds:
            seat_rounds_from(tournament, table.round + 1, now)
            return
    if round_complete(tournament, tournament.rounds):
        finish(tournament, now)


def seat_rounds_from(tournament: Tournament, round_number: int, now: datetime) -> None:
    """Seat the round. A Swiss field left too small for one table (the others withdrawn) plays no
    more rounds, and a bye a round for nobody to play is no point earned: the tournament finishes.
    A round that seats no table (a round robin's pairings all with withdrawn players, which the
    others win by forfeit) is over as it is seated, since no game would ever end it, so the next
    one is seated at once."""
    minimum = get_game(tournament.game).smallest_table
    for number in range(round_number, tournament.rounds + 1):
        field = tournament.entries.filter(withdrawn_after=None).count()
        if tournament.format != Tournament.Format.ROUND_ROBIN and field < minimum:
            break
        seat_round(tournament, number, now)
        if tournament.tables.filter(round=number).exists():
            return
    finish(tournament, now)


def finish(tournament: Tournament, now: datetime) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    notices.tell_entrants(tournament, f"{tournament.name} is over. ", "See the final standings")


def round_robin_schedule(tournament: Tournament, round_number: int) -> tuple[list[list[int]], list[int]]:
    """A round robin's pairs and sitter-out of a round, withdrawn players included, by entry order."""
    order = list(tournament.entries.order_by("pk").values_list("pk", flat=True))
    return pairing.round_robin_pairs(order, round_number)


def withdrawn_opponent(tournament: Tournament, round_number: int, entry_id: int) -> int:
    """A round robin's 1-point bye is the game against a withdrawn player: who, by the schedule."""
    tables, _ = round_robin_schedule(tournament, round_number)
    return next(other for table in tables if entry_id in table for other in table if other != entry_id)


def table_points(tournament: Tournament, match: Match, seat_order: list[int]) -> dict[int, tuple[float, str]]:
    """What each entry at the table earned and how (scoring.py), by the tournament's format."""
    players = len(seat_order)
    result = scoring.counted(tournament, match.result if match.status == Match.Status.FINISHED else None)
    kind = scoring.kinds(result, players)
    if tournament.format == Tournament.Format.DOBBLE_SERIES:
        by_seat = scoring.dobble(match.options.get("mini_game", SERIES_OPENER), result, players)
    elif tournament.format == Tournament.Format.ROUNDS_TOTAL:
        round_scores = match.load_state().round_scores if result is not None and match.dealt else []
        by_seat = scoring.dudab(result, players, round_scores) or {}
    else:
        by_seat = scoring.swiss(result, players)
    # Seats whose player never came get nothing, even where the clock won their game for them or
    # the others' forfeits left them alone (FIDE: when both players are absent, both lose); where
    # a game takes points away (Dobble's well and hot potato), no better than the worst played.
    not_played = {seat for seat, how in kind.items() if how in (scoring.FORFEITED, scoring.WALKOVER)}
    absent = set() if tournament.lowest_wins or not not_played else match.absentees() & not_played
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


def withdraw_no_show(table_id: int, number: int) -> None:
    """FIDE's rule for a player absent without notice: withdrawn, not paired in the following
    rounds, unless the organizer pairs them again (a player who explains). A knockout or a
    series keeps its tables whatever happens, and a tournament may choose to pair them on."""
    table = Table.objects.get(pk=table_id)
    tournament = Tournament.objects.select_for_update().get(pk=table.tournament_id)
    if tournament.withdraw_no_shows and tournament.format in services.RESEATING:
        Entry.objects.filter(pk=table.seating[number], withdrawn_after=None).update(
            withdrawn_after=table.round, no_show_round=table.round
        )


def next_table(tournament: Tournament, table: Table, seat_order: list[int], now: datetime) -> None:
    """The same players' next round; in a Dobble series the loser first chooses the mini-game."""
    following = Table.objects.create(
        tournament=tournament, round=table.round + 1, number=table.number, seating=table.seating
    )
    if tournament.format != Tournament.Format.DOBBLE_SERIES:
        open_matches(tournament, [following], now)
        return
    chooser = Entry.objects.select_related("user").get(pk=seat_order[next_chooser(table.match.result)])
    following.chooser = chooser
    following.choose_by = now + timedelta(seconds=CHOICE_SECONDS)
    following.save()
    if chooser.house_bot:
        settle_choice(tournament, following, default_mini_game(following), Table.Choice.HOUSE_BOT, now)
    elif table.match.seats.filter(user_id=chooser.user_id, code_version__isnull=False).exists():
        # Uploaded code and webhooks answer a match's positions only (docs/protocol/dobble.md).
        settle_choice(tournament, following, default_mini_game(following), Table.Choice.BOT_CODE, now)
    else:
        notices.tell_choice(tournament, table, following, CHOICE_SECONDS, default_mini_game(following))


def choose(tournament_id: int, user, mini_game: str, now: datetime | None = None) -> Table:
    """The chooser names the next mini-game of their table's series."""
    now = now or timezone.now()
    allowed = get_game("dobble").options["mini_game"].choices
    if mini_game not in allowed:
        raise MatchError("bad_request", f"Choose one of {', '.join(allowed)}.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        table = tournament.tables.filter(match=None, chooser__user=user).first()
        if tournament.status != Tournament.Status.RUNNING:
            table = None
        if table is None:
            raise MatchError("not_your_choice", "There is no mini-game for you to choose now.")
        settle_choice(tournament, table, mini_game, Table.Choice.CHOSEN, now)
    return table


def choose_overdue(now: datetime | None = None) -> int:
    """Beat: a chooser who let the time run out gets the default mini-game."""
    now = now or timezone.now()
    overdue = Table.objects.filter(
        match=None, choose_by__lte=now, tournament__status=Tournament.Status.RUNNING
    ).values_list("pk", "tournament_id")
    for table_id, tournament_id in list(overdue):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            table = Table.objects.get(pk=table_id)
            if table.match_id is None:
                settle_choice(tournament, table, default_mini_game(table), Table.Choice.TIMED_OUT, now)
    return len(overdue)


def settle_choice(tournament: Tournament, table: Table, mini_game: str, how: str, now: datetime) -> None:
    """Open the table's next mini-game, recording how it was chosen (the chooser stays on the table)."""
    table.mini_game, table.choice = mini_game, how
    open_matches(tournament, [table], now)


def default_mini_game(table: Table) -> str:
    """The mini-game this table has played least so far (ties in the rules' order)."""
    played = list(
        Table.objects.filter(tournament_id=table.tournament_id, number=table.number, round__lt=table.round).values_list(
            "mini_game", flat=True
        )
    )
    choices = get_game("dobble").options["mini_game"].choices
    return min(choices, key=lambda name: (played.count(name), choices.index(name)))


def first_mini_game(tournament: Tournament) -> str:
    return SERIES_OPENER if tournament.format == Tournament.Format.DOBBLE_SERIES else ""


def waiting(tournament: Tournament, round_number: int) -> bool:
    """A table of the round is still to be played, or scored during a pause and not yet moved on."""
    return tournament.tables.filter(Q(scored=False) | Q(moved_on=False), round=round_number).exists()


def round_complete(tournament: Tournament, round_number: int) -> bool:
    """Every table of that round has been played and scored (for fixed tables: every table's)."""
    tables = tournament.tables.filter(round=round_number)
    if not tables.exists() or tables.filter(scored=False).exists():
        return False
    return not tournament.fixed_tables or tables.count() == tournament.tables.filter(round=1).count()


def seat_order_of(tournament: Tournament, table: Table) -> list[int]:
    return pairing.rotate(table.seating, table.round) if tournament.fixed_tables else table.seating


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
