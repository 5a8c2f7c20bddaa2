"""What a web process does around its moves, counted from inside it (bench/load.py --count).

Load-independent figures for a shared machine: how many round trips to PostgreSQL and to Redis a
move or a socket's opening costs, how many hops to the database thread, and where a move's wall
time goes besides its own CPU (waiting for the write group ahead of it, the group's round trips,
the channel layer's send). Installed by bench/relay_server.py when BENCH_COUNT is set, by
wrapping the libraries' own entry points; nothing in Dubium's code knows of it. The counts are
read and reset over HTTP (`/bench/counts`, `?reset=1`), so the client can take them per phase:
after the sockets have opened (the connect path) and after the moves.

- PostgreSQL round trips: psycopg's `Connection.wait`, through which every exchange with the
  server goes (a statement, COMMIT, a savepoint, the health check's SELECT 1; its wall time
  includes taking the interpreter's lock back when the answer has come), plus the BEGIN psycopg
  sends before a transaction's first statement (its own round trip, within that statement's
  wait); in a pipeline, one for its end (the statements in it are sent without waiting).
- Socket waits: how often psycopg waited on its socket (a poll), each a moment the database
  thread lets the interpreter's lock go, to the event loop if it wants it (and takes it back
  after the switch interval at worst).
- Redis round trips: redis-py's `send_packed_command`, asyncio (the channel layer) and
  blocking (the cache, Celery's broker), by the command's name.
- Hops: Channels' `database_sync_to_async`, by the function called: the wall time from the call
  until the result is back on the event loop, and the time it ran on its thread; the rest is
  waiting for the database thread (behind a write group) and the way back.
- Write groups (`writes.write_together`): moves per group, wall and thread CPU, round trips.
"""

import json
import threading
import time
from collections import Counter, defaultdict
from urllib.parse import parse_qs

LOCK = threading.Lock()


class Tally:
    def __init__(self):
        self.counts = Counter()
        self.seconds = defaultdict(float)
        self.samples = defaultdict(list)  # name -> [milliseconds]

    def add(self, name: str, seconds: float = 0.0, sample: bool = False) -> None:
        with LOCK:
            self.counts[name] += 1
            self.seconds[name] += seconds
            if sample:
                self.samples[name].append(seconds * 1000)

    def report(self) -> dict:
        with LOCK:
            return {
                "counts": dict(self.counts),
                "ms": {name: round(value * 1000, 3) for name, value in self.seconds.items()},
                "percentiles": {name: percentiles(values) for name, values in self.samples.items()},
            }


def percentiles(values: list[float]) -> dict:
    ordered = sorted(values)
    if not ordered:
        return {}
    at = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 3)  # noqa: E731
    return {"n": len(ordered), "p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": round(ordered[-1], 3)}


TALLY = Tally()
_local = threading.local()


