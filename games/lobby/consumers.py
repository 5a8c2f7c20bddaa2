"""The live lobby of one game: tables, queues and players online, pushed on every change; and
the notices every page of a logged-in player listens to (a challenge shows in the header)."""

from channels.db import database_sync_to_async

from games.engine import GAMES
from games.lobby.matchmaking import just_paired
from games.lobby.snapshot import lobby_snapshot, socket_alive, sockets_alive
from games.matches import broadcast, occasions, writes
from games.matches.sockets import Heartbeat, ReconnectingConsumer

# This process's open lobby sockets, refreshed in the database together (snapshot.sockets_alive).
LOBBY_SOCKETS = Heartbeat(sockets_alive)


class LobbyConsumer(ReconnectingConsumer):
    async def connect(self):
        self.game = self.scope["url_route"]["kwargs"]["game"]
        if self.game not in GAMES:
            await self.accept()  # then close: a refused handshake reads as a dropped line
            await self.close(code=4404)
            return
        user = self.scope.get("user")
        self.groups_joined = [broadcast.lobby_group(self.game)]
        if user is not None and user.is_authenticated:
            self.groups_joined.append(broadcast.user_group(user.pk))
        self.groups_joined += self.sign_in_groups()
        if not await self.join_groups(self.groups_joined):
            return
        await self.accept()
        self.beating = True
        LOBBY_SOCKETS.add(self.channel_name)
        await writes.presence_write(0, socket_alive, self.channel_name)
        if user is not None and user.is_authenticated:
            match = await database_sync_to_async(just_paired)(user, self.game)
            if match is not None:
                await self.send_json(broadcast.match_found_message(match))
            for message in await database_sync_to_async(opening_notices)(user):
                await self.send_json(message)
        await self.channel_layer.group_send(broadcast.lobby_group(self.game), {"type": "lobby.changed"})

    async def disconnect(self, code):
        """Count the connection out (called again after a service failed: no harm)."""
        if getattr(self, "beating", False):
            LOBBY_SOCKETS.discard(self.channel_name)
            await writes.presence_write(0, socket_alive, self.channel_name, False)
        await self.leave_groups()
        if self.game not in GAMES:
            return
        await self.channel_layer.group_send(broadcast.lobby_group(self.game), {"type": "lobby.changed"})

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "bad_message", "message": "The lobby socket only listens."})

    async def lobby_changed(self, event):
        await self.send_json(await database_sync_to_async(lobby_snapshot)(self.game))

    async def match_push(self, event):
        await self.send(text_data=event["text"])


def opening_notices(user) -> list[dict]:
    """What a page of the player's hears as its socket opens: the notices of the last minutes
    (it may have been loading when they went out: the page shows each only once) and the event
    games they are to play now, as reminders that take nobody anywhere."""
    # Oldest first: a page shows one reminder, each replacing the last, so the newest game stays
    # (an older one may belong to a cancelled event that no longer counts).
    reminders = [
        broadcast.match_found_message(match, occasion.name) | {"reminder": True}
        for match, occasion in reversed(occasions.games_under_way(user))
    ]
    return [*broadcast.recent_notices(user.pk), *reminders]


class NoticeConsumer(ReconnectingConsumer):
    """What is addressed to one player wherever they are on the site: the per-user group's pushes
    (notices.js acts on a challenge and ignores the rest)."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()  # then close with a code the page reads as "do not come back"
            await self.close(code=4401)
            return
        self.groups_joined = [broadcast.user_group(user.pk), *self.sign_in_groups()]
        if not await self.join_groups(self.groups_joined):
            return
        await self.accept()
        for message in await database_sync_to_async(opening_notices)(user):
            await self.send_json(message)

    async def disconnect(self, code):
        await self.leave_groups()

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "bad_message", "message": "This socket only listens."})

    async def match_push(self, event):
        await self.send(text_data=event["text"])
