"""A move's statements in plain SQL: the match locked and loaded with its seats (and their
accounts) in one SELECT, then one INSERT into the log and one UPDATE of the snapshot (a round's
new rows, in bulk: games/matches/bulk.py).

On PostgreSQL a move's writes go in one statement (`execute_all`), after the one that locks it,
and these statements bind their values on the server (`cursor`), so the server
prepares each once a connection has run it a few times instead of parsing and planning it
anew, and the client does not quote a 5 KB snapshot into the statement's text. Every round trip
is a wait on the process's one database thread, behind which the process's other moves queue
(docs/performance.md).

The ORM compiles every query anew, 0.5-1 ms of Python a statement (bench/move_cpu.py), more
than everything else a move does. These statements are the same on every move, so they are
written once; values still pass through each field's own conversions (the database's
converters and `from_db_value` on the way in, `get_db_prep_save` on the way out), except where
that conversion is known to return them as they are (`prepared`), and instances are filled as
`Model.__init__` fills them where it would do nothing else (`fillable`), so what is read and
written is exactly what the ORM would read and write.
"""

import json
import threading
from datetime import datetime
from functools import cache, lru_cache
from typing import NamedTuple

import psycopg
from django.db import connection, connections, models, transaction
from django.db.backends.sqlite3.base import SQLiteCursorWrapper
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from rest_framework.authtoken.models import Token

from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction, Seat, SeatSocket

SNAPSHOT_FIELDS = ("state", "history_start", "seq", "turn_started_at", "window_opened_at", "wake_at", "shown_at")
# What a match's end writes (lifecycle.end): its last snapshot (the move that ended it leaves it
# to the end) and its result; nothing else of a match changes after it has begun.
ENDED_FIELDS = (*SNAPSHOT_FIELDS, "status", "result", "finished_at")
LOG_FIELDS = ("match", "seq", "seat", "action", "source", "events", "created_at")


def lock_with_seats(match_id: int, token_of: tuple[str, int] | None = None) -> tuple[Match, list[Seat]]:
    """The match, locked until the transaction ends, and its seats in order with their users.
    The snapshot is read from the database only when this process did not write the one at the
    match's seq itself (`KNOWN`). `token_of` (a token socket's opening: its API token and
    account): whether the token still names the account is read in the same statement, as
    `match.token_names` (socket_auth.still_signed_in's question)."""
    db = connections[connection.alias]  # this thread's, looked up once rather than at every use
    known = KNOWN.get(match_id)
    with cursor(db) as selecting:
        selecting.execute(select_sql(token_of is not None), [known.seq, known.salt, *(token_of or ()), match_id])
        rows = selecting.fetchall()
    if not rows:
        raise MatchError("not_found", "There is no such match.")
    match_columns, seat_columns, user_columns = columns()
    first = rows[0]
    names = match_columns.names
    if (first[names.index("seq")], first[names.index("salt")]) == (known.seq, known.salt):
        first = list(first)
        first[names.index("state")] = known.text
    match = built(Match, match_columns, first, 0, db)
    seat_start = len(match_columns.names)
    user_start = seat_start + len(seat_columns.names)
    seats = []
    of_match, of_user = Seat.match.field, Seat.user.field
    for row in rows if rows[0][seat_start] is not None else []:  # no seat yet: one row, seat NULL
        seat = built(Seat, seat_columns, row, seat_start, db)
        # What `seat.user = ...` and `seat.match = ...` keep, without their checks of an instance
        # given from outside (the keys are the row's own): 1% of a move's instructions.
        of_user.set_cached_value(seat, built(of_user.related_model, user_columns, row, user_start, db))
        of_match.set_cached_value(seat, match)
        seats.append(seat)
    if token_of is not None:
        match.token_names = bool(first[-1])
    return match, seats


class Known(NamedTuple):
    """A match's snapshot as committed at `seq`; `salt`, the match's own secret, tells it from
    another match given the same id (a database emptied and filled again, as tests do)."""

    seq: int
    salt: str | None
    text: str | None


