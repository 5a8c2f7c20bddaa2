"""What every Dubium websocket consumer shares: how it fails."""

import contextlib
import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError
from redis.exceptions import RedisError

from games.matches import jsonlimits

log = logging.getLogger(__name__)

# A service the consumer needs is away: Redis (the channel layer, the cache) restarting,
# or the database unreachable. Not a bug in the consumer, and over in seconds.
SERVICE_ERRORS = (RedisError, OSError, OperationalError, InterfaceError)

# "Service restart" (RFC 6455): the client reconnects and is sent the whole current state.
SERVICE_RESTART = 1012
# "Internal error": a bug or a hostile message broke the consumer; the client may reconnect.
INTERNAL_ERROR = 1011
MAX_MESSAGE_BYTES = 8192


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
            await super().__call__(scope, receive, send)
        except SERVICE_ERRORS as error:
            log.warning("%s closed its socket, a service failed: %r", type(self).__name__, error)
            await self.close_after_failure(send, SERVICE_RESTART)
        except Exception:
            log.exception("%s failed and closed its socket", type(self).__name__)
            await self.close_after_failure(send, INTERNAL_ERROR)

    async def close_after_failure(self, send, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.disconnect(code)
        with contextlib.suppress(Exception):  # the socket may be gone already
            await send({"type": "websocket.close", "code": code})

    @classmethod
    async def decode_json(cls, text_data):
        """Size and nesting are checked before parsing (a ValueError closes the socket)."""
        return jsonlimits.loads(text_data, MAX_MESSAGE_BYTES)
