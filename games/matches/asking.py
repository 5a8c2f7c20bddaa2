"""Where bots are asked: threads of their own, shared fairly between owners.

An asked player (uploaded code, a webhook: seat_players.py) may use its whole time budget on
every move, and one owner may run many of them. So bot calls never run on a thread the site
needs (the ticker, a Celery worker of the main queue, the beat, a web request): they are handed
to a `FairPool`. Embedded, the pool lives in the web process; on the real stack a task on the
bot queue (`BOT_QUEUE`, routed in settings) carries each call to the bot worker, whose task only
puts it in that process's pool and returns.

The pool runs `BOT_ASK_THREADS` calls at once, at most `BOT_ASKS_PER_OWNER` of them for one
owner; the others wait in their owner's line, and free threads serve the lines in turn. So a bot
sleeping through its moves in 40 matches delays its own moves, not another owner's bot.
"""

import logging
import threading
from collections import Counter, deque
from collections.abc import Callable

from django.conf import settings
from django.db import close_old_connections
from kombu.exceptions import OperationalError as BrokerUnreachable

log = logging.getLogger(__name__)


class FairPool:
    def __init__(self, threads: int, per_party: int):
        self.threads, self.per_party = threads, per_party
        self.changed = threading.Condition()
        self.lines: dict[str, deque] = {}  # party -> its calls waiting, oldest first
        self.turns: deque[str] = deque()  # parties with calls waiting, the next to be served first
        self.running: Counter[str] = Counter()
        self.known: set[tuple] = set()  # calls waiting or running: one asked again meanwhile runs once
        self.workers = 0

    def submit(self, party: str, function: Callable, *args) -> bool:
        """Queue `function(*args)` in `party`'s line; False if the same call is waiting or running."""
        call = (function, args)
        with self.changed:
            if call in self.known:
                return False
            self.known.add(call)
            if party not in self.lines:
                self.lines[party] = deque()
                self.turns.append(party)
            self.lines[party].append(call)
            if self.workers < self.threads:
                self.workers += 1
                threading.Thread(target=self.work, name=f"dubium-bot-{self.workers}", daemon=True).start()
            self.changed.notify()
        return True

    def next_call(self) -> tuple[str, tuple] | None:
        """Under the lock: the first call of the first party in turn below its share; that party
        goes to the back of the turns."""
        for party in self.turns:
            if self.running[party] < self.per_party:
                self.turns.remove(party)
                line = self.lines[party]
                call = line.popleft()
                if line:
                    self.turns.append(party)
                else:
                    del self.lines[party]
                self.running[party] += 1
                return party, call
        return None

    def work(self) -> None:
        while True:
            with self.changed:
                picked = self.next_call()
                while picked is None:
                    self.changed.wait()
                    picked = self.next_call()
            party, (function, args) = picked
            try:
                function(*args)
            except Exception:
                log.exception("a bot call failed: %s%r", function.__qualname__, args)
            finally:
                close_old_connections()
                with self.changed:
                    self.running[party] -= 1
                    self.known.discard((function, args))
                    self.changed.notify_all()


_pool: FairPool | None = None
_pool_made = threading.Lock()


def pool() -> FairPool:
    global _pool
    with _pool_made:
        if _pool is None:
            _pool = FairPool(settings.BOT_ASK_THREADS, settings.BOT_ASKS_PER_OWNER)
        return _pool


def run_fairly(party: str, function: Callable, *args) -> None:
    """In this process's bot pool; in tests (manual wake-ups) right here, so they stay in step."""
    if settings.MATCH_WAKEUPS == "manual":
        function(*args)
    else:
        pool().submit(party, function, *args)


def hand_off(task, party: str, function: Callable, *args) -> None:
    """`function(*args)` on the bot threads: on the real stack `task` (a task of the bot queue
    that calls `run_fairly(party, function, *args)`) takes it to the bot worker; if the broker is
    away it is lost, and the sweep asks the bot again."""
    if settings.MATCH_WAKEUPS == "celery":
        try:
            task.delay(*args, party=party)
        except BrokerUnreachable as error:
            log.warning("bot call %s%r not queued: %s", function.__qualname__, args, error)
    else:
        run_fairly(party, function, *args)
