"""Ports for the servers tests start.

TEST_PORTS="8490-8499" keeps every test server of a run inside that range, so several checkouts
can test side by side on one machine; unset, the system picks any free port. A run spread over
pytest-xdist processes deals the range out among them (every second port to each of two).
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
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    for port in range(first + int(worker[2:]), last + 1, workers):
        if port not in taken and bindable(port):
            taken.add(port)
            return port
    raise RuntimeError(f"no free port in TEST_PORTS={span}")
