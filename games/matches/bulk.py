"""A round's new rows (matches, seats, tournament tables) in one statement per table, their ids
known before they are written.

A bulk insert through the ORM prepares every value of every row in Python and compiles a
statement per batch (2/3 of starting a 5,000-table round, bench/tournament_round.py):
`insert_many` converts a column that holds one value in every row once, and sends one statement
with all the rows, its values converted as rows.py's statements convert theirs (`rows.written`).
"""

import gc
from contextlib import contextmanager
from functools import cache

from django.db import connection, connections

from games.matches.rows import Written, insert_sql, written


@contextmanager
def collector_paused():
    """The cyclic garbage collector paused while a round is paired or seated: it builds some
    100,000 objects, none of them garbage, which the collector would walk again at every
    700 new ones (15% of seating 5,000 tables, bench/tournament_round.py). Reference counting
    still frees what is dropped; the collector runs again after, as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def reserve_ids(model, count: int) -> list[int]:
    """Ids for `count` rows about to be inserted, known before they are written, so rows that
    point at them go in the same way (no round trip per row). PostgreSQL hands out the id
    sequence's next values in one query. SQLite has one writer, and ours takes the write lock
    when its transaction begins (transaction_mode IMMEDIATE), so the ids after the highest ever
    used (AUTOINCREMENT's counter) are ours until the commit."""
    if not count:
        return []
    if not connection.in_atomic_block:
        raise RuntimeError("reserve_ids needs the caller's transaction: the ids are reserved until it ends")
    table = model._meta.db_table
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT nextval(pg_get_serial_sequence(%s, 'id')) FROM generate_series(1, %s)", [table, count]
            )
            return [row[0] for row in cursor.fetchall()]
        cursor.execute(
            f"SELECT MAX(last) FROM (SELECT MAX(id) AS last FROM {table}"
            " UNION ALL SELECT seq FROM sqlite_sequence WHERE name = %s)",
            [table],
        )
        last = cursor.fetchone()[0] or 0
    return list(range(last + 1, last + 1 + count))


def insert_many(model, names: tuple[str, ...], rows: list[tuple]) -> None:
    """`rows` (values in the order of `names`) in one statement executed for every row. A value
    shared by every row (the same object: a round's start time, a default) is converted once."""
    if not rows:
        return
    database = connections[connection.alias]  # this thread's, looked up once rather than per value
    columns = []
    for index, column in enumerate(written(model, names)):
        first = rows[0][index]
        if all(row[index] is first for row in rows):
            columns.append(converted(column, [first], database) * len(rows))
        else:
            columns.append(converted(column, [row[index] for row in rows], database))
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":  # psycopg's executemany costs a round trip a row; COPY streams them
            with cursor.cursor.copy(copy_sql(model, names)) as copy:
                for row in zip(*columns, strict=True):
                    copy.write_row(row)
        else:
            cursor.executemany(insert_sql(model, names), list(zip(*columns, strict=True)))


def converted(column: Written, values: list, database) -> list:
    """`field.get_db_prep_save` of each value, for a column of `insert_many`. Values whose
    conversion is known to return them unchanged are taken as they are: whole numbers for an
    integer column or a key to one (on PostgreSQL Django wraps each in a type for a bound
    parameter; COPY takes the column's own type; SQLite's adapter returns them), strings for a
    text column, booleans for a boolean one. JSON objects and lists become the JSON text Django
    writes for them (`json.dumps` with the field's encoder), by one encoder for the column: on
    PostgreSQL Django wraps each value for psycopg, which finds it a dumper and builds an
    encoder for it. A round's columns hold 100,000 values."""
    if column.plain is not None and all(type(value) is column.plain for value in values):
        return values
    if column.encode is not None and all(value is None or type(value) in (dict, list) for value in values):
        return [None if value is None else column.encode(value) for value in values]
    return [column.field.get_db_prep_save(value, database) for value in values]


def unsaved(model, **values):
    """A new instance from attnames and values, every other field at its default, built from
    its values in field order as the ORM builds what it loads (`from_db`): a third of the cost
    of keyword construction, which tells at thousands of rows."""
    return model(
        *[values.pop(f.attname) if f.attname in values else f.get_default() for f in model._meta.concrete_fields]
    )


@cache
def copy_sql(model, names: tuple[str, ...]) -> str:
    columns = ", ".join(connection.ops.quote_name(model._meta.get_field(name).column) for name in names)
    return f"COPY {model._meta.db_table} ({columns}) FROM STDIN"
