"""What every Dubium websocket consumer shares: how it fails, and how it says it is alive."""

import asyncio
import contextlib
import logging

from channels.consumer import get_handler_name
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.db import InterfaceError, OperationalError, connection
from redis.exceptions import RedisError

from games.matches import broadcast, jsonlimits, socket_auth

log = logging.getLogger(__name__)

# A service the consumer needs is away: Redis (the channel layer, the cache) restarting,
# or the database unreachable. Not a bug in the consumer, and over in seconds.
SERVICE_ERRORS = (RedisError, OSError, OperationalError, InterfaceError)

# "Service restart" (RFC 6455): the client reconnects and is sent the whole current state.
SERVICE_RESTART = 1012
# "Internal error": a bug or a hostile message broke the consumer; the client may reconnect.
INTERNAL_ERROR = 1011
# The sign-in it was opened with ended (signed out, or a new password): open it again.
SIGNED_OUT = 4001
# The API token it was opened with was retired: sign in again with a new one.
TOKEN_RETIRED = 4401
MAX_MESSAGE_BYTES = 8192


class ClientGone(Exception):
    """The server refused to send a message: its client had gone. uvicorn then raises a
    RuntimeError, not the OSError it raises for a client gone after the handshake: it finds the
    connection closing at the handshake's accept, leaves the handshake unfinished, and refuses
    every message that follows it."""


def refusals_as_gone(send):
    """`send`, with a server's refusal (a RuntimeError: the connection's state allows no such
    message) raised as ClientGone."""

    async def sending(message):
        try:
            await send(message)
        except RuntimeError as error:
            raise ClientGone(str(error)) from error

    return sending


