"""How a web process's writes reach the database without queueing one by one.

All of a process's thread-sensitive database work runs on Channels' one database thread, and
on SQLite every commit syncs the file (about 11 ms on the bench machine's disk, far more than
the move's own CPU). So the writes asked for while one transaction is being written wait
together and go into the next one: each in its own savepoint (a refused move rolls back only
itself), one commit and one file sync for all of them, and only then their on-commit
broadcasts, so a move is still committed before anyone hears of it. An idle process writes a
lone call at once, as before. The broadcasts are collected on the database thread and sent from
the event loop once the group is back (`broadcast.collected`): one hop per group, not per move.

PostgreSQL groups its writes the same way. Moves on a pool of threads (a connection each,
`MATCH_WRITES=pool`) wait for their commits side by side, which wins when hundreds of moves
arrive at once, but at a steady pace the threads queue for the interpreter's lock: each of a
move's round trips to the database lets it go and waits behind the event loop and the other
threads to take it back (8.5 ms for 1.8 ms of work at 400 players), and the move-to-seat
latency was higher than on one thread. A group takes its matches' locks in match order, so
two processes' groups cannot deadlock. docs/performance.md has the measurements.
"""

import asyncio
import threading

from channels.db import database_sync_to_async
from django.conf import settings
from django.db import connection, transaction

from games.matches import broadcast

# How long scoring waits for the writes in hand before each of its statements, at most: a process
# that is never idle still scores, a statement or so per gap.
SCORING_WAITS_AT_MOST = 0.05


class WriteGroup:
    """Calls queued while a group is being written are written together next."""

    def __init__(self):
        self.queue = []
        self.writer = None
        self.calling_apart = set()  # kept until done: the loop holds only weak references to tasks
        self.idle = threading.Event()  # nothing queued or being written: scoring may go on (`moves_first`)
        self.idle.set()

    async def run(self, match_id: int, function, *args):
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.queue.append((match_id, function, args, done))
        self.idle.clear()
        if self.writer is None or self.writer.done() or self.writer.get_loop() is not loop:
            self.writer = loop.create_task(self.write_queued())
        return await done

    async def write_queued(self) -> None:
        try:
            await self.write_each_group()
        finally:
            self.idle.set()

    async def write_each_group(self) -> None:
        while self.queue:
            group, self.queue = sorted(self.queue, key=lambda call: call[0]), []
            try:
                outcomes, outbox = await database_sync_to_async(write_together)(group)
            except Exception as error:  # the commit failed: none of them happened
                outcomes, outbox = [(False, error)] * len(group), broadcast.Outbox()
            try:
                await broadcast.send_collected(outbox.events)
            except Exception as error:  # as when a commit's broadcast failed: each caller hears of it
                outcomes = [(False, error)] * len(group)
            for (_, _, _, done), (succeeded, value) in zip(group, outcomes, strict=True):
                if done.done():  # its socket closed meanwhile
                    continue
                if succeeded:
                    done.set_result(value)
                else:
                    done.set_exception(value)
            if outbox.later:
                self.call_apart(outbox)

    def call_apart(self, outbox: "broadcast.Outbox") -> None:
        """The group's `after_sent` work (scoring a finished match: ratings, bluffs, the fair-play
        review, a tournament's table) on a thread of its own, with its own connection, while the
        next group is written: eager Celery (embedded) ran it on the database thread, and every
        move asked for meanwhile waited 40-90 ms behind each finished match (docs/performance.md).
        On the real stack it only publishes tasks to the broker."""
        call = asyncio.ensure_future(database_sync_to_async(self.moves_first, thread_sensitive=False)(outbox))
        self.calling_apart.add(call)
        call.add_done_callback(self.calling_apart.discard)

    def moves_first(self, outbox: "broadcast.Outbox") -> None:
        """`outbox.call_later()`, each of its statements outside a transaction (and so each
        transaction's first) sent only once the writes in hand are written, SCORING_WAITS_AT_MOST
        at most. A thread of its own still shares the interpreter and SQLite's one writer with the
        moves: a finished Dudo match's 14 ms of scoring, run straight through, put every move that
        came meanwhile behind it (embedded p99 2.6x its stored relay's against 1.5x unscored,
        docs/performance.md). It never waits inside a transaction, which would keep the moves out
        of the database."""

        def after_the_moves(execute, sql, params, many, context):
            if not context["connection"].in_atomic_block:
                self.idle.wait(SCORING_WAITS_AT_MOST)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(after_the_moves):
            outbox.call_later()


