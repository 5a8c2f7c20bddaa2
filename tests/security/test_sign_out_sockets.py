"""Sockets end with the sign-in that opened them: a stolen session signed out by a new password
went on moving and chatting through its open sockets, and a bot's retired token kept hearing
its lobby and notices."""

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.test import Client
from rest_framework.authtoken.models import Token

from games.matches import broadcast, lifecycle

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.timeout(60)]
SITE = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


@pytest.fixture
def duel(alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=42)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    return match.pk


def signed_in(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[settings.SESSION_COOKIE_NAME].value


async def socket(application, path, cookie=None, token=None):
    headers = [*SITE]
    if cookie:
        headers.append((b"cookie", f"{settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    if token:
        headers.append((b"authorization", f"Token {token}".encode()))
    ws = WebsocketCommunicator(application, path, headers=headers)
    connected, _ = await ws.connect()
    assert connected
    return ws


async def closing_code(ws) -> int:
    output = await ws.receive_output(timeout=5)
    while output["type"] != "websocket.close":  # pushes already on their way
        output = await ws.receive_output(timeout=5)
    await ws.disconnect()  # as the server would hear the line close: the consumer lets go
    return output["code"]


async def first_state(ws) -> dict:
    message = await ws.receive_json_from(timeout=5)
    while message["type"] != "state":
        message = await ws.receive_json_from(timeout=5)
    return message


async def test_a_new_password_closes_every_socket_and_a_session_it_ended_comes_back_a_visitor(application, duel, alice):
    stolen = await database_sync_to_async(signed_in)(alice)
    sockets = [
        await socket(application, f"/ws/match/{duel}/", cookie=stolen),
        await socket(application, "/ws/lobby/dudo/", cookie=stolen),
        await socket(application, "/ws/notices/", cookie=stolen),
    ]
    assert (await first_state(sockets[0]))["seat"] is not None

    def change_password():
        alice.set_password("a new and better one")
        alice.save()

    await database_sync_to_async(change_password)()
    assert [await closing_code(ws) for ws in sockets] == [4001, 4001, 4001]
    again = await socket(application, f"/ws/match/{duel}/", cookie=stolen)
    assert (await first_state(again))["seat"] is None, "a spectator: it can no longer move for her"
    await again.disconnect()


async def test_signing_out_closes_that_sessions_sockets_only(application, duel, alice):
    phone, laptop = [await database_sync_to_async(signed_in)(alice) for _ in range(2)]
    on_phone = await socket(application, "/ws/notices/", cookie=phone)
    on_laptop = await socket(application, "/ws/notices/", cookie=laptop)

    def sign_out_the_phone():
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = phone
        assert client.post("/accounts/logout/").status_code == 302

    await database_sync_to_async(sign_out_the_phone)()
    assert await closing_code(on_phone) == 4001
    assert await on_laptop.receive_nothing(timeout=0.3), "the laptop's session goes on"
    await on_laptop.disconnect()


async def test_a_retired_token_closes_its_lobby_and_notices_sockets_too(application, alice):
    token = (await database_sync_to_async(Token.objects.get_or_create)(user=alice))[0].key
    sockets = [
        await socket(application, "/ws/lobby/dudo/", token=token),
        await socket(application, "/ws/notices/", token=token),
    ]
    await database_sync_to_async(lambda: Token.objects.filter(user=alice).delete())()
    await database_sync_to_async(broadcast.close_token_sockets)(alice.pk)
    assert [await closing_code(ws) for ws in sockets] == [4401, 4401]


async def test_a_socket_whose_sign_in_ended_while_it_opened_is_closed_as_it_joins(application, duel, alice):
    """A reconnecting loop kept a few sockets of a stolen session seated: their handshakes were
    signed in just before the password changed, and they joined the groups just after the close."""
    from importlib import import_module

    from games.matches.socket_auth import still_signed_in

    store = import_module(settings.SESSION_ENGINE).SessionStore
    cookie = await database_sync_to_async(signed_in)(alice)
    token = (await database_sync_to_async(Token.objects.get_or_create)(user=alice))[0].key
    by_session = {"user": alice, "session": store(cookie)}
    by_token = {"user": alice, "token_auth": True, "headers": [(b"authorization", f"Token {token}".encode())]}
    check = database_sync_to_async(still_signed_in)
    assert await check(by_session) and await check(by_token)

    def change_password():
        alice.set_password("a new and better one")
        alice.save()

    await database_sync_to_async(change_password)()
    assert not await check(by_session) and not await check(by_token)
    assert await check({"user": None}), "a visitor has no sign-in to end"


async def test_a_key_rotation_signs_nobody_out_of_a_page_whose_socket_reconnects_first(
    application, duel, alice, settings
):
    """A tester rotated the key with the old one kept in SECRET_KEY_FALLBACKS: the pages' sockets
    reconnected before any page request, came back a spectator's, and Channels' sign-in check
    deleted the session, so the next page was signed out too. Django's own check accepts it."""
    cookie = await database_sync_to_async(signed_in)(alice)
    old_key = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a new secret key " * 4, [old_key]
    ws = await socket(application, f"/ws/match/{duel}/", cookie=cookie)
    assert (await first_state(ws))["seat"] == 0, "still seated: she can move"
    while not await ws.receive_nothing(timeout=0.3):  # the table hears her come back
        assert (await ws.receive_output())["type"] != "websocket.close", "and the socket stays open"
    await ws.disconnect()

    def page_signed_in() -> bool:
        client = Client()
        client.cookies[settings.SESSION_COOKIE_NAME] = cookie
        return client.get("/").wsgi_request.user.is_authenticated

    assert await database_sync_to_async(page_signed_in)(), "the session outlived the socket"
    settings.SECRET_KEY_FALLBACKS = []
    ws = await socket(application, f"/ws/match/{duel}/", cookie=cookie)
    assert (await first_state(ws))["seat"] is None, "a key nobody keeps signs nobody in"
    await ws.disconnect()
