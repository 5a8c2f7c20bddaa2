"""Who is asking: the client address that login lockouts and API throttles count by.

X-Forwarded-For is written by whoever sends the request, so only the entries added by our
own proxies can be believed: with `NUM_PROXIES` = n, the n-th address from the right (the
one the outermost trusted proxy saw). With 0 (no proxy) the header is ignored. This is the
rule DRF's throttles follow with the same NUM_PROXIES, so both count the same address.
"""

from django.conf import settings

from accounts.usernames import username_key


def client_address(request) -> str:
    return believed_address(request.META.get("REMOTE_ADDR", ""), request.META.get("HTTP_X_FORWARDED_FOR"))


def socket_address(scope) -> str:
    """The same address for a websocket's handshake (its ASGI scope)."""
    remote = (scope.get("client") or [""])[0] or ""
    forwarded = dict(scope.get("headers", [])).get(b"x-forwarded-for")
    return believed_address(remote, forwarded.decode("latin-1") if forwarded else None)


def believed_address(remote: str, forwarded: str | None) -> str:
    if not settings.NUM_PROXIES or not forwarded:
        return remote
    entries = [entry.strip() for entry in forwarded.split(",")]
    return entries[-min(settings.NUM_PROXIES, len(entries))]


def login_username(request, credentials) -> str | None:
    """Lockouts count per account however the username is typed: by the key sign-in compares
    (accounts/usernames.py), so no spelling of a name has a count of its own."""
    username = (credentials or {}).get("username")
    return username_key(username) if isinstance(username, str) else None
