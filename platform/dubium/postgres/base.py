"""Django's PostgreSQL backend with a health check that costs no round trip.

A kept connection is health-checked before its first use in each hop to the database thread
(CONN_HEALTH_CHECKS: a connection that died in a database restart is replaced, not failed on).
Django checks with `SELECT 1`, a round trip to the server: 0.6 of a move's 6 and 2.2 of a socket
opening's 10 at 400 players (bench/load.py --count). A connection idle outside a transaction is
sent nothing by the server unless the server is ending it (a restart, pg_terminate_backend, a
timeout): it then sends its last error and closes, and the socket turns readable. So an idle
connection whose socket has nothing to read is usable; one with something to read, or in a
transaction, is asked with `SELECT 1` as before.
"""

import select

from django.db.backends.postgresql import base
from psycopg import pq


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self):
        if self.connection is None or self.connection.closed or self.connection.broken:
            return False
        if self.connection.info.transaction_status != pq.TransactionStatus.IDLE:
            return super().is_usable()
        poll = select.poll()
        poll.register(self.connection.pgconn.socket, select.POLLIN)
        return not poll.poll(0) or super().is_usable()
