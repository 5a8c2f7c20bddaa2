"""Tables from creation to the end: create, join, leave, add bots, start, forfeit, finish or abort.

Every write locks the match row inside a transaction; events go out on commit
so nobody sees a change that was rolled back.
"""

import secrets
from collections import namedtuple
from dataclasses import dataclass
from datetime import datetime, timedelta
from operator import attrgetter

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.engine import IllegalAction, get_game
from games.matches import broadcast, bulk, clocks, rows, scheduling
from games.matches.errors import MatchError
from games.matches.models import Match, Seat
from games.registry import bot_names

MAX_CLOCK_MS = 24 * 3600 * 1000
# Every column of a started match and of its seats (the database assigns the seats' ids).
MATCH_COLUMNS = tuple(field.attname for field in Match._meta.concrete_fields)
match_row = attrgetter(*MATCH_COLUMNS)  # a match's values in that order, as a tuple
SEAT_COLUMNS = tuple(field.attname for field in Seat._meta.concrete_fields if not field.primary_key)
SEAT_DEFAULTS = {field.attname: field.get_default() for field in Seat._meta.concrete_fields if not field.primary_key}
# A seat about to be written: its row (every column but `user`) and its account, which the players'
# kinds read. A tuple, not a Seat: planning 10,000 first wake-ups reads a few fields of each, and
# a model instance costs more to build than everything else done with it.
NewSeat = namedtuple("NewSeat", (*SEAT_COLUMNS, "user"))


MAX_OPEN_TABLES = 5


def locked(match_id: int) -> Match:
    try:
        return Match.objects.select_for_update().get(pk=match_id)
    except Match.DoesNotExist:
        raise MatchError("not_found", "There is no such match.") from None


def create_match(
    *,
    game: str,
    players: int,
    host=None,
    options: dict | None = None,
    ranked: bool = False,
    clock: str = Match.Clock.NONE,
    clock_initial_ms: int = 0,
    clock_increment_ms: int = 0,
    seed: int | None = None,
) -> Match:
    """An open table; the host (if any) takes seat 0. A host has at most MAX_OPEN_TABLES waiting
    at once: one account's tables must not fill the lobby's list and push everyone else's out."""
    options = checked_options(game, players, options, ranked)
    check_clock(clock, clock_initial_ms, clock_increment_ms)
    if ranked and host is not None and clock == Match.Clock.NONE and not get_game(game).realtime:
        # Nothing would end a game its loser walks away from: they could keep only their wins.
        raise MatchError("bad_request", "A ranked table needs a clock, so that every game ends: choose one.", "clock")
    if host is not None and open_tables_of(host.bot_owner_id or host.pk) >= MAX_OPEN_TABLES:
        raise MatchError(
            "too_many_tables",
            f"You have {MAX_OPEN_TABLES} tables waiting for players: start one, or leave one, before opening another.",
        )
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            players=players,
            options=options,
            ranked=ranked,
            host=host,
            clock=clock,
            clock_initial_ms=clock_initial_ms,
            clock_increment_ms=clock_increment_ms,
            seed=secrets.randbits(62) if seed is None else seed,
        )
        if host is not None:
            Seat.objects.create(match=match, number=0, user=host)
    return match


@dataclass(frozen=True)
class SeatedTable:
    """One match to start at once: each seat's fields in seat order (user, and house_bot or
    code_version for bots that play here), its options, and a seed only where a test or a
    replay needs a known deal."""

    seats: list[dict]
    options: dict | None = None
    seed: int | None = None


def start_seated_match(
    *, game: str, seats: list[dict], now: datetime, options: dict | None = None, seed: int | None = None, **table
) -> Match:
    """A match filled in the given seat order and started at once (ranked queue, challenges, rematches)."""
    return start_seated_matches(game=game, tables=[SeatedTable(seats, options, seed)], now=now, **table)[0]