class ReconnectingConsumer(AsyncJsonWebsocketConsumer):
    """Closes its socket when a service fails instead of leaving it open and deaf.

    A consumer that dies on a lost Redis connection may leave the socket open without
    anything behind it, so the client would wait forever for a push. Closing with 1012
    makes the client reconnect and resync (docs/protocol.md); `disconnect` still runs so
    the consumer can let go of what it holds. Any other exception closes the socket with
    1011 the same way: a socket whose consumer died must not stay counted as connected
    (its seat's heartbeat would keep it present forever and the disconnect grace never start).
    """

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, refusals_as_gone(send))
        except ClientGone:
            # Leaving a page while its socket opens is no failure of the server's; its seat is
            # let go of all the same.
            log.info("%s: its client left while the socket opened", type(self).__name__)
            await self.close_after_failure(send, SERVICE_RESTART)
        except SERVICE_ERRORS as error:
            log.warning("%s closed its socket, a service failed: %r", type(self).__name__, error)
            await self.close_after_failure(send, SERVICE_RESTART)
        except Exception:
            log.exception("%s failed and closed its socket", type(self).__name__)
            await self.close_after_failure(send, INTERNAL_ERROR)

    async def dispatch(self, message):
        """As Channels' own, without its hop to the database thread before every message
        (`aclose_old_connections`). Every push a seat hears went through that hop, so at a busy
        table it waited behind the process's writes on that one thread (docs/performance.md).
        Nothing is lost: these consumers reach the database only through
        `database_sync_to_async`, which closes old connections itself, before and after."""
        handler = getattr(self, get_handler_name(message), None)
        if handler is None:
            raise ValueError(f"No handler for message type {message['type']}")
        await handler(message)

    def sign_in_groups(self) -> list[str]:
        """The groups that close this socket when the sign-in it was opened with ends: the
        account's (a new password), the session's (signing out) or the API token's."""
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            return []
        if self.scope.get("token_auth"):
            return [broadcast.account_group(user.pk), broadcast.token_group(user.pk)]
        session = self.scope.get("session")
        key = session.session_key if session is not None else None
        return [broadcast.account_group(user.pk), *([broadcast.session_group(key)] if key else [])]

    async def join_groups(self, groups: list[str]) -> bool:
        """Join the groups, then make sure the sign-in is still good (socket_auth.still_signed_in);
        False, with the socket accepted and closed, when it ended meanwhile. Called before the
        handshake is accepted."""
        await self.channel_layer_call("group_add", groups)
        if await database_sync_to_async(socket_auth.still_signed_in)(self.scope):
            return True
        await self.accept()  # then close: a refused handshake reads as a dropped line
        await self.close(code=self.signed_out_code())
        return False

    def signed_out_code(self) -> int:
        """How a socket whose sign-in ended is closed: open it again, or sign in again (a token)."""
        return TOKEN_RETIRED if self.scope.get("token_auth") else SIGNED_OUT

    async def leave_groups(self) -> None:
        """Leave the groups `groups_joined` names (none if the socket never got that far)."""
        await self.channel_layer_call("group_discard", getattr(self, "groups_joined", []))

    async def channel_layer_call(self, name: str, groups: list[str]) -> None:
        """The layer's `group_add` or `group_discard` for every group: in one round trip where
        it can (the real stack's `<name>_many`), else one group at a time."""
        if hasattr(self.channel_layer, f"{name}_many"):
            await getattr(self.channel_layer, f"{name}_many")(groups, self.channel_name)
        else:
            for group in groups:
                await getattr(self.channel_layer, name)(group, self.channel_name)

    async def signed_out(self, event):
        await self.close(code=SIGNED_OUT)

    async def token_retired(self, event):
        await self.close(code=TOKEN_RETIRED)

    async def close_after_failure(self, send, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.disconnect(code)
        with contextlib.suppress(Exception):  # the socket may be gone already
            await send({"type": "websocket.close", "code": code})

    @classmethod
    async def encode_json(cls, content):
        """As pushes are encoded (broadcast.encoded): a whole state is a socket's largest message."""
        return broadcast.encoded(content)

    @classmethod
    async def decode_json(cls, text_data):
        """Size and nesting are checked before parsing (a ValueError closes the socket)."""
        return jsonlimits.loads(text_data, MAX_MESSAGE_BYTES)


class Heartbeat:
    """The open sockets of one kind in this process, told to the database together.

    Every MATCH_SOCKET_HEARTBEAT_SECONDS, `write(sockets, is_open)` gets them all: one write per
    process and beat instead of one locked write per socket (at 400 sockets those cost as much
    as the moves). It beats while the process has a socket of its kind open; a beat lost to a
    database outage is only late (three are missed before a socket is counted out). `after`,
    if given, is called on the event loop with the sockets and what `write` returned.
    """

    def __init__(self, write, after=None):
        self.write = write
        self.after = after
        self.sockets = {}
        self.beating = None

    def add(self, channel_name: str, details=None) -> None:
        self.sockets[channel_name] = details
        loop = asyncio.get_running_loop()
        if self.beating is None or self.beating.done() or self.beating.get_loop() is not loop:
            self.beating = loop.create_task(self.beat())

    def discard(self, channel_name: str) -> None:
        self.sockets.pop(channel_name, None)
        if not self.sockets and self.beating is not None:
            self.beating.cancel()
            self.beating = None

    def is_open(self, channel_name: str) -> bool:
        return channel_name in self.sockets

    async def beat(self) -> None:
        while True:
            await asyncio.sleep(settings.MATCH_SOCKET_HEARTBEAT_SECONDS)
            try:
                await self.beat_once()
            except SERVICE_ERRORS:
                pass
            except Exception:  # a bug must not stop the beats of every socket of the process
                log.exception("a heartbeat of %d sockets failed", len(self.sockets))

    async def beat_once(self) -> None:
        """On PostgreSQL the beat is written from a thread of its own (with its own connection),
        not the database thread: at 400 sockets it held that thread for 15-40 ms, and the moves
        asked for meanwhile waited behind it. SQLite has one writer: there it queues as before."""
        sockets = dict(self.sockets)
        apart = connection.vendor == "postgresql"
        written = await database_sync_to_async(self.write, thread_sensitive=not apart)(sockets, self.is_open)
        if self.after is not None:
            self.after(sockets, written)
