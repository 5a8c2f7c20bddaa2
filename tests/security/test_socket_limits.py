"""An account holds a bounded number of sockets and opens them at a bounded pace: a tester's
reconnecting loop opened hundreds a second, each sent its table's whole state, and held sixty
sockets on one seat, each sent every push."""

import time
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.test import Client

from dubium import socket_limits

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio, pytest.mark.timeout(60)]
SITE = [(b"origin", b"http://127.0.0.1:8000"), (b"host", b"127.0.0.1:8000")]


def cookie_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies[django_settings.SESSION_COOKIE_NAME].value


async def opened(application, cookie=None, address="198.51.100.7"):
    """(socket, None) when it stays open, else (None, (code, reason)) of its close."""
    headers = [*SITE]
    if cookie:
        headers.append((b"cookie", f"{django_settings.SESSION_COOKIE_NAME}={cookie}".encode()))
    ws = WebsocketCommunicator(application, "/ws/lobby/dudo/", headers=headers)
    ws.scope["client"] = (address, 50000)
    connected, _ = await ws.connect(timeout=10)  # a busy machine takes over a second
    assert connected
    output = await ws.receive_output(timeout=5)
    if output["type"] == "websocket.close":
        await ws.disconnect()
        return None, (output["code"], output.get("reason", ""))
    return ws, None


async def test_an_account_holds_at_most_so_many_sockets_at_once_and_another_account_is_not_held_back(
    application, alice, bob, settings
):
    settings.SOCKETS_OPEN_AT_ONCE = 3
    hers = await database_sync_to_async(cookie_of)(alice)
    held = [(await opened(application, hers))[0] for _ in range(3)]
    assert all(held)
    _, closed = await opened(application, hers)
    assert closed == (4429, "Too many sockets. At most 3 open at once.")
    his, _ = await opened(application, await database_sync_to_async(cookie_of)(bob))
    assert his is not None, "bob has sockets of his own to open"
    await held.pop().disconnect()
    again, _ = await opened(application, hers)
    assert again is not None, "a socket closed makes room for another"
    for ws in [*held, his, again]:
        await ws.disconnect()


async def test_opening_faster_than_the_pace_is_refused_until_the_pace_allows_again(
    application, alice, settings, monkeypatch
):
    settings.SOCKET_OPENS_BURST, settings.SOCKET_OPENS_PER_SECOND = 4, 2
    # The pace's own clock, held still while the sockets open (a busy machine takes its time).
    clock = SimpleNamespace(monotonic=lambda: now)
    now = time.monotonic()
    monkeypatch.setattr(socket_limits, "time", clock)
    hers = await database_sync_to_async(cookie_of)(alice)
    for _ in range(4):
        ws, _ = await opened(application, hers)
        await ws.disconnect()
    _, closed = await opened(application, hers)
    assert closed == (4429, "Too many sockets. Opened too often: wait a few seconds.")
    now += 0.6  # one more handshake's worth
    ws, _ = await opened(application, hers)
    assert ws is not None
    await ws.disconnect()


async def test_visitors_are_counted_by_address_with_room_for_the_people_behind_it(application, settings):
    settings.SOCKETS_OPEN_AT_ONCE = 2
    one_address = [(await opened(application, address="203.0.113.5"))[0] for _ in range(8)]
    assert all(one_address), "an address may be a school's: four people's room"
    _, closed = await opened(application, address="203.0.113.5")
    assert closed == (4429, "Too many sockets. At most 8 open at once.")
    another, _ = await opened(application, address="203.0.113.6")
    assert another is not None
    for ws in [*one_address, another]:
        await ws.disconnect()


async def test_a_bot_account_has_room_for_many_tables(application, make_user, settings):
    from rest_framework.authtoken.models import Token

    settings.SOCKETS_OPEN_AT_ONCE = 2
    bot = await database_sync_to_async(make_user)("busybot", is_bot=True)
    token = (await database_sync_to_async(Token.objects.get_or_create)(user=bot))[0].key

    async def bot_socket():
        headers = [*SITE, (b"authorization", f"Token {token}".encode())]
        ws = WebsocketCommunicator(application, "/ws/lobby/dudo/", headers=headers)
        connected, code = await ws.connect(timeout=10)
        return ws, connected, code

    held = [await bot_socket() for _ in range(20)]
    assert [connected for _, connected, _ in held] == [True] * 20, [code for _, _, code in held]
    ws, _, _ = await bot_socket()
    output = await ws.receive_output(timeout=5)
    assert (output["type"], output["code"]) == ("websocket.close", 4429)
    await ws.disconnect()
    for each, _, _ in held:
        await each.disconnect()