NOTHING_KNOWN = Known(-1, None, None)  # no seq is negative, and NULL equals no salt


class KnownSnapshots:
    """The snapshot this process last committed for each match, as its JSON text, by match id.
    A snapshot is written only with a new seq (a move), so the one at a given seq never changes
    once committed; the locking read asks the database for the snapshot only when the match's
    seq is not the one known here (another process moved it, or it was forgotten).
    Noted on commit, never before: a move rolled back leaves nothing here. The snapshot was
    read and sent by PostgreSQL once a seat row, with the JSON text parsed again each time
    (docs/performance.md); the text kept is decoded again for each move, so no move can change
    another's copy. The least recently noted go beyond `size`."""

    def __init__(self, size: int = 4096):
        self.size = size
        self.known: dict[int, Known] = {}
        self.lock = threading.Lock()  # the database thread, and a pool's threads (MATCH_WRITES)

    def get(self, match_id: int) -> Known:
        return self.known.get(match_id, NOTHING_KNOWN)

    def note(self, match_id: int, known: Known) -> None:
        with self.lock:
            self.known.pop(match_id, None)
            self.known[match_id] = known
            if len(self.known) > self.size:
                del self.known[next(iter(self.known))]


KNOWN = KnownSnapshots()


class Statement(NamedTuple):
    """A write of this module's, its values converted as the ORM would convert them."""

    sql: str
    params: list


def logged(match: Match, seat: int, action: dict, source: str, events: list, now: datetime) -> Statement:
    """The move's log row (the match's new seq)."""
    values = {"match": match.pk, "seq": match.seq, "seat": seat, "action": action, "source": source}
    values |= {"events": events, "created_at": now}
    return statement(insert_sql(MatchAction, LOG_FIELDS), MatchAction, LOG_FIELDS, values)


def updated(instance, names: tuple[str, ...]) -> Statement:
    """`instance.save(update_fields=names)` for a row known to exist (the snapshot:
    SNAPSHOT_FIELDS of a match; a seat's clock)."""
    model = type(instance)
    values = {name: getattr(instance, name) for name in names}
    made = statement(update_sql(model, names), model, names, values)
    return Statement(made.sql, [*made.params, instance.pk])


def snapshot(match: Match) -> Statement:
    """The UPDATE of the match's snapshot (SNAPSHOT_FIELDS), known here once it commits: its JSON
    text, as the field writes it, encoded once for the statement and for `KNOWN`."""
    written = updated(match, SNAPSHOT_FIELDS)
    known, match_id = Known(match.seq, match.salt, written.params[SNAPSHOT_FIELDS.index("state")]), match.pk
    transaction.on_commit(lambda: KNOWN.note(match_id, known))
    return written


def statement(sql: str, model, names: tuple[str, ...], values: dict) -> Statement:
    db = connections[connection.alias]
    return Statement(sql, [prepared(column, values[column.name], db) for column in written(model, names)])


def prepared(column: "Written", value, database):
    """`field.get_db_prep_save(value)`, by `converted`'s shortcuts for one value, NULL as it is,
    and an aware time by the database's own adapter alone (the field's checks are for naive
    ones): the ORM's way took 3-8 µs a value, a tenth of a move's writes."""
    kind = type(value)
    if kind is column.plain or (value is None and column.known):
        return value
    if column.encode is not None and kind in (dict, list):
        return column.encode(value)
    if column.moment and kind is datetime and value.tzinfo is not None:
        return database.ops.adapt_datetimefield_value(value)
    return column.field.get_db_prep_save(value, database)


def execute_all(*statements: Statement) -> None:
    """The statements in one round trip on PostgreSQL: one statement, the others in front of it
    as data-modifying WITH clauses (they see the rows as they were before it, so they must not
    touch the same rows). A pipeline sends them as one too, but waits on the socket for each,
    and every wait gives up the interpreter's lock to the event loop, which may keep it for
    the switch interval. SQLite, in the process, runs them in turn."""
    db = connections[connection.alias]
    with cursor(db) as writing:
        if db.vendor != "postgresql":
            for statement in statements:
                writing.execute(statement.sql, statement.params)
            return
        *first, last = statements
        sql = " ".join(f"WITH w{n} AS ({s.sql})" if n == 0 else f", w{n} AS ({s.sql})" for n, s in enumerate(first))
        writing.execute(f"{sql} {last.sql}", [value for statement in statements for value in statement.params])