def write_together(group: list) -> tuple[list[tuple[bool, object]], broadcast.Outbox]:
    """[(succeeded, result or exception)] of each call, all committed in one transaction, and
    what their commit asked for (events to broadcast, calls to make after). Each call opens its
    own `transaction.atomic()` around all it writes, which inside the group's transaction is a
    savepoint: a call that fails rolls back only itself. The group adds no savepoint of its own
    around it (two more round trips to PostgreSQL a move, docs/performance.md), and on PostgreSQL
    leaves the calls' savepoints to the commit. A call that is never refused, only failed by a
    fault (a socket's opening: `transaction.atomic(savepoint=False)`), goes without one, a round
    trip less: if it fails, the group's transaction is rolled back and the others are written
    again without it."""
    with broadcast.collected() as outbox:
        if len(group) == 1:
            _, function, args, _ = group[0]
            return [attempt(function, args)], outbox
        outcomes = written_together(group)
    return outcomes, outbox


class Undone(Exception):
    """A call without a savepoint failed (`index` in the group): the transaction cannot go on."""

    def __init__(self, index: int, error: Exception):
        self.index, self.error = index, error


def written_together(group: list) -> list[tuple[bool, object]]:
    try:
        with transaction.atomic():
            connection.release_savepoints = False  # the commit frees them (dubium/postgres/base.py)
            try:
                outcomes = []
                for index, (_, function, args, _) in enumerate(group):
                    outcomes.append(attempt(function, args))
                    if connection.needs_rollback:  # rolled back on leaving the block, and its on-commit calls dropped
                        raise Undone(index, outcomes[-1][1])
            finally:
                connection.release_savepoints = True
    except Undone as undone:
        rest = group[: undone.index] + group[undone.index + 1 :]
        others = written_together(rest) if rest else []
        return [*others[: undone.index], (False, undone.error), *others[undone.index :]]
    return outcomes


def written_alone(function, args) -> tuple[tuple[bool, object], broadcast.Outbox]:
    """One call in its own transaction, and what its commit asked for."""
    with broadcast.collected() as outbox:
        return attempt(function, args), outbox


def attempt(function, args) -> tuple[bool, object]:
    try:
        return True, function(*args)
    except Exception as error:
        return False, error


GROUPED = WriteGroup()


def grouped() -> bool:
    """Group moves unless MATCH_WRITES picks another way, to measure it (see the module's docstring)."""
    return settings.MATCH_WRITES in ("auto", "group")


async def write(match_id: int, function, *args):
    """A write on a match from a socket (`function(*args)` opens its own transaction around all
    it writes: see `write_together`)."""
    if grouped():
        return await GROUPED.run(match_id, function, *args)
    thread_sensitive = settings.MATCH_WRITES == "thread"
    (succeeded, value), outbox = await database_sync_to_async(written_alone, thread_sensitive=thread_sensitive)(
        function, args
    )
    await broadcast.send_collected(outbox.events)
    if outbox.later:
        await database_sync_to_async(outbox.call_later, thread_sensitive=thread_sensitive)()
    if not succeeded:
        raise value
    return value


async def presence_write(match_id: int, function, *args):
    """A socket opened or closed: grouped on every database (see the module's docstring; as for
    `write`, `function(*args)` opens its own transaction)."""
    return await GROUPED.run(match_id, function, *args)
