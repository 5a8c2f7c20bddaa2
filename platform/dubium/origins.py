"""Websockets open only from our own pages, or from programs: the Origin, when there is one,
must be this site, port included.

Channels' AllowedHostsOriginValidator compares host names only, so a page served from any
other port of an allowed host (another service on 127.0.0.1, say) could open a socket that
carries the visitor's session cookie. This follows Django's CSRF origin rule instead: the
Origin must be the host and port the request was sent to, or one of CSRF_TRUSTED_ORIGINS
(behind a proxy that rewrites the host). Its scheme may be https on a plain ws socket, as
behind a proxy that ends TLS, but never http on a wss socket.
"""

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host


class SameOriginValidator:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        headers = dict(scope.get("headers", []))
        origin = headers.get(b"origin", b"").decode("latin-1")
        host = headers.get(b"host", b"").decode("latin-1")
        if allowed(origin, host, secure=scope.get("scheme") == "wss"):
            return await self.application(scope, receive, send)
        return await WebsocketDenier()(scope, receive, send)


def allowed(origin: str, host: str, secure: bool) -> bool:
    """A browser always sends an Origin with a websocket's handshake, so a handshake without one
    is a program (a bot's websocket library): no page of another site can be using the
    visitor's cookies through it, and only its Host is checked."""
    if not host:
        return False
    if origin in settings.CSRF_TRUSTED_ORIGINS:
        return True
    hostname, _ = split_domain_port(host)
    allowed_hosts = settings.ALLOWED_HOSTS or (["localhost", "127.0.0.1", "[::1]"] if settings.DEBUG else [])
    if not hostname or not validate_host(hostname, allowed_hosts):
        return False
    if not origin:
        return True
    parts = urlsplit(origin)
    schemes = ("https",) if secure else ("http", "https")
    return parts.scheme in schemes and parts.netloc.lower() == host.lower()
