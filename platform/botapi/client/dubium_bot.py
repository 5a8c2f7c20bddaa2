"""A Dubium bot client in one file, standard library only (Python 3.11+): download it from the
Bots page, write `choose(view, legal)`, and run

    python dubium_bot.py --server http://127.0.0.1:8000 --token <the bot's token> --bot mybot.py

It opens the bot's event stream (`GET /api/stream/event`, one JSON event a line), and for every
match it is told of (a queue pairing, a ladder match, a tournament game, an accepted challenge)
plays over the match's websocket: each time its seat may act, it sends `choose(view, legal)`.
`--queue dudo` also puts the bot in the ranked queue, again after each game; `--accept` accepts
every challenge it is sent. In a Dobble series, a bot that lost a mini-game names the next one
with `choose_mini_game(choices)` if its file defines one, else takes the one the server offers
(docs/protocol/dobble.md). docs/bots.md describes the protocol it speaks.
"""

import argparse
import base64
import importlib.util
import json
import os
import socket
import ssl
import struct
import threading
import urllib.error
import urllib.request
from urllib.parse import urlsplit


class DubiumError(Exception):
    """The server refused a request: `code` and `message` as the API answers them."""

    def __init__(self, status: int, body: dict):
        super().__init__(f"{status} {body.get('code')}: {body.get('message')}")
        self.status, self.code, self.message = status, body.get("code"), body.get("message")


class Client:
    """The bot's side of the HTTP API, signed in by its token."""

    def __init__(self, server: str, token: str):
        self.server, self.token = server.rstrip("/"), token

    def request(self, method: str, path: str, body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        headers = {"Authorization": f"Token {self.token}", "Content-Type": "application/json"}
        asked = urllib.request.Request(self.server + path, data=data, method=method, headers=headers)
        try:
            with urllib.request.urlopen(asked, timeout=30) as answer:
                text = answer.read()
        except urllib.error.HTTPError as error:
            raise DubiumError(error.code, json.loads(error.read() or b"{}")) from None
        return json.loads(text) if text else None

    def events(self):
        """The event stream: yields each event (a dict) as it comes, skipping keep-alive lines."""
        asked = urllib.request.Request(
            self.server + "/api/stream/event", headers={"Authorization": f"Token {self.token}"}
        )
        try:
            with urllib.request.urlopen(asked, timeout=60) as stream:
                for line in stream:
                    if line.strip():
                        yield json.loads(line)
        except urllib.error.HTTPError as error:
            raise DubiumError(error.code, json.loads(error.read() or b"{}")) from None

    def join_queue(self, game: str, players: int = 2, time_control: str = "3+2") -> dict:
        return self.request("POST", "/api/queue/", {"game": game, "players": players, "time_control": time_control})

    def accept(self, challenge_id: int) -> dict:
        return self.request("POST", f"/api/bots/challenges/{challenge_id}/accept/")

    def play(self, match_id: int, choose) -> dict:
        """Play one match to its end over its websocket; returns the last state (with `result`)."""
        with WebSocket(self.server.replace("http", "ws", 1) + f"/ws/match/{match_id}/", self.token) as socket_:
            sent = None
            while True:
                message = socket_.receive()
                if message is None:
                    raise ConnectionError("The server closed the match's socket.")
                if message.get("type") != "state":
                    continue
                if message["status"] in ("finished", "aborted"):
                    return message
                if message["legal"] and message["seq"] != sent:
                    action = choose(message["view"], message["legal"])
                    socket_.send({"type": "action", "action": action, "seq": message["seq"]})
                    sent = message["seq"]


class WebSocket:
    """The little of RFC 6455 a bot needs: a client handshake, masked text frames out, text
    frames in (pings answered, fragments joined)."""

    def __init__(self, url: str, token: str):
        parts = urlsplit(url)
        secure = parts.scheme == "wss"
        port = parts.port or (443 if secure else 80)
        raw = socket.create_connection((parts.hostname, port), timeout=120)
        self.sock = ssl.create_default_context().wrap_socket(raw, server_hostname=parts.hostname) if secure else raw
        key = base64.b64encode(os.urandom(16)).decode()
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.sock.sendall(
            (
                f"GET {path} HTTP/1.1\r\nHost: {parts.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\nAuthorization: Token {token}\r\n\r\n"
            ).encode()
        )
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("The server closed the connection during the handshake.")
            head += chunk
        status = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status:
            raise ConnectionError(f"The websocket was refused: {status.decode(errors='replace')}")
        self.lock = threading.Lock()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def send(self, message: dict, opcode: int = 1) -> None:
        self.frame(json.dumps(message).encode(), opcode)

    def frame(self, payload: bytes, opcode: int) -> None:
        mask = os.urandom(4)
        size = len(payload)
        if size < 126:
            head = struct.pack("!BB", 0x80 | opcode, 0x80 | size)
        elif size < 65536:
            head = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, size)
        else:
            head = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, size)
        masked = bytes(byte ^ mask[i % 4] for i, byte in enumerate(payload))
        with self.lock:
            self.sock.sendall(head + mask + masked)

    def read(self, count: int) -> bytes:
        data = b""
        while len(data) < count:
            chunk = self.sock.recv(count - len(data))
            if not chunk:
                raise ConnectionError("The connection was closed.")
            data += chunk
        return data

    def receive(self) -> dict | None:
        """The next JSON message, or None once the server closed the socket."""
        pieces = b""
        while True:
            first, second = self.read(2)
            opcode, size = first & 0x0F, second & 0x7F
            if size == 126:
                size = struct.unpack("!H", self.read(2))[0]
            elif size == 127:
                size = struct.unpack("!Q", self.read(8))[0]
            payload = self.read(size)
            if opcode == 8:
                return None
            if opcode == 9:
                self.frame(payload, 10)
                continue
            if opcode in (0, 1, 2):
                pieces += payload
                if first & 0x80:
                    return json.loads(pieces)

    def close(self) -> None:
        try:
            self.frame(b"", 8)
        except OSError:
            pass
        self.sock.close()