def start_seated_matches(
    *,
    game: str,
    tables: list[SeatedTable],
    now: datetime,
    ranked: bool = False,
    clock: str = Match.Clock.NONE,
    clock_initial_ms: int = 0,
    clock_increment_ms: int = 0,
) -> list[Match]:
    """Matches filled in the given seat orders and started at once, in a few queries however
    many there are (a tournament round of thousands): the matches' ids are reserved first, then
    the matches and the seats each go in one plain-SQL statement (bulk.insert_many), and the
    wake-ups go to the broker together after commit. No state is pushed: nobody can hold a
    socket to a match that did not exist before the commit, and whoever opens one is sent its
    whole state. Call inside the caller's transaction."""
    check_clock(clock, clock_initial_ms, clock_increment_ms)
    created = timezone.now()
    with transaction.atomic():
        ids = bulk.reserve_ids(Match, len(tables))
        matches, seat_rows = [], []
        for match_id, table in zip(ids, tables, strict=True):
            players = len(table.seats)
            match = bulk.unsaved(
                Match,
                id=match_id,
                game=game,
                players=players,
                options=checked_options(game, players, table.options, ranked),
                ranked=ranked,
                clock=clock,
                clock_initial_ms=clock_initial_ms,
                clock_increment_ms=clock_increment_ms,
                seed=secrets.randbits(62) if table.seed is None else table.seed,
                created_at=created,
            )
            state = begin(match, now)
            seats = [seated(match, number, **fields) for number, fields in enumerate(table.seats)]
            # Planned before the insert, so each row is written once: a new match has no history
            # and no question out, so its first wake-up needs nothing from the database.
            scheduling.plan_next(match, state, seats)
            matches.append(match)
            seat_rows += [seat[:-1] for seat in seats]
        bulk.insert_many(Match, MATCH_COLUMNS, list(map(match_row, matches)))
        bulk.insert_many(Seat, SEAT_COLUMNS, seat_rows)
        transaction.on_commit(lambda: scheduling.queue_wakeups(matches))
    for match in matches:
        match._state.adding = False  # written: saving it again updates the row
    return matches


def seated(match: Match, number: int, user, **fields) -> NewSeat:
    """A new seat's row; a house bot plays only a bot account's seat (the admin once put HardBot on
    a person's rated tournament seat: their rating moved 20 points with neither of them moving)."""
    if fields.get("house_bot") and not user.is_bot:
        raise MatchError("bad_request", "A house bot plays only its own account's seat, never a person's.")
    values = {"match_id": match.pk, "number": number, "user_id": user.pk, "clock_ms": opening_bank(match), **fields}
    return NewSeat(**(SEAT_DEFAULTS | values), user=user)


def checked_options(game: str, players: int, options: dict | None, ranked: bool) -> dict:
    """The table's options completed with the game's defaults, or a MatchError that says what is wrong."""
    try:
        options = get_game(game).clean_options(players, options)
    except IllegalAction as error:
        raise MatchError("bad_request", str(error), "options") from None
    if ranked and players < 2:
        raise MatchError("bad_request", "Solo games are not rated: a ranked table needs at least 2 seats.", "players")
    return options


def open_tables_of(owner_id: int) -> int:
    """Tables waiting for players hosted by the person or by any of their bots (each bot is an
    account of its own: five bots must not make six people's worth of tables)."""
    return Match.objects.filter(Q(host_id=owner_id) | Q(host__bot_owner_id=owner_id), status=Match.Status.OPEN).count()


def check_clock(clock: str, initial_ms: int, increment_ms: int) -> None:
    if clock not in Match.Clock.values:
        raise MatchError("bad_request", f"Clock must be one of {', '.join(Match.Clock.values)}.", "clock")
    if not 0 <= initial_ms <= MAX_CLOCK_MS or clock != Match.Clock.NONE and initial_ms < 1000:
        raise MatchError("bad_request", "A clock needs between 1 second and 24 hours.", "clock_initial_ms")
    if not 0 <= increment_ms <= 600_000:
        raise MatchError("bad_request", "The increment must be between 0 and 10 minutes.", "clock_increment_ms")


