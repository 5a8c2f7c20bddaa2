"""Ports for the servers tests start.

TEST_PORTS="8490-8499" keeps every test server of a run inside that range, so several checkouts
can test side by side on one machine; unset, the system picks any free port.
"""

import os
import socket

taken: set[int] = set()


def bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def free_port() -> int:
    """A port nothing listens on; within TEST_PORTS a port is handed out once a run, since a
    test's server may not have started listening on it yet when the next port is asked for."""
    span = os.environ.get("TEST_PORTS")
    if not span:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            return sock.getsockname()[1]
    first, last = map(int, span.split("-"))
    for port in range(first, last + 1):
        if port not in taken and bindable(port):
            taken.add(port)
            return port
    raise RuntimeError(f"no free port in TEST_PORTS={span}")