def install() -> None:
    """Wrap the libraries' entry points (once, before the first request)."""
    import psycopg
    import redis.asyncio.connection as async_redis
    import redis.connection as sync_redis
    from channels.db import DatabaseSyncToAsync

    from games.matches import writes

    waited, began, piped = psycopg.Connection.wait, psycopg.Connection._get_tx_start_command, psycopg.Pipeline.__exit__

    def trip(spent: float = 0.0) -> None:
        TALLY.add("pg round trip", spent)
        if getattr(_local, "in_group", False):
            _local.group_trips += 1
            _local.group_wait += spent

    def wait(self, gen, *args, **kwargs):
        started, talked = time.perf_counter(), []

        def watched():  # a wait that asks for no I/O (autocommit switched) is no round trip
            try:
                request = next(gen)
                while True:
                    talked.append(True)
                    request = gen.send((yield request))
            except StopIteration as done:
                return done.value

        try:
            return waited(self, watched(), *args, **kwargs)
        finally:
            if talked and self._pipeline is None:  # in a pipeline only its end waits for the server
                trip(time.perf_counter() - started)
            with LOCK:  # each wait on the socket lets the interpreter's lock go to another thread
                TALLY.counts["pg socket waits"] += len(talked)

    def begin(self):
        trip()
        return began(self)

    def pipeline_end(self, *args):
        started = time.perf_counter()
        try:
            return piped(self, *args)
        finally:
            trip(time.perf_counter() - started)

    psycopg.Connection.wait, psycopg.Connection._get_tx_start_command = wait, begin
    psycopg.Pipeline.__exit__ = pipeline_end

    def counted_sends(cls, kind: str, is_async: bool):
        sent = cls.send_packed_command

        def name_of(command) -> str:
            first = command[0] if isinstance(command, list | tuple) and command else command
            if isinstance(first, bytes | bytearray | memoryview):
                text = bytes(first[:64]).split(b"\r\n")
                # a packed command: *<n>, $<len>, NAME, ...
                return text[2].decode(errors="replace").upper() if len(text) > 2 else "?"
            return "?"

        if is_async:

            async def send(self, command, *args, **kwargs):
                TALLY.add(f"{kind} {name_of(command)}")
                return await sent(self, command, *args, **kwargs)
        else:

            def send(self, command, *args, **kwargs):
                TALLY.add(f"{kind} {name_of(command)}")
                return sent(self, command, *args, **kwargs)

        cls.send_packed_command = send

    counted_sends(async_redis.AbstractConnection, "redis async", True)
    counted_sends(sync_redis.AbstractConnection, "redis sync", False)

    called, handled = DatabaseSyncToAsync.__call__, DatabaseSyncToAsync.thread_handler

    async def call(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return await called(self, *args, **kwargs)
        finally:
            TALLY.add(f"hop {getattr(self.func, '__qualname__', self.func)}", time.perf_counter() - started, True)

    def thread_handler(self, loop, *args, **kwargs):
        started = time.perf_counter()
        try:
            return handled(self, loop, *args, **kwargs)
        finally:
            TALLY.add(f"on thread {getattr(self.func, '__qualname__', self.func)}", time.perf_counter() - started)

    DatabaseSyncToAsync.__call__, DatabaseSyncToAsync.thread_handler = call, thread_handler

    together = writes.write_together

    def write_together(group):
        _local.in_group, _local.group_trips, _local.group_wait = True, 0, 0.0
        started, cpu = time.perf_counter(), time.thread_time()
        try:
            return together(group)
        finally:
            _local.in_group = False
            TALLY.add("group wall", time.perf_counter() - started, True)
            TALLY.add("group cpu", time.thread_time() - cpu, True)
            TALLY.add("group pg wait", _local.group_wait, True)
            with LOCK:
                TALLY.counts["group writes"] += len(group)
                TALLY.counts["group pg trips"] += _local.group_trips

    writes.write_together = write_together

    sending = writes.broadcast.send_collected

    async def send_collected(events):
        started = time.perf_counter()
        try:
            return await sending(events)
        finally:
            TALLY.add("send_collected", time.perf_counter() - started, True)
            with LOCK:
                TALLY.counts["events sent"] += len(events)

    writes.broadcast.send_collected = send_collected

    run = writes.WriteGroup.run

    async def queued(self, match_id, function, *args):
        started = time.perf_counter()
        try:
            return await run(self, match_id, function, *args)
        finally:
            name = getattr(function, "__name__", "?")
            TALLY.add(f"write {name}", time.perf_counter() - started, True)

    writes.WriteGroup.run = queued


async def endpoint(scope, receive, send) -> None:
    """GET /bench/counts: the counts so far as JSON; ?reset=1 starts them again."""
    global TALLY
    query = parse_qs(scope.get("query_string", b"").decode())
    body = json.dumps(TALLY.report()).encode()
    if query.get("reset"):
        TALLY = Tally()
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"application/json")]})
    await send({"type": "http.response.body", "body": body})