def join_match(match_id: int, user) -> Seat:
    with transaction.atomic():
        match = locked(match_id)
        seats = list(match.seats.select_related("user"))
        check_open(match)
        if any(seat.user_id == user.pk for seat in seats):
            raise MatchError("already_seated", "You already have a seat at this table.")
        if match.ranked and any(same_owner(seat.user, user) for seat in seats):
            raise MatchError("same_owner", "A person and their bots (or two bots of one owner) do not meet ranked.")
        if match.ranked and user.is_bot and any(seat.user.is_bot for seat in seats):
            raise MatchError(
                "bots_meet_elsewhere",
                "Bots meet each other in ranked play through the queue, the bot ladder, tournaments and challenges.",
            )
        seat = Seat.objects.create(match=match, number=free_seat(match, seats), user=user)
        transaction.on_commit(lambda: broadcast.send_table_update(match.pk))
    return seat


def add_house_bot(match_id: int, by_user, bot_name: str) -> Seat:
    """Fill an empty seat with one of the game's house bots (host only); a game against the
    computer is casual, so not at a ranked table (a player could keep the wins and walk away
    from the rest)."""
    with transaction.atomic():
        match = locked(match_id)
        check_open(match)
        check_host(match, by_user)
        if match.ranked:
            raise MatchError("bad_request", "Games against the computer are casual: open a casual table for them.")
        seat = seat_house_bot(match, bot_name)
        transaction.on_commit(lambda: broadcast.send_table_update(match.pk))
    return seat


def seat_house_bot(match: Match, bot_name: str) -> Seat:
    """A house bot in the next free seat; a second copy at the table is a second account."""
    if bot_name not in bot_names(match.game):
        choices = ", ".join(bot_names(match.game))
        raise MatchError("bad_request", f"No house bot {bot_name!r}; choose from {choices}.", "bot")
    seats = list(match.seats.all())
    copy = 1 + sum(seat.house_bot == bot_name for seat in seats)
    return Seat.objects.create(
        match=match, number=free_seat(match, seats), user=house_bot_user(bot_name, copy), house_bot=bot_name
    )


def house_bot_user(bot_name: str, copy: int = 1):
    """Each house bot is an account, so it climbs each game's ladder like anybody."""
    username = house_bot_username(bot_name, copy)
    user, _ = get_user_model().objects.get_or_create(username=username, defaults={"is_bot": True})
    return user


def house_bot_username(bot_name: str, copy: int = 1) -> str:
    """ "RandomBot", and "RandomBot2" for a second copy at one table."""
    return f"{bot_name.capitalize()}Bot" + (str(copy) if copy > 1 else "")


def same_owner(one, other) -> bool:
    """A person and their own bots, or two bots of one owner: one interest, so they never meet in a
    ranked match (the ranked queue, ranked tables), which would farm the ladder. Organizers'
    tournaments are exempt."""
    return (one.bot_owner_id or one.pk) == (other.bot_owner_id or other.pk)


def leave_match(match_id: int, user, now: datetime | None = None) -> None:
    """Leaving an open table frees the seat (and hands on host powers); leaving a running match forfeits it."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked(match_id)
        seat = match.seat_of(user)
        if seat is None:
            raise MatchError("not_seated", "You have no seat at this table.")
        if match.status == Match.Status.OPEN:
            seat.delete()
            people = match.seats.filter(house_bot="").order_by("number")
            if match.host_id == user.pk:  # host powers go to the next person seated, not with the leaver
                match.host = next((other.user for other in people), None)
                match.save(update_fields=["host"])
            if not people.exists():
                match.status = Match.Status.ABORTED
                match.save(update_fields=["status"])
            transaction.on_commit(lambda: broadcast.send_table_update(match.pk))
        elif match.status == Match.Status.RUNNING:
            forfeit(match, seat, now, resigned=True)
        else:
            raise MatchError("not_running", "This match is over.")


def start_match(match_id: int, by_user, now: datetime | None = None) -> Match:
    now = now or timezone.now()
    with transaction.atomic():
        match = locked(match_id)
        check_open(match)
        if by_user is not None:
            check_host(match, by_user)
        seats = list(match.seats.select_related("user"))
        if len(seats) != match.players:
            raise MatchError("not_full", f"The table needs {match.players} players and has {len(seats)}.")
        state = begin(match, now)
        for seat in seats:
            seat.clock_ms = opening_bank(match)
        Seat.objects.bulk_update(seats, ["clock_ms"])
        scheduling.plan_next(match, state, seats)
        match.save()
        transaction.on_commit(lambda: after_change(match, state, seats))
    return match


def begin(match: Match, now: datetime):
    """Deal the first position and set the clocks running (in memory: the caller writes them,
    and gives each seat its `opening_bank`); returns the engine state. No snapshot is stored:
    the match's seed deals that position again whenever it is loaded before the first move
    (Match.load_state)."""
    state = match.new_game()
    match.status = Match.Status.RUNNING
    # A real-time race starts at "go", after the get-ready countdown: game time 0 is then.
    go = now + timedelta(milliseconds=settings.REALTIME_GET_READY_MS) if match.engine.realtime else now
    match.started_at = match.turn_started_at = go
    return state


def opening_bank(match: Match) -> int:
    """Each seat's time in the bank when the match starts."""
    return match.clock_initial_ms if match.clock == Match.Clock.PER_GAME else 0


