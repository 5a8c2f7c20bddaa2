"""The two floors bench/load.py measures Dubium against, as Channels consumers (served by
bench/relay_server.py beside Dubium).

The relay is the floor a move cannot beat: for each move a client sends, it pushes one message
of the given size to every seat of its room (one group per seat, plus a spectators' group, as
Dubium does) through the same channel layer, sent together as Dubium sends a move's pushes
(`broadcast.send_to_groups`), with no database, no rules and no views.

The stored relay is the floor of a move that is committed before anyone hears of it, as
Dubium's are: the same relay, but each move first goes through Dubium's write group (the
process's database thread, grouped commits) and there locks its room's row, reads its
snapshot, appends a log row and rewrites the snapshot at the size of Dubium's, in plain SQL:
what Dubium's design stores, with nothing else. Each of its sockets is counted in its room's row,
locked, before it is sent its first state, as Dubium counts a seat's sockets: the floor of an
opening committed before it is answered. What Dubium spends beyond it is the rules, the
model objects and the per-seat views. With a snapshot of 0 bytes it only appends the log row
(`bench/load.py --floor log`): the thinnest committed move, for a design that keeps its
snapshots elsewhere or every N moves.
"""

import base64
import json
import os

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from games.matches import rows, writes
from games.matches.broadcast import send_to_groups
from games.matches.errors import MatchError
from games.matches.sockets import ReconnectingConsumer

ROOMS_TABLE = "bench_stored_room"
LOG_TABLE = "bench_stored_log"
LOGGED_ACTION = json.dumps(
    {
        "action": {"type": "bid", "quantity": 3, "face": 4},
        "events": [{"type": "bid", "seat": 1, "quantity": 3, "face": 4}],
    }
)


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
        await self.relay(int(content["seq"]) + 1)

    async def relay(self, seq: int):
        events = [
            (self.group("watch" if seat is None else seat), {"type": "relay.push", "message": self.state(seq, seat)})
            for seat in [*range(self.seats), None]
        ]
        await send_to_groups(self.channel_layer, events)  # as Dubium sends a move's pushes

    async def relay_push(self, event):
        await self.send_json(event["message"])


class StoredRelayConsumer(RelayConsumer):
    """/ws/stored/<room>/<seat>/<seats>/<bytes>/<snapshot bytes>/: the relay, each move committed
    first through Dubium's write group, as a move is: with its snapshot rewritten (`store_move`),
    or, with 0 snapshot bytes, only its log row (`log_move`: the thinnest committed move, ordered by
    the log's key)."""

    async def connect(self):
        parts = self.scope["path"].strip("/").split("/")
        room, size = int(parts[2]), int(parts[6])
        # Random text, so that PostgreSQL cannot compress it where Dubium's JSON does not compress much.
        self.snapshot = base64.b64encode(os.urandom(size))[:size].decode() if size else None
        await writes.presence_write(room, count_socket, room, 1)
        await super().connect()

    async def disconnect(self, code):
        await writes.presence_write(int(self.room), count_socket, int(self.room), -1)
        await super().disconnect(code)

    async def receive_json(self, content, **kwargs):
        seq, room = int(content["seq"]) + 1, int(self.room)
        try:
            if self.snapshot is None:
                await writes.write(room, log_move, room, self.seat, seq)
            else:
                await writes.write(room, store_move, room, self.seat, seq, self.snapshot)
        except MatchError as error:
            await self.send_json({"type": "error", "code": error.code})
            return
        await self.relay(seq)


def store_move(room: int, seat: int, seq: int, snapshot: str) -> None:
    """What a move of Dubium's stores, in plain SQL, the way Dubium's statements go
    (games/matches/rows.py: bound on the server and prepared, the writes in one statement): lock and read
    its room's row, append to the log, rewrite the snapshot, in one transaction (a savepoint
    within the group's)."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with transaction.atomic(), rows.cursor(connection) as cursor:
        cursor.execute(f"SELECT seq, state FROM {ROOMS_TABLE} WHERE id = %s{lock}", [room])
        (stored_seq, _state) = cursor.fetchone()
        if stored_seq != seq - 1:
            raise MatchError("stale", "The room has moved on.")
        rows.execute_all(
            log_row(room, seat, seq),
            rows.Statement(f"UPDATE {ROOMS_TABLE} SET seq = %s, state = %s WHERE id = %s", [seq, snapshot, room]),
        )


def count_socket(room: int, change: int) -> None:
    """A socket of the room opened (1) or closed (-1): its count written under the room's lock,
    as a seat's is (presence.opened), in a write group without a savepoint."""
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
    with transaction.atomic(savepoint=False), rows.cursor(connection) as cursor:
        cursor.execute(f"SELECT sockets FROM {ROOMS_TABLE} WHERE id = %s{lock}", [room])
        cursor.execute(f"UPDATE {ROOMS_TABLE} SET sockets = sockets + %s WHERE id = %s", [change, room])


def log_move(room: int, seat: int, seq: int) -> None:
    """The least a committed move can store: its log row; a second move at the same seq breaks
    the log's key and is refused."""
    try:
        with transaction.atomic():
            rows.execute_all(log_row(room, seat, seq))
    except IntegrityError:
        raise MatchError("stale", "The room has moved on.") from None


def log_row(room: int, seat: int, seq: int) -> rows.Statement:
    """A log row of the size of Dubium's for a Dudo bid (the action and the history it added)."""
    return rows.Statement(
        f"INSERT INTO {LOG_TABLE} (room, seq, seat, action, created_at) VALUES (%s, %s, %s, %s, %s)",
        [room, seq, seat, LOGGED_ACTION, timezone.now()],
    )


def create_rooms(count: int) -> None:
    """The stored relay's tables in the bench's throwaway database, one row a room at seq 0."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE {ROOMS_TABLE} (id integer PRIMARY KEY, seq integer NOT NULL, state text,"
            " sockets integer NOT NULL DEFAULT 0)"
        )
        cursor.execute(
            f"CREATE TABLE {LOG_TABLE} (room integer NOT NULL, seq integer NOT NULL, seat integer NOT NULL,"
            " action text NOT NULL, created_at timestamp NOT NULL, PRIMARY KEY (room, seq))"
        )
        rooms = [[number] for number in range(count)]
        cursor.executemany(f"INSERT INTO {ROOMS_TABLE} (id, seq, state) VALUES (%s, 0, '')", rooms)
