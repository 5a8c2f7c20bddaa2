"""Django's PostgreSQL backend, less two round trips it makes for nothing on the move path.

A kept connection is health-checked before its first use in each hop to the database thread
(CONN_HEALTH_CHECKS: a connection that died in a database restart is replaced, not failed on).
Django checks with `SELECT 1`, a round trip to the server: 0.6 of a move's 6 and 2.2 of a socket
opening's 10 at 400 players (bench/load.py --count). A connection idle outside a transaction is
sent nothing by the server unless the server is ending it (a restart, pg_terminate_backend, a
timeout): it then sends its last error and closes, and the socket turns readable. So an idle
connection whose socket has nothing to read is usable; one with something to read, or in a
transaction, is asked with `SELECT 1` as before.

A write group (games/matches/writes.py) runs each of its moves in a savepoint, and Django
releases each savepoint when its block ends: one round trip a move, whose only effect is to free
the savepoint's bookkeeping in the server before the commit frees it anyway (Django's own comment
says as much). A savepoint left unreleased changes nothing a later ROLLBACK TO or the commit does.
The write group turns `release_savepoints` off for its transaction only (a group is a few moves,
so a few nested savepoints); everywhere else they are released, so a long loop of blocks in one
transaction does not pile up nested subtransactions. In a transaction that has failed the release
is still sent: it fails and Django rolls back to the savepoint, as before.

Django reads `timestamp with time zone` with a loader of its own written in Python, which parses
the text and sets the time zone: a sixth of a move's locking read in the web process at 400
players (docs/performance.md). Where Django's time zone is UTC, the session's is too (Django sets
it on connecting), so psycopg's own loader (compiled, with psycopg[binary]) gives the same aware
datetimes in `datetime.UTC`; the connection reads with it.
"""

import select
from datetime import UTC

import psycopg
from django.db.backends.postgresql import base
from psycopg import pq

TIMESTAMPTZ = psycopg.postgres.types["timestamptz"].oid
COMPILED = psycopg.adapters.get_loader(TIMESTAMPTZ, pq.Format.TEXT)  # psycopg's own (compiled: not a base)


class UtcTimestamptzLoader(psycopg.adapt.Loader):
    timezone = UTC  # what Django's create_cursor asks of the connection's loader

    def __init__(self, oid, context=None):
        super().__init__(oid, context)
        self.compiled = COMPILED(oid, context)

    def load(self, data):
        return self.compiled.load(data)


class DatabaseWrapper(base.DatabaseWrapper):
    release_savepoints = True

    def get_new_connection(self, conn_params):
        connection = super().get_new_connection(conn_params)
        if self.timezone is UTC:
            connection.adapters.register_loader(TIMESTAMPTZ, UtcTimestamptzLoader)
        return connection

    def is_usable(self):
        if self.connection is None or self.connection.closed or self.connection.broken:
            return False
        if self.connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return super().is_usable()
        poll = select.poll()
        poll.register(self.connection.pgconn.socket, select.POLLIN)
        return not poll.poll(0) or super().is_usable()

    def _savepoint_commit(self, sid):
        if self.release_savepoints or self.connection.info.transaction_status == pq.TransactionStatus.INERROR:
            super()._savepoint_commit(sid)
