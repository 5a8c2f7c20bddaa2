"""A move's statements in plain SQL: the match locked and loaded with its seats (and their
accounts) in one SELECT, then one INSERT into the log and one UPDATE of the snapshot.

The ORM compiles every query anew, 0.5-1 ms of Python a statement (bench/move_cpu.py), more
than everything else a move does. These statements are the same on every move, so they are
written once; values still pass through each field's own conversions (the database's
converters and `from_db_value` on the way in, `get_db_prep_save` on the way out), so what is
read and written is exactly what the ORM would read and write.
"""

from datetime import datetime
from functools import cache

from django.db import connection

from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction, Seat

SNAPSHOT_FIELDS = ("state", "history_start", "seq", "turn_started_at", "window_opened_at", "wake_at")
LOG_FIELDS = ("match", "seq", "seat", "action", "source", "events", "created_at")


def lock_with_seats(match_id: int) -> tuple[Match, list[Seat]]:
    """The match, locked until the transaction ends, and its seats in order with their users."""
    with connection.cursor() as cursor:
        cursor.execute(select_sql(), [match_id])
        rows = cursor.fetchall()
    if not rows:
        raise MatchError("not_found", "There is no such match.")
    match_columns, seat_columns, user_columns = columns()
    match = built(Match, match_columns, rows[0], 0)
    seats = []
    for row in rows if rows[0][len(match_columns)] is not None else []:  # no seat yet: one row, seat NULL
        seat = built(Seat, seat_columns, row, len(match_columns))
        seat.user = built(Seat.user.field.related_model, user_columns, row, len(match_columns) + len(seat_columns))
        seat.match = match
        seats.append(seat)
    return match, seats


def insert_action(match: Match, seat: int, action: dict, source: str, events: list, now: datetime) -> None:
    values = {"match": match.pk, "seq": match.seq, "seat": seat, "action": action, "source": source}
    values |= {"events": events, "created_at": now}
    write(MatchAction, insert_sql(), [values[name] for name in LOG_FIELDS], LOG_FIELDS)


def update_snapshot(match: Match) -> None:
    write(Match, update_sql(), [getattr(match, name) for name in SNAPSHOT_FIELDS], SNAPSHOT_FIELDS, match.pk)


def write(model, sql: str, values: list, names: tuple[str, ...], *key) -> None:
    fields = [model._meta.get_field(name) for name in names]
    params = [field.get_db_prep_save(value, connection) for field, value in zip(fields, values, strict=True)]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *key])


def built(model, fields: list, row: tuple, start: int):
    """A model instance from its columns in `row`, converted as the ORM converts them."""
    values = []
    for offset, (field, converters) in enumerate(fields):
        value = row[start + offset]
        for convert in converters:
            value = convert(value, field, connection)
        values.append(value)
    return model.from_db(connection.alias, [field.attname for field, _ in fields], values)


@cache
def columns() -> tuple[list, list, list]:
    """Each model's concrete fields with the converters the ORM applies to them on this database."""

    def converters(field, table: str) -> list:
        column = field.get_col(table)
        return connection.ops.get_db_converters(column) + column.get_db_converters(connection)

    def of(model) -> list:
        return [(field, converters(field, model._meta.db_table)) for field in model._meta.concrete_fields]

    return of(Match), of(Seat), of(Seat.user.field.related_model)


@cache
def select_sql() -> str:
    match, seat, user = (model._meta.db_table for model in (Match, Seat, Seat.user.field.related_model))
    selected = ", ".join(
        f"{table}.{connection.ops.quote_name(field.column)}"
        for table, fields in zip((match, seat, user), columns(), strict=True)
        for field, _ in fields
    )
    lock = f" FOR UPDATE OF {match}" if connection.features.has_select_for_update_of else ""
    return (
        f"SELECT {selected} FROM {match} LEFT JOIN {seat} ON {seat}.match_id = {match}.id"
        f" LEFT JOIN {user} ON {user}.id = {seat}.user_id WHERE {match}.id = %s ORDER BY {seat}.number{lock}"
    )


@cache
def insert_sql() -> str:
    names = ", ".join(connection.ops.quote_name(MatchAction._meta.get_field(name).column) for name in LOG_FIELDS)
    marks = ", ".join(["%s"] * len(LOG_FIELDS))
    return f"INSERT INTO {MatchAction._meta.db_table} ({names}) VALUES ({marks})"


@cache
def update_sql() -> str:
    columns = [connection.ops.quote_name(Match._meta.get_field(name).column) for name in SNAPSHOT_FIELDS]
    assignments = ", ".join(f"{column} = %s" for column in columns)
    return f"UPDATE {Match._meta.db_table} SET {assignments} WHERE id = %s"
