"""Dubium's ASGI application plus a bare relay, served by the same processes (bench/load.py).

The relay is the floor a move cannot beat: a Channels consumer that, for each move a
client sends, pushes one message of the given size to every seat of its room (one group
per seat, plus a spectators' group, as Dubium does) through the same channel layer, sent
together as Dubium sends a move's pushes (`broadcast.send_to_groups`), with no database, no
rules and no views. bench/load.py runs both in the same server processes and the same
client, so what the machine's other load does to one it does to the other.

    uvicorn relay_server:application --app-dir bench
"""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from dubium.asgi import application as dubium_application  # noqa: E402
from games.matches.broadcast import send_to_groups  # noqa: E402
from games.matches.sockets import ReconnectingConsumer  # noqa: E402


class RelayConsumer(ReconnectingConsumer):
    """/ws/relay/<room>/<seat>/<seats>/<bytes>/: each {"seq": n} received goes to every seat as
    a state message of seq n + 1 padded to <bytes>; seat (n + 1) % seats is the next to move.
    Dubium's consumers' base, so it dispatches a message as they do (no hop to the database
    thread per message)."""

    async def connect(self):
        room, seat, seats, size = self.scope["path"].strip("/").split("/")[2:6]
        self.room, self.seat, self.seats, self.size = room, int(seat), int(seats), int(size)
        await self.channel_layer.group_add(self.group(self.seat), self.channel_name)
        await self.accept()
        await self.send_json(self.state(0, self.seat))

    async def disconnect(self, code):
        await self.channel_layer.group_discard(self.group(self.seat), self.channel_name)

    def group(self, seat) -> str:
        return f"relay-{self.room}-{seat}"

    def state(self, seq: int, seat) -> dict:
        """Seat (seq % seats) has three legal moves, the others none; padded to the size asked."""
        legal = [{"type": "move", "n": n} for n in range(3)] if seat == seq % self.seats else []
        message = {"type": "state", "seq": seq, "status": "running", "seat": seat, "legal": legal, "pad": ""}
        message["pad"] = "x" * max(0, self.size - len(str(message)))
        return message

    async def receive_json(self, content, **kwargs):
        seq = int(content["seq"]) + 1
        events = [
            (self.group("watch" if seat is None else seat), {"type": "relay.push", "message": self.state(seq, seat)})
            for seat in [*range(self.seats), None]
        ]
        await send_to_groups(self.channel_layer, events)  # as Dubium sends a move's pushes

    async def relay_push(self, event):
        await self.send_json(event["message"])


relay_application = RelayConsumer.as_asgi()


async def application(scope, receive, send):
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/relay/"):
        return await relay_application(scope, receive, send)
    return await dubium_application(scope, receive, send)
