"""What every Dubium websocket consumer shares: how it fails."""

import contextlib
import logging

from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.db import InterfaceError, OperationalError
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# A service the consumer needs is away: Redis (the channel layer, the cache) restarting,
# or the database unreachable. Not a bug in the consumer, and over in seconds.
SERVICE_ERRORS = (RedisError, OSError, OperationalError, InterfaceError)

# "Service restart" (RFC 6455): the client reconnects and is sent the whole current state.
SERVICE_RESTART = 1012


class ReconnectingConsumer(AsyncJsonWebsocketConsumer):
    """Closes its socket when a service fails instead of leaving it open and deaf.

    A consumer that dies on a lost Redis connection may leave the socket open without
    anything behind it, so the client would wait forever for a push. Closing with 1012
    makes the client reconnect and resync (docs/protocol.md); `disconnect` still runs so
    the consumer can let go of what it holds.
    """

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except SERVICE_ERRORS as error:
            log.warning("%s closed its socket, a service failed: %r", type(self).__name__, error)
            with contextlib.suppress(*SERVICE_ERRORS):
                await self.disconnect(SERVICE_RESTART)
            with contextlib.suppress(*SERVICE_ERRORS, RuntimeError):  # the socket may be gone already
                await send({"type": "websocket.close", "code": SERVICE_RESTART})
