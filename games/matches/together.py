"""Calls asked for in the same turn of the event loop, or while one is in flight, go together.

400 sockets closing at once left their groups in 400 round trips to Redis side by side, each on
a connection of its own, and the pool opened 200 new ones; 16 sockets opening at once read their
tokens' accounts in 16 hops to the database thread, each waiting there behind the process's
writes (docs/performance.md). As a web process's writes are grouped (games/matches/writes.py),
the calls asked for meanwhile go in one round trip next.
"""

import asyncio


class Together:
    """`send` takes the list of the calls' items; what it returns, if anything, is a list of
    each call's answer in the same order."""

    def __init__(self, send):
        self.send = send
        self.queue = []
        self.sender = None

    async def run(self, item):
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        self.queue.append((item, done))
        if self.sender is None or self.sender.done() or self.sender.get_loop() is not loop:
            self.sender = loop.create_task(self.send_queued())
        return await done

    async def send_queued(self) -> None:
        while self.queue:
            calls, self.queue = self.queue, []
            failed = answers = None
            try:
                answers = await self.send([item for item, _ in calls])
            except Exception as error:
                failed = error
            for index, (_, done) in enumerate(calls):
                if done.done():  # its caller was cancelled
                    continue
                if failed is None:
                    done.set_result(None if answers is None else answers[index])
                else:
                    done.set_exception(failed)