def forfeit(match: Match, seat: Seat, now: datetime, resigned: bool = False, counted_out: bool = False) -> None:
    """The seat loses (resigned by the player, counted out at the table by its clock, or forfeited
    by absence or time); a house bot plays its turns so the others can finish (locked match)."""
    seat.forfeited_at = now
    seat.gone_at = match.history_length  # the table's history and the replay say it there
    seat.resigned = resigned
    seat.counted_out = counted_out
    seat.house_bot = seat.house_bot or "random"
    seat.save(update_fields=["forfeited_at", "gone_at", "resigned", "counted_out", "house_bot"])
    seats = list(match.seats.select_related("user"))
    state = match.load_state()
    active = [s.number for s in seats if s.forfeited_at is None]
    if len(active) < 2 and match.players > 1:
        finish_match(match, state, seats, now, ranking=[active] if active else [])
    else:
        scheduling.plan_next(match, state, seats)
        match.save()
        transaction.on_commit(lambda: after_change(match, state, seats))


def has_moved(match: Match, number: int) -> bool:
    """Has the seat made a move of its own in the match (what a berserk must come before)?"""
    return match.actions.filter(seat=number).exists()


def halve_bank(match_id: int, user, now: datetime | None = None) -> Seat:
    """The player gives up half of their clock's bank before their first move (an arena's
    berserk, which the event rewards and allows: it calls this only where its rules do). The
    others' clocks do not change; everyone is sent the new clocks."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked(match_id)
        seats = list(match.seats.select_related("user"))
        seat = next((s for s in seats if s.user_id == getattr(user, "pk", None)), None)
        if seat is None or seat.forfeited_at is not None:
            raise MatchError("not_seated", "You have no seat in play at this table.")
        if match.status != Match.Status.RUNNING or match.clock != Match.Clock.PER_GAME:
            raise MatchError("bad_request", "Only a running game with a clock per game has a bank to halve.")
        if has_moved(match, seat.number):
            raise MatchError("too_late", "Too late: a clock is halved only before its player's first move.")
        if seat.clock_ms < match.clock_initial_ms:
            raise MatchError("already_halved", "Your clock is halved already.")
        state = match.load_state()
        half = seat.clock_ms // 2
        if seat.number in match.engine.to_act(state) and now >= match.turn_started_at + timedelta(milliseconds=half):
            raise MatchError("too_late", "Too late: half of your time has gone already.")
        seat.clock_ms = half
        seat.save(update_fields=["clock_ms"])
        scheduling.plan_next(match, state, seats)
        match.save(update_fields=["wake_at"])
        transaction.on_commit(lambda: after_change(match, state, seats))
    return seat


def abort_match(match_id: int, now: datetime | None = None) -> Match:
    """End a running match with no result, as an organizer closes a dead table: nobody wins,
    it is not rated, and whatever listens for ended matches hears of it (a tournament scores it
    as a game not played)."""
    now = now or timezone.now()
    with transaction.atomic():
        match = locked(match_id)
        if match.status != Match.Status.RUNNING:
            raise MatchError("not_running", "This match is not running.")
        state = match.load_state()
        end(match, state, list(match.seats.select_related("user")), now, Match.Status.ABORTED)
    return match


def finish_match(match: Match, state, seats: list[Seat], now: datetime, ranking: list[list[int]] | None = None) -> None:
    """Record the result and hand it on (locked match). The clock's moves win nothing: after those
    who played come seats nobody came to, then forfeits (latest first), then seats whose player came
    and never moved, as an event counts them; where none of those still in played, they tie (every
    seat, where the one left alone by the others' forfeits made no move of their own, nor did they
    and none resigned)."""
    result = match.engine.result(state) if ranking is None else {"ranking": ranking, "scores": {}}
    gone = sorted((s for s in seats if s.forfeited_at), key=lambda s: s.forfeited_at, reverse=True)
    gone_numbers = {s.number for s in gone}
    result["absent"] = match.absent_seats(seats)
    stayed_away = set(result["absent"]) - gone_numbers  # a short game over before the no-show time
    if len(stayed_away) + len(gone_numbers) == len(seats):
        stayed_away = set()
    kept = [[n for n in group if n not in gone_numbers | stayed_away] for group in result["ranking"]]
    away = [sorted(stayed_away)] if stayed_away else []
    result["ranking"] = [group for group in kept if group] + away + [[s.number] for s in gone]
    result["forfeited"] = [s.number for s in gone]
    result["resigned"] = [s.number for s in gone if s.resigned]
    match.result = result
    result["idle"] = idle = match.idle_seats()
    still_in = sorted(s.number for s in seats if s.number not in gone_numbers)
    took_no_part = set(result["absent"]) | set(idle)
    if took_no_part >= set(still_in) and len(still_in) > 1:
        # Nobody still in played (each never came or let the clock move): none of them won.
        result["ranking"] = [still_in] + [[s.number] for s in gone]
    elif len(still_in) == 1 and took_no_part >= {s.number for s in seats} and not result["resigned"]:
        # Left alone by seats that made no move of their own either (counted out by the clock, not
        # resigned: that still loses): alone ahead, it would read "won" for a game no seat played.
        result["ranking"] = [sorted(s.number for s in seats)]
    elif idle and len(idle) < len(seats):
        kept = [[n for n in group if n not in idle] for group in result["ranking"]]
        result["ranking"] = [group for group in kept if group] + [sorted(idle)]
    end(match, state, seats, now, Match.Status.FINISHED)


def end(match: Match, state, seats: list[Seat], now: datetime, status: str) -> None:
    """Stop the clocks and close the match (locked); once committed, everyone hears of it."""
    clocks.stop(match, seats, [] if match.engine.is_over(state) else match.engine.to_act(state), now)
    match.status = status
    match.finished_at = now
    match.wake_at = None
    # One round trip, written once (rows.py): the ORM's bulk update and save compiled theirs at
    # every match's end: 1.8 ms of the database thread's time (0.8 now), which the moves queued behind waited.
    rows.execute_all(*(rows.updated(seat, ("clock_ms",)) for seat in seats), rows.updated(match, rows.ENDED_FIELDS))
    transaction.on_commit(lambda: broadcast.send_state(match, state, seats))
    transaction.on_commit(lambda: scheduling.queue_wakeups([match]))
    transaction.on_commit(lambda: broadcast.after_sent(scheduling.queue_settling, match.pk))


def after_change(match: Match, state, seats: list[Seat], opened: int | None = None) -> None:
    """On commit of a change to a table: every seat its own view (`opened`: as send_state's),
    then the next wake-up's task."""
    broadcast.send_state(match, state, seats, opened)
    scheduling.queue_wakeups([match])


def check_open(match: Match) -> None:
    if match.status != Match.Status.OPEN:
        raise MatchError("not_open", "This table has already started or closed.")


def check_host(match: Match, user) -> None:
    if match.host_id != getattr(user, "pk", None):
        raise MatchError("not_host", "Only the host of this table may do that.")


def free_seat(match: Match, seats: list[Seat]) -> int:
    taken = {seat.number for seat in seats}
    for number in range(match.players):
        if number not in taken:
            return number
    raise MatchError("full", "This table is full.")
