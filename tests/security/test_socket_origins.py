"""Websockets: only this site's pages (port included) and programs open them, and the lobby counts live sockets."""

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.utils import timezone

from games.lobby.models import LobbySocket
from games.lobby.snapshot import count_online

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def lobby(application, origin: bytes | None, host=b"127.0.0.1:8000"):
    headers = [(b"host", host)] + ([(b"origin", origin)] if origin is not None else [])
    socket = WebsocketCommunicator(application, "/ws/lobby/dudo/", headers=headers)
    connected, _ = await socket.connect()
    return socket, connected


@pytest.mark.parametrize(
    "origin, host, opens",
    [
        (b"http://127.0.0.1:8000", b"127.0.0.1:8000", True),
        (b"http://127.0.0.1:9999", b"127.0.0.1:8000", False),
        (b"http://127.0.0.1", b"127.0.0.1:8000", False),
        (b"http://evil.example:8000", b"127.0.0.1:8000", False),
        (b"http://evil.example", b"evil.example", False),
        (b"null", b"127.0.0.1:8000", False),  # a sandboxed frame or a file:// page
        (None, b"127.0.0.1:8000", True),  # no browser leaves it out: a bot's websocket library
        (None, b"evil.example", False),
    ],
)
async def test_the_origin_must_be_this_site_port_included(application, origin, host, opens):
    socket, connected = await lobby(application, origin, host)
    assert connected is opens
    await socket.disconnect()


async def test_a_trusted_origin_behind_a_proxy_opens(application, settings):
    settings.CSRF_TRUSTED_ORIGINS = ["https://dubium.example"]
    socket, connected = await lobby(application, b"https://dubium.example", b"127.0.0.1:8000")
    assert connected
    await socket.disconnect()


async def counted(expected: int) -> bool:
    for _ in range(50):
        if await database_sync_to_async(count_online)() == expected:
            return True
        await asyncio.sleep(0.05)
    return False


async def test_the_online_count_follows_live_sockets_and_forgets_crashed_ones(application):
    first, _ = await lobby(application, b"http://127.0.0.1:8000")
    second, _ = await lobby(application, b"http://127.0.0.1:8000")
    assert (await first.receive_json_from())["online"] >= 1
    assert await counted(2), "each socket counts itself once it is open (just after its handshake)"
    await second.disconnect()
    assert await database_sync_to_async(count_online)() == 1
    # A socket whose web process crashed stops beating: it is counted out once its beats are late.
    await database_sync_to_async(LobbySocket.objects.update)(last_seen=timezone.now() - timedelta(minutes=5))
    assert await database_sync_to_async(count_online)() == 0
    await first.disconnect()


@pytest.mark.parametrize("path", ["/ws/match/abc/", "/ws/nothing/", "/ws/", "/ws/match/1/extra/"])
async def test_a_socket_path_that_names_nothing_is_refused_not_a_server_error(application, path):
    """`/ws/match/abc/` was an HTTP 500 and a traceback with the caller's path in the log."""
    socket = WebsocketCommunicator(application, path, headers=[(b"host", b"127.0.0.1:8000")])
    connected, _ = await socket.connect()
    assert not connected
