"""A client of the stack under test: HTTP calls, accounts, match sockets, as a bot would use them."""

import contextlib
import json
import time
import urllib.error
import urllib.request

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect


def request(port: int, method: str, path: str, body: dict | None, token: str | None) -> urllib.request.Request:
    return urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        method=method,
        data=json.dumps(body).encode() if body is not None else None,
        headers={"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})},
    )


def call(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> dict:
    """The answer's body; a refusal raises urllib.error.HTTPError."""
    with urllib.request.urlopen(request(port, method, path, body, token), timeout=10) as response:
        return json.loads(response.read() or b"null")


def answer(port: int, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, dict]:
    """The answer's status and body, refusals included."""
    try:
        with urllib.request.urlopen(request(port, method, path, body, token), timeout=10) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as refused:
        return refused.code, json.loads(refused.read() or b"null")


def register(port: int, username: str) -> str:
    password = "a long enough password 42"
    call(
        port,
        "POST",
        "/api/accounts/register/",
        {"username": username, "email": f"{username}@example.com", "password": password},
    )
    return call(port, "POST", "/api/accounts/token/", {"username": username, "password": password})["token"]


def socket_for(port: int, match_id: int, token: str, **options):
    """Use it in a `with` block, or pass legacy=True to hold the socket open across calls."""
    return connect(
        f"ws://127.0.0.1:{port}/ws/match/{match_id}/",
        additional_headers={"Authorization": f"Token {token}", "Origin": f"http://127.0.0.1:{port}"},
        **options,
    )


def next_state(ws, seq: int, timeout: float = 20) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        message = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
        if message["type"] == "state" and message["seq"] >= seq:
            return message
    raise TimeoutError(f"no state with seq >= {seq}")


def started_duel(host_port: int, host: str, guest_port: int, guest: str) -> dict:
    """A running two-player Dudo match: the host creates and starts it, the guest joins."""
    match = call(host_port, "POST", "/api/matches/", {"game": "dudo", "players": 2}, host)
    call(guest_port, "POST", f"/api/matches/{match['id']}/join/", {}, guest)
    call(host_port, "POST", f"/api/matches/{match['id']}/start/", {}, host)
    return match


def table_with_house_bot(port: int, token: str) -> dict:
    """A two-player Dudo table of the token's owner and the heuristic house bot, not started yet."""
    match = call(port, "POST", "/api/matches/", {"game": "dudo", "players": 2}, token)
    call(port, "POST", f"/api/matches/{match['id']}/bots/", {"bot": "heuristic"}, token)
    return match


def first_move_if_mine(ws, state: dict) -> dict:
    """Play the first legal move when it is this socket's turn; the state the bot then faces."""
    if state["to_act"] == [state["seat"]]:
        ws.send(json.dumps({"type": "action", "action": state["legal"][0], "seq": state["seq"]}))
        return next_state(ws, state["seq"] + 1)
    return state


class Player:
    """A seat's socket that behaves like the browser's table page: when the server closes it,
    it connects again (every `retry` seconds) and takes the full state it is sent."""

    def __init__(self, port: int, match_id: int, token: str, retry: float = 0.5):
        self.port, self.match_id, self.token, self.retry = port, match_id, token, retry
        self.reconnects = -1
        self.reconnect(time.monotonic() + 30, pause=0)

    def state(self, seq: int, timeout: float = 30) -> dict:
        """The first state at or after `seq`, reconnecting as often as it takes."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                return next_state(self.ws, seq, timeout=max(0.1, deadline - time.monotonic()))
            except ConnectionClosed:
                self.reconnect(deadline)
        raise TimeoutError(f"no state with seq >= {seq} in {timeout} s ({self.reconnects} reconnects)")

    def play(self, action: dict, seq: int, timeout: float = 30) -> dict:
        """Move until the server has it, as a careful client does: a move that met a failure is
        sent again (a repeat is refused as stale, never applied twice), and a sync after each
        try brings the current state even when the push after the move was lost."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            self.move(action, seq)
            self.sync()
            try:
                return self.state(seq + 1, timeout=2)
            except TimeoutError:
                continue
        raise TimeoutError(f"move {seq + 1} was not taken in {timeout} s ({self.reconnects} reconnects)")

    def sync(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            self.ws.send(json.dumps({"type": "sync"}))

    def move(self, action: dict, seq: int) -> None:
        try:
            self.ws.send(json.dumps({"type": "action", "action": action, "seq": seq}))
        except ConnectionClosed:
            pass  # the next `state` reconnects, and the caller sees whether the move was made

    def reconnect(self, deadline: float, pause: float | None = None) -> None:
        while time.monotonic() < deadline:
            time.sleep(self.retry if pause is None else pause)
            pause = None
            try:
                self.ws = socket_for(self.port, self.match_id, self.token, legacy=True)
                self.reconnects += 1
                return
            except (OSError, InvalidStatus, ConnectionClosed):
                continue
        raise TimeoutError("could not reconnect")

    def close(self) -> None:
        self.ws.close()
