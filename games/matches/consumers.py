"""Websocket consumers: thin, they decode, call the match service and push what it sends.

Protocol: docs/protocol.md. Every client message is a JSON object with a "type";
anything else is answered with an error message, never a dropped connection.
"""

import asyncio
import contextlib
from datetime import timedelta

from channels.db import database_sync_to_async
from django.utils import timezone

from games.matches import broadcast, chat, fairness, jsonlimits, presence, socket_auth, writes
from games.matches.actions import submit_action
from games.matches.errors import MatchError
from games.matches.models import MatchAction
from games.matches.sockets import MAX_MESSAGE_BYTES, SERVICE_ERRORS, Heartbeat, ReconnectingConsumer


def beat_seats(sockets: dict[str, "MatchConsumer"], is_open) -> dict[int, int]:
    """presence.beat for these consumers' sockets: the seq of each of their matches."""
    return presence.beat({name: (socket.match_id, socket.seat) for name, socket in sockets.items()}, is_open)


def resync_the_behind(sockets: dict[str, "MatchConsumer"], seqs: dict[int, int]) -> None:
    for socket in sockets.values():
        socket.check_heard(seqs.get(socket.match_id))


def arrive(match_id: int, scope, channel_name: str) -> tuple[int | None | bool, bool, bool, dict | None]:
    """What a socket's opening needs of the database, in one call among the process's writes,
    once it has joined its sign-in's groups and its player's: its seat (None for anyone else,
    False when the match does not exist), the match's pace, whether the sign-in is still good
    and, for a seated player, the whole state to send it, read after its count
    (presence.opened). A visitor's needs no lock: its state is read once it has joined the
    spectators' group."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        seat, realtime = presence.seat_and_pace(match_id, None)
        return seat, realtime, True, None
    token = socket_auth.token_from_scope(scope) if scope.get("token_auth") else None
    return presence.opened(match_id, user.pk, token, channel_name, scope)


def depart(match_id: int, seat: int | None, user_id: int, channel_name: str) -> None:
    """A seated player's socket closed: uncounted. `seat` is None when its opening failed before
    it heard its seat: its player's seat then, if any, on which it may have been counted."""
    if seat is None:
        seat = presence.seat_and_pace(match_id, user_id)[0]
    if seat is not None and seat is not False:
        presence.connected(match_id, seat, channel_name, False)


SYNC_SECONDS = 0.25

# This process's open seat sockets, refreshed in the database together (presence.beat), and
# checked at each beat for a push they missed.
SEAT_SOCKETS = Heartbeat(beat_seats, after=resync_the_behind)