def load_bot(path: str):
    """The bot's file as a module: `choose`, and `choose_mini_game` if it has one."""
    spec = importlib.util.spec_from_file_location("bot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(client: Client, choose, queue: str = "", accept: bool = False, games: int = 0, choose_mini_game=None) -> None:
    """Listen for events and play every match told of, one at a time; stop after `games` (0: never)."""
    if queue:
        print("queue:", client.join_queue(queue)["pool"])
    played = set()
    for event in client.events():
        if event["type"] == "bot_challenge" and accept:
            client.accept(event["id"])
        elif event["type"] == "series_choice":
            pick = choose_mini_game(event["choices"]) if choose_mini_game else event["otherwise"]
            print(f"{event['about']}: chose {pick}")
            client.request("POST", event["answer"], {"mini_game": pick})
        elif event["type"] == "notice":
            print("notice:", event["text"])
        elif event["type"] == "match_found" and event["match"] not in played:
            played.add(event["match"])
            print(f"match {event['match']} ({event['game']}) {event.get('about') or ''}".rstrip())
            final = client.play(event["match"], choose)
            print("result:", json.dumps(final["view"] and final["view"].get("result")))
            if games and len(played) >= games:
                return
            if queue:
                client.join_queue(queue)


def main() -> None:
    parser = argparse.ArgumentParser(description="Play a Dubium bot from outside (docs/bots.md).")
    parser.add_argument("--server", default="http://127.0.0.1:8000")
    parser.add_argument("--token", default=os.environ.get("DUBIUM_TOKEN", ""), help="or DUBIUM_TOKEN")
    parser.add_argument("--bot", required=True, help="a Python file that defines choose(view, legal)")
    parser.add_argument("--queue", default="", help="join the ranked queue of this game, again after each game")
    parser.add_argument("--accept", action="store_true", help="accept every challenge")
    parser.add_argument("--games", type=int, default=0, help="stop after this many games")
    options = parser.parse_args()
    bot = load_bot(options.bot)
    client = Client(options.server, options.token)
    run(client, bot.choose, options.queue, options.accept, options.games, getattr(bot, "choose_mini_game", None))


if __name__ == "__main__":
    main()
