"""PostgreSQL's backend (dubium/postgres/base.py): a kept connection the server ended is replaced
before use, a healthy idle one is judged without a round trip, a grouped write's savepoint is
left to the commit (elsewhere released), with a refused write still rolled back alone, and times
are read in UTC by psycopg's compiled loader. Needs
PostgreSQL (DATABASE_URL)."""

import os
import select
import tempfile
from datetime import UTC, datetime

import psycopg
import pytest
from django.db import IntegrityError, close_old_connections, connection, transaction
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from games.matches import rows
from games.matches.writes import write_together
from tests.conftest import services_required

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not os.environ.get("DATABASE_URL", "").startswith("postgres") and not services_required(),
        reason="needs PostgreSQL: set DATABASE_URL",
    ),
]


@pytest.fixture
def kept_connection():
    """The thread's connection kept between uses and health-checked, as the web processes keep it."""
    settings = connection.settings_dict
    kept = settings["CONN_MAX_AGE"]
    connection.close()
    settings["CONN_MAX_AGE"] = None
    connection.ensure_connection()
    yield connection
    connection.close()
    settings["CONN_MAX_AGE"] = kept


def backend_pid() -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def test_a_connection_the_server_ended_is_replaced_before_its_next_use(kept_connection):
    ended = backend_pid()
    with psycopg.connect(**kept_connection.get_connection_params(), autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [ended])
    poll = select.poll()
    poll.register(kept_connection.connection.pgconn.socket, select.POLLIN)
    assert poll.poll(10_000), "the server's last words never came"

    close_old_connections()  # as at the start of every hop to the database thread
    assert backend_pid() != ended


def test_a_healthy_idle_connection_is_judged_without_asking_the_server(kept_connection):
    pid = backend_pid()
    with tempfile.TemporaryFile() as trace:
        kept_connection.connection.pgconn.trace(trace.fileno())
        usable = kept_connection.is_usable()
        kept_connection.connection.pgconn.untrace()
        trace.seek(0)
        sent = trace.read()
    assert usable
    assert sent == b""
    close_old_connections()
    assert backend_pid() == pid  # kept, not replaced


def created(name: str) -> User:
    """A move's call as the write group makes it: its own block, a savepoint inside the group's."""
    with transaction.atomic():
        if User.objects.filter(username=name).exists():
            raise IntegrityError(f"{name} exists")
        return User.objects.create_user(name)


def group(*names: str) -> list:
    return [(None, created, (name,), None) for name in names]


def test_a_write_groups_savepoints_are_left_to_the_commit_and_a_refused_call_rolls_back_alone():
    with CaptureQueriesContext(connection) as queries:
        outcomes, _ = write_together(group("ann", "ann", "bob"))
    assert [succeeded for succeeded, _ in outcomes] == [True, False, True]
    assert sorted(User.objects.values_list("username", flat=True)) == ["ann", "bob"]
    sent = [query["sql"] for query in queries.captured_queries]
    assert sum(sql.startswith("SAVEPOINT") for sql in sent) == 3
    assert not [sql for sql in sent if sql.startswith("RELEASE")]
    assert connection.release_savepoints, "only for the group's transaction"


def test_outside_a_write_group_savepoints_are_released_as_django_does():
    with CaptureQueriesContext(connection) as queries, transaction.atomic():
        for name in ("ann", "bob"):
            with transaction.atomic():
                User.objects.create_user(name)
    sent = [query["sql"] for query in queries.captured_queries]
    assert sum(sql.startswith("RELEASE") for sql in sent) == 2


def test_a_savepoint_in_a_failed_transaction_is_rolled_back_to_as_before():
    """An error swallowed inside a block leaves the transaction failed: the release fails and
    the block is rolled back to its savepoint, so the writes around it still commit."""
    with transaction.atomic():
        User.objects.create_user("first")
        with pytest.raises(Exception), transaction.atomic():  # noqa: B017 (the release's own error)
            with connection.cursor() as cursor:
                try:
                    cursor.execute("INSERT INTO no_such_table VALUES (1)")
                except Exception:  # noqa: S110 (swallowed, as a careless caller would)
                    pass
        User.objects.create_user("second")
    assert sorted(User.objects.values_list("username", flat=True)) == ["first", "second"]


def test_times_with_a_zone_are_read_as_django_reads_them_in_utc():
    """Read with psycopg's compiled loader, as Django's own would read them: aware, in UTC,
    whatever offset the value was written with; also through a cursor of the move path."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT timestamptz '2026-01-02 03:04:05.123456+05', timestamptz '1999-12-31 23:59:59.5-03:30'")
        read = cursor.fetchone()
    with rows.cursor(connection) as binding:
        binding.execute("SELECT %s::timestamptz", [read[0]])
        (again,) = binding.fetchone()
    assert read == (
        datetime(2026, 1, 1, 22, 4, 5, 123456, tzinfo=UTC),
        datetime(2000, 1, 1, 3, 29, 59, 500000, tzinfo=UTC),
    )
    assert all(value.tzinfo is UTC for value in (*read, again)) and again == read[0]
    user = User.objects.create_user("ann")
    assert User.objects.get(pk=user.pk).date_joined == user.date_joined