def cursor(db):
    """A cursor of `db` (this thread's connection) for this module's statements: on PostgreSQL
    one that binds values on the server, which prepares a statement after a few runs on a
    connection (Django's binds them on the client). Django's wrapper all the same: its errors,
    its health check before a kept connection's first use, its query log under DEBUG."""
    if db.vendor not in ("postgresql", "sqlite"):
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    db.validate_thread_sharing()
    with db.wrap_database_errors:
        binding = psycopg.Cursor(db.connection) if db.vendor == "postgresql" else db.connection.cursor(SqliteCursor)
    return db.make_debug_cursor(binding) if db.queries_logged else db.make_cursor(binding)


class SqliteCursor(SQLiteCursorWrapper):
    """Django's SQLite cursor, turning a statement's `%s` marks into SQLite's `?` once a text
    (`qmarks`) rather than by a regular expression at every run: half the locking read's 90 µs
    went there."""

    def convert_query(self, query, *, param_names=None):
        return qmarks(query) if param_names is None else super().convert_query(query, param_names=param_names)


@lru_cache(maxsize=256)
def qmarks(query: str) -> str:
    return SQLiteCursorWrapper.convert_query(None, query)  # Django's conversion, which uses no cursor


def game_and_seat(match_id: int, user_id: int | None) -> tuple[str, int | None] | None:
    """The match's game and the user's seat number in it (None for anyone else), or None when
    there is no such match, in one statement: a visitor's socket opening, or the close of one
    whose opening failed before it heard its seat."""
    seat = Seat._meta.db_table
    with cursor(connections[connection.alias]) as reading:
        reading.execute(
            f"SELECT m.game, s.number FROM {Match._meta.db_table} m LEFT JOIN {seat} s"
            " ON s.match_id = m.id AND s.user_id = %s WHERE m.id = %s",
            [user_id, match_id],
        )
        return reading.fetchone()


def clock_moved(match_id: int) -> bool:
    """Has the clock made a move in the match for a seat whose time ran out? Asked of every
    socket's whole state, in one statement written once (the ORM's compiled query was a seventh
    of a socket's opening: docs/performance.md); an opening asks it with its count (`note_opening`)."""
    with cursor(connections[connection.alias]) as reading:
        reading.execute(f"SELECT {CLOCK_MOVED}", [match_id, MatchAction.Source.TIMEOUT.value])
        return bool(reading.fetchone()[0])


# `clock_moved`'s question; its parameters: the match, the clock's source.
CLOCK_MOVED = f"EXISTS (SELECT 1 FROM {MatchAction._meta.db_table} WHERE match_id = %s AND source = %s)"


def note_socket(seat_id: int, channel_name: str, now: datetime | None) -> int:
    """A socket of the seat opened (`now`: noted, or seen again) or closed (None: forgotten);
    how many the seat has now. One statement on PostgreSQL."""
    db = connections[connection.alias]
    table = SeatSocket._meta.db_table
    if now is None:
        change = Statement(f"DELETE FROM {table} WHERE channel_name = %s", [channel_name])
    else:
        change = socket_noted(seat_id, channel_name, now, db)
    with cursor(db) as writing:
        if db.vendor == "postgresql":  # the count sees the rows as before the change: the others, and this one
            writing.execute(
                f"WITH noted AS ({change.sql}) SELECT COUNT(*) + %s FROM {table} WHERE seat_id = %s"
                " AND channel_name <> %s",
                [*change.params, int(now is not None), seat_id, channel_name],
            )
        else:
            writing.execute(change.sql, change.params)
            writing.execute(f"SELECT COUNT(*) FROM {table} WHERE seat_id = %s", [seat_id])
        return writing.fetchone()[0]


