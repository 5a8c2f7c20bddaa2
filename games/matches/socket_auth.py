"""Websocket authentication: the session cookie for browsers, a token for bots and scripts.

A token goes in an `Authorization: Token <key>` (or `Bearer <key>`) header, or in a `token` query
parameter for clients that cannot set headers. Without either the connection
is anonymous (spectators may watch public matches).

A session is judged as Django judges it on a request (`django.contrib.auth.get_user`): it names
an account, and holds that account's password hash under the current secret key or one of
SECRET_KEY_FALLBACKS. Neither Django's function nor Channels' own is called: Channels' accepts
the current key only and deletes any other session (a key rotation signed out every page whose
socket reconnected first), and Django's moves a fallback's session to a new key, which the
browser, holding the old key's cookie, would never hear of. A socket leaves the session as it
found it; the next page request renews or ends it.
"""

from functools import lru_cache
from importlib import import_module
from urllib.parse import parse_qs

from channels.auth import AuthMiddleware
from channels.db import database_sync_to_async
from channels.security.websocket import WebsocketDenier
from channels.sessions import CookieMiddleware
from django.conf import settings
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model, load_backend
from django.contrib.auth.models import AnonymousUser
from django.db import connection, connections
from django.utils.crypto import constant_time_compare
from rest_framework.authtoken.models import Token

from games.matches import rows
from games.matches.together import Together


async def user_for_token(key: str):
    """The account the token names, or None: read with the other tokens asked for meanwhile."""
    return await TOKEN_READS.run(key)


async def read_accounts(keys: list[str]) -> list:
    return await database_sync_to_async(accounts_for_tokens)(keys)


# Sockets opening together (16 at a time in bench/load.py) had a hop to the database thread each
# for their tokens, each waiting there behind the process's writes: one hop and one statement
# for all the tokens asked for while a read is on its way (docs/performance.md).
TOKEN_READS = Together(read_accounts)


def accounts_for_tokens(keys: list[str]) -> list:
    """The account each token names, or None, read in one statement written once for a number
    of tokens: the ORM compiled its query anew for every socket, a fifth of the CPU of a match
    socket's opening (docs/performance.md). Accounts are built as the ORM builds them (rows.built)."""
    db = connections[connection.alias]
    distinct = sorted(set(keys))
    with rows.cursor(db) as reading:
        reading.execute(token_accounts_sql(len(distinct)), distinct)
        found = {row[0]: row for row in reading.fetchall()}
    columns = rows.columns()[2]
    return [None if key not in found else rows.built(get_user_model(), columns, found[key], 1, db) for key in keys]


def token_names(key: str, user_id: int) -> bool:
    """Does the token still name this account (it is not retired)? One statement, as above."""
    with rows.cursor(connections[connection.alias]) as reading:
        reading.execute(f"SELECT 1 FROM {Token._meta.db_table} WHERE key = %s AND user_id = %s", [key, user_id])
        return reading.fetchone() is not None


@lru_cache(maxsize=64)
def token_accounts_sql(count: int) -> str:
    """Each of `count` tokens' key and account, the account's columns in the order rows.columns()
    reads them."""
    user = get_user_model()._meta
    selected = ", ".join(f"u.{connection.ops.quote_name(field.column)}" for field in user.concrete_fields)
    joined = f"{Token._meta.db_table} t JOIN {user.db_table} u ON u.id = t.user_id"
    return f"SELECT t.key, {selected} FROM {joined} WHERE t.key IN ({', '.join(['%s'] * count)})"


def token_from_scope(scope) -> str | None:
    for name, value in scope.get("headers", []):
        if name == b"authorization":
            kind, _, key = value.decode("latin-1").partition(" ")
            if kind.lower() in ("token", "bearer") and key:
                return key.strip()
    values = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token")
    return values[0] if values else None


class TokenAuthMiddleware:
    """Replace the session user by the token's user when a token is given; a token that names
    nobody (wrong, or retired) refuses the handshake (403), rather than letting a bot's program
    watch as a spectator and wonder why its moves are refused."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        key = token_from_scope(scope)
        if key is None:
            return await self.inner(scope, receive, send)
        user = await user_for_token(key)
        if user is None:
            return await WebsocketDenier()(scope, receive, send)
        return await self.inner(dict(scope, user=user, token_auth=True), receive, send)


class SessionAuthMiddleware(AuthMiddleware):
    """Channels' AuthMiddleware with the session judged as the module's docstring says."""

    async def resolve_scope(self, scope):
        if scope["session"].session_key is None or token_from_scope(scope) is not None:
            # Nothing to look up (no session cookie), or the token's user replaces it: no hop to
            # the database thread, where it would wait behind the process's writes.
            scope["user"]._wrapped = AnonymousUser()
            return
        scope["user"]._wrapped = await database_sync_to_async(session_user)(scope["session"]) or AnonymousUser()


class SocketSessionMiddleware:
    """The session the cookie names, for reading: Channels' SessionMiddleware without its wrapper
    around every message sent, which is there to save a session an HTTP response changed. A socket
    never changes one (the module's docstring), and the wrapper asked the session whether it had
    changed at each of a socket's pushes (docs/performance.md)."""

    def __init__(self, inner):
        self.inner = inner
        self.store = import_module(settings.SESSION_ENGINE).SessionStore

    async def __call__(self, scope, receive, send):
        key = scope["cookies"].get(settings.SESSION_COOKIE_NAME)
        return await self.inner(dict(scope, session=self.store(key)), receive, send)


def SessionOrTokenAuthMiddleware(inner):  # noqa: N802 (reads like the other middleware classes)
    return CookieMiddleware(SocketSessionMiddleware(SessionAuthMiddleware(TokenAuthMiddleware(inner))))


def session_user(session):
    """The account the session signs in, or None."""
    backend_path = session.get(BACKEND_SESSION_KEY)
    user_id = session.get(SESSION_KEY)
    if user_id is None or backend_path not in settings.AUTHENTICATION_BACKENDS:
        return None
    user = load_backend(backend_path).get_user(get_user_model()._meta.pk.to_python(user_id))
    if user is None:
        return None
    stored = session.get(HASH_SESSION_KEY) or ""
    accepted = [user.get_session_auth_hash(), *user.get_session_auth_fallback_hash()]
    return user if stored and any(constant_time_compare(stored, each) for each in accepted) else None


def still_signed_in(scope) -> bool:
    """Is the sign-in the socket opened with still good? Asked once the socket has joined the
    groups that close it when its sign-in ends: a new password, a sign-out or a retired token
    that came between its handshake and its joining would otherwise leave it open (a tester's
    reconnecting loop kept a few sockets of a stolen session seated that way)."""
    user = scope.get("user")
    if user is None or not user.is_authenticated:
        return True
    if scope.get("token_auth"):
        return token_names(token_from_scope(scope), user.pk)
    session = scope.get("session")
    if session is None or not session.session_key:
        return False
    signed_in = session_user(session.__class__(session.session_key))  # as stored now, not as it opened
    return signed_in is not None and signed_in.pk == user.pk
