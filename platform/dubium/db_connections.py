"""An HTTP request's database connection is closed when the request ends, whatever DB_CONN_MAX_AGE says.

Under ASGI each HTTP request runs its view on a thread of its own that ends with the request
(asgiref's ThreadSensitiveContext), so a connection kept for reuse there is never reused: it stays
open until the garbage collector finds it. A flood of 20 requests at a time from one token left
one web process holding 87 of the machine's 100 PostgreSQL connections, and every other request
failed with "too many clients" (docs/security.md, "Bots cannot stall the site"). Websocket consumers
and the workers keep theirs for reuse, on threads that live on: that is where DB_CONN_MAX_AGE saves
a new connection per move (docs/performance.md).
"""

from django.core.signals import request_finished
from django.db import connections


def close_request_connections(**kwargs) -> None:
    """request_finished runs on the request's own thread: close what it opened there."""
    for connection in connections.all(initialized_only=True):
        if connection.settings_dict["CONN_MAX_AGE"] and not connection.in_atomic_block:
            connection.close()


request_finished.connect(close_request_connections, dispatch_uid="dubium.close_request_connections")