def socket_noted(seat_id: int, channel_name: str, now: datetime, db) -> Statement:
    """The socket's row written, or its seat and time refreshed if it is there already."""
    seen = fields_of(SeatSocket, ("last_seen",))[0].get_db_prep_save(now, db)
    return Statement(
        f"INSERT INTO {SeatSocket._meta.db_table} (seat_id, channel_name, last_seen) VALUES (%s, %s, %s)"
        " ON CONFLICT (channel_name) DO UPDATE SET seat_id = EXCLUDED.seat_id, last_seen = EXCLUDED.last_seen",
        [seat_id, channel_name, seen],
    )


def note_opening(seat_id: int, channel_name: str, now: datetime, match_id: int, *writes: Statement) -> tuple[int, bool]:
    """A socket of the seat opened: noted (as `note_socket`'s), the seat's count stored, no
    longer disconnected, with `writes` (the match's wake-up); how many sockets the seat has now,
    and whether the clock has made a move in the match (`clock_moved`). One statement on
    PostgreSQL, run once the match is locked, so it sees every move and socket before it."""
    db = connections[connection.alias]
    table, seat_table = SeatSocket._meta.db_table, Seat._meta.db_table
    noted = socket_noted(seat_id, channel_name, now, db)
    clock = [match_id, MatchAction.Source.TIMEOUT.value]
    with cursor(db) as writing:
        if db.vendor != "postgresql":
            for each in (noted, *writes):
                writing.execute(each.sql, each.params)
            writing.execute(f"SELECT COUNT(*) FROM {table} WHERE seat_id = %s", [seat_id])
            count = writing.fetchone()[0]
            stored = f"UPDATE {seat_table} SET connections = %s, disconnected_at = NULL WHERE id = %s"
            writing.execute(stored, [count, seat_id])
            writing.execute(f"SELECT {CLOCK_MOVED}", clock)
            return count, bool(writing.fetchone()[0])
        # Every part sees the rows as before the statement: the seat's other sockets, and this one.
        counted = Statement(
            f"UPDATE {seat_table} SET connections = (SELECT COUNT(*) + 1 FROM {table} WHERE seat_id = %s"
            " AND channel_name <> %s), disconnected_at = NULL WHERE id = %s RETURNING connections",
            [seat_id, channel_name, seat_id],
        )
        parts = [noted, *writes, counted]
        sql = ", ".join(f"w{n} AS ({part.sql})" for n, part in enumerate(parts))
        writing.execute(
            f"WITH {sql} SELECT connections, {CLOCK_MOVED} FROM w{len(parts) - 1}",
            [value for part in parts for value in part.params] + clock,
        )
        count, moved = writing.fetchone()
        return count, moved


@cache
def fields_of(model, names: tuple[str, ...]) -> list:
    return [model._meta.get_field(name) for name in names]


class Written(NamedTuple):
    """A field as this module writes it: the type of the values its conversion returns unchanged
    (`converted`), its JSON encoding (as Django writes it: `json.dumps` with the field's encoder),
    whether it holds times, and whether NULL goes as it is (every kind named here)."""

    name: str
    field: models.Field
    plain: type | None
    encode: object
    moment: bool
    known: bool


@cache
def written(model, names: tuple[str, ...]) -> list[Written]:
    columns = []
    for name in names:
        field = model._meta.get_field(name)
        target = field.target_field if field.is_relation else field
        plain = {models.CharField: str, models.TextField: str, models.BooleanField: bool}.get(type(target))
        plain = int if isinstance(target, models.IntegerField) else plain
        encode = (field.encoder or json.JSONEncoder)().encode if isinstance(field, models.JSONField) else None
        moment = type(field) is models.DateTimeField
        columns.append(Written(name, field, plain, encode, moment, plain is not None or encode is not None or moment))
    return columns