class MatchConsumer(ReconnectingConsumer):
    """One connection to one match: a seated player or a spectator."""

    # The latest match seq this socket was sent, and its match's seq at the last heartbeat.
    heard = awaited = 0
    resyncing = None
    next_sync_at = 0.0  # the event loop's clock
    sync_planned = None
    go_planned = None

    async def connect(self):
        """Its sign-in's groups, the table's and its player's joined (one round trip to Redis),
        then one call among the process's writes for everything else (`arrive`): a seated
        player's socket is counted and sent the whole state. A spectator joins the spectators'
        group, then reads the state. With the sign-in middleware's read of a token's account, two
        hops to the database thread (three before, and two joins: docs/performance.md)."""
        self.match_id = self.scope["url_route"]["kwargs"]["match_id"]
        self.user = self.scope.get("user")
        self.groups_joined = [*self.sign_in_groups(), broadcast.table_group(self.match_id)]
        if self.user is not None and self.user.is_authenticated:
            self.groups_joined.append(broadcast.player_group(self.match_id, self.user.pk))
        await self.channel_layer_call("group_add", self.groups_joined)
        # Counted from the call on, if seated, so its close uncounts it (`depart`), even when the
        # call fails after its commit (a push lost with Redis).
        self.seat, self.beating = None, self.user is not None and self.user.is_authenticated
        seat, realtime, signed_in, message = await writes.presence_write(
            self.match_id, arrive, self.match_id, self.scope, self.channel_name
        )
        self.beating = seat is not None and seat is not False and signed_in
        if seat is False or not signed_in:
            # Accept first: a close before the handshake reaches the page as a 403 and code 1006,
            # which it takes for a dropped line and retries for ever. A sign-in that ended before
            # the socket joined the groups that would have closed it closes it now.
            await self.accept()
            await self.close(code=4404 if seat is False else self.signed_out_code())
            return
        self.seat = seat
        await self.accept()
        if seat is None:
            self.groups_joined.append(broadcast.watch_group(self.match_id))
            await self.channel_layer_call("group_add", [broadcast.watch_group(self.match_id)])
            message = await database_sync_to_async(presence.current_message)(self.match_id, None)
        else:
            SEAT_SOCKETS.add(self.channel_name, self)
        if seat is not None and realtime:
            self.meter = fairness.DelayMeter()
            self.pinger = asyncio.create_task(self.measure_delay())
        await self.send_whole_state(message)

    async def disconnect(self, code):
        for task in (getattr(self, "pinger", None), self.sync_planned, self.go_planned):
            if task is not None:
                task.cancel()
        if getattr(self, "beating", False):
            SEAT_SOCKETS.discard(self.channel_name)
            await writes.presence_write(
                self.match_id, depart, self.match_id, self.seat, self.user.pk, self.channel_name
            )
        await self.leave_groups()

    async def measure_delay(self):
        """Ping the client every few seconds (real-time matches) and tell the table this seat's delay."""
        loop = asyncio.get_running_loop()
        while True:
            await self.send_json({"type": "ping", "id": self.meter.ping(loop.time())})
            await asyncio.sleep(fairness.PING_SECONDS)
            message = {"type": "delay", "seat": self.seat, "ms": self.meter.delay_ms()}
            with contextlib.suppress(*SERVICE_ERRORS):
                await self.channel_layer.group_send(broadcast.table_group(self.match_id), broadcast.push(message))

    async def receive(self, text_data=None, bytes_data=None):
        if text_data is None or len(text_data) > MAX_MESSAGE_BYTES:
            await self.send_error("bad_message", f"Send JSON text messages of at most {MAX_MESSAGE_BYTES} bytes.")
            return
        try:
            message = jsonlimits.loads(text_data, MAX_MESSAGE_BYTES)
        except jsonlimits.TooLarge as error:
            await self.send_error("bad_message", str(error))
            return
        except ValueError:
            await self.send_error("bad_message", "That message is not valid JSON.")
            return
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            await self.send_error("bad_message", 'A message must be a JSON object with a "type".')
            return
        handler = {
            "action": self.on_action,
            "chat": self.on_chat,
            "sync": self.on_sync,
            "ping": self.on_ping,
            "pong": self.on_pong,
        }
        if message["type"] not in handler:
            await self.send_error("bad_message", f"Unknown message type {message['type'][:40]!r}.")
            return
        try:
            await handler[message["type"]](message)
        except MatchError as error:
            await self.send_json(error.as_message())

    async def on_action(self, message):
        source = MatchAction.Source.API if self.scope.get("token_auth") else MatchAction.Source.BROWSER
        made_at = timezone.now()
        meter = getattr(self, "meter", None)
        if meter is not None:  # a real-time claim: judged by when it was made, after the race was held open
            made_at -= timedelta(milliseconds=meter.delay_ms())
            await asyncio.sleep(meter.hold_seconds())
        # writes.write runs submit_action (actions.py) on the database thread together with the
        # other writes this process was sent meanwhile: one transaction, each call in its own
        # savepoint (a refused move undoes only itself), one commit. The pushes the moves asked
        # for on commit (broadcast.send_state) are collected for the whole group and sent from
        # here, on the event loop, once it has committed: a MatchError comes back as the answer.
        await writes.write(
            self.match_id,
            submit_action,
            self.match_id,
            self.user,
            message.get("action"),
            message.get("seq"),
            source,
            made_at,
        )

    async def on_chat(self, message):
        await database_sync_to_async(chat.post)(self.match_id, self.user, message.get("text"))

    async def on_sync(self, message):
        """The whole state, at most one every SYNC_SECONDS a socket: a client asks after a gap in
        its history, now and then; asks that come sooner are answered together, by one state a
        moment later (a tester's 500 asks got 500 whole states in 1.5 s)."""
        if self.sync_planned is not None:
            return
        wait = self.next_sync_at - asyncio.get_running_loop().time()
        if wait > 0:
            self.sync_planned = asyncio.ensure_future(self.sync_after(wait))
        else:
            await self.sync_after(0)

    async def sync_after(self, wait: float):
        await asyncio.sleep(wait)
        self.sync_planned = None
        self.next_sync_at = asyncio.get_running_loop().time() + SYNC_SECONDS
        with contextlib.suppress(*SERVICE_ERRORS):
            await self.send_current_state()

    async def on_ping(self, message):
        await self.send_json({"type": "pong"})

    async def on_pong(self, message):
        meter = getattr(self, "meter", None)
        if meter is not None:
            meter.pong(message.get("id"), asyncio.get_running_loop().time())

    async def send_current_state(self):
        await self.send_whole_state(await database_sync_to_async(presence.current_message)(self.match_id, self.seat))

    async def send_whole_state(self, message: dict):
        """The whole state (on opening, a sync, a resync, at go)."""
        self.heard = max(self.heard, message["seq"])
        await self.send_json(message)
        self.plan_go(message["starts_in_ms"])

    def plan_go(self, starts_in_ms: int) -> None:
        if starts_in_ms > 0 and self.go_planned is None:
            self.go_planned = asyncio.ensure_future(self.send_at_go(starts_in_ms / 1000))

    async def send_at_go(self, wait: float):
        """A real-time race's cards are sent face down until "go" (broadcast.seat_message): at go
        every socket is sent them face up, on its own timer, so no player waits for another's
        push nor for a wake-up (which may come a tick late)."""
        await asyncio.sleep(wait)
        self.go_planned = None
        with contextlib.suppress(*SERVICE_ERRORS):
            await self.send_current_state()  # plans itself again if the timer fired a hair early

    def check_heard(self, seq: int | None) -> None:
        """At each heartbeat, with the match's seq now. A socket still behind the seq of the beat
        before missed a push, which would leave its player waiting for a move they never see: a
        push lost with a Redis connection, or not sent because the seat was counted out while its
        process could not reach the database. It is sent the whole state (the next beat tries
        again if that fails). A push merely on its way is not taken for lost: it has a beat."""
        if seq is None:
            return
        behind, self.awaited = self.heard < self.awaited, seq
        if behind and SEAT_SOCKETS.is_open(self.channel_name):
            self.resyncing = asyncio.ensure_future(self.resync())

    async def resync(self):
        with contextlib.suppress(*SERVICE_ERRORS):
            await self.send_current_state()

    async def send_error(self, code: str, text: str):
        await self.send_json({"type": "error", "code": code, "message": text})

    async def match_push(self, event):
        seq = event.get("seq")
        if seq is not None and seq < self.heard:
            # An older state than one this socket was sent: pushes from two web processes have no
            # order between them (a process's own reach its sockets at once, the other's come
            # through Redis), and a page shows the last state it got.
            return
        if seq is not None:
            self.heard = seq
        await self.send(text_data=event["text"])
        self.plan_go(event.get("starts_in_ms", 0))