class Columns(NamedTuple):
    """A model's concrete fields as read from a row: every attribute name, the fields the ORM
    converts on this database with their converters (the others are taken as they come), and
    whether an instance is built as `Model.__init__` builds it by filling its attributes."""

    names: list[str]
    converted: list[tuple[int, object, list]]
    filled: bool


def built(model, columns: Columns, row: tuple, start: int, db):
    """A model instance from its columns in `row`, converted as the ORM converts them."""
    values = list(row[start : start + len(columns.names)])
    for offset, field, converters in columns.converted:
        for convert in converters:
            values[offset] = convert(values[offset], field, db)
    if not columns.filled:
        return model.from_db(db.alias, columns.names, values)
    instance = model.__new__(model)
    instance.__dict__.update(zip(columns.names, values, strict=True))
    instance._state = state = ModelState()
    state.adding, state.db = False, db.alias
    return instance


def fillable(model) -> bool:
    """Does `Model.from_db` come to setting each field's attribute and the instance's state? It
    does for a model with no `__init__` or `from_db` of its own, no receiver of its pre_init or
    post_init signals (Django's ImageField has one), and no field whose attribute does more than
    keep its value (a file's does; a foreign key's forgets a cached object, which a new instance
    has not): 4% of a move's instructions went to the general way for five objects. Asked once,
    when the apps are ready (receivers connect there)."""
    own = model.__init__ is models.Model.__init__ and model.from_db.__func__ is models.Model.from_db.__func__
    signalled = pre_init.has_listeners(model) or post_init.has_listeners(model)
    keeping = (DeferredAttribute, ForeignKeyDeferredAttribute)
    plain = all(type(model.__dict__.get(field.attname)) in keeping for field in model._meta.concrete_fields)
    return own and not signalled and plain


@cache
def columns() -> tuple[Columns, Columns, Columns]:
    """Match, Seat and User columns, in the order `select_sql` reads them."""

    def converters(field, table: str) -> list:
        column = field.get_col(table)
        return connection.ops.get_db_converters(column) + column.get_db_converters(connection)

    def of(model) -> Columns:
        fields = model._meta.concrete_fields
        table = model._meta.db_table
        converted = [(offset, field, converters(field, table)) for offset, field in enumerate(fields)]
        return Columns([field.attname for field in fields], [each for each in converted if each[2]], fillable(model))

    return of(Match), of(Seat), of(Seat.user.field.related_model)


@cache
def select_sql(token_named: bool = False) -> str:
    """The locking read; its parameters: the seq and salt of the snapshot known here (`KNOWN`: it
    is then not read, NULL), with `token_named` a token and an account (does it name it: the
    last column), and the match."""
    match, seat, user = (model._meta.db_table for model in (Match, Seat, Seat.user.field.related_model))
    selected = ", ".join(
        f"CASE WHEN {match}.seq = %s AND {match}.salt = %s THEN NULL ELSE {match}.state END"
        if field.model is Match and field.name == "state"
        else f"{model._meta.db_table}.{connection.ops.quote_name(field.column)}"
        for model in (Match, Seat, Seat.user.field.related_model)
        for field in model._meta.concrete_fields
    )
    if token_named:
        selected += f", EXISTS (SELECT 1 FROM {Token._meta.db_table} WHERE key = %s AND user_id = %s)"
    lock = f" FOR UPDATE OF {match}" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {selected} FROM {match} LEFT JOIN {seat} ON {seat}.match_id = {match}.id"
        f" LEFT JOIN {user} ON {user}.id = {seat}.user_id WHERE {match}.id = %s ORDER BY {seat}.number{lock}"
    )


@cache
def insert_sql(model, names: tuple[str, ...]) -> str:
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in names)
    marks = ", ".join(["%s"] * len(names))
    return f"INSERT INTO {model._meta.db_table} ({columns}) VALUES ({marks})"


@cache
def update_sql(model, names: tuple[str, ...]) -> str:
    columns = [connection.ops.quote_name(model._meta.get_field(name).column) for name in names]
    assignments = ", ".join(f"{column} = %s" for column in columns)
    return f"UPDATE {model._meta.db_table} SET {assignments} WHERE id = %s"
