"""The live lobby of one game: tables, queues and players online, pushed on every change."""

from channels.db import database_sync_to_async

from games.engine import GAMES
from games.lobby.matchmaking import just_paired
from games.lobby.snapshot import count_online, lobby_snapshot
from games.matches import broadcast
from games.matches.sockets import ReconnectingConsumer


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
        for group in self.groups_joined:
            await self.channel_layer.group_add(group, self.channel_name)
        await self.accept()
        await database_sync_to_async(count_online)(1)
        self.counted = True
        if user is not None and user.is_authenticated:
            match = await database_sync_to_async(just_paired)(user, self.game)
            if match is not None:
                await self.send_json(broadcast.match_found_message(match))
        await self.channel_layer.group_send(broadcast.lobby_group(self.game), {"type": "lobby.changed"})

    async def disconnect(self, code):
        """Count the connection out once, even when called again after a service failed."""
        if getattr(self, "counted", False):
            await database_sync_to_async(count_online)(-1)
            self.counted = False
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)
        if self.game not in GAMES:
            return
        await self.channel_layer.group_send(broadcast.lobby_group(self.game), {"type": "lobby.changed"})

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "bad_message", "message": "The lobby socket only listens."})

    async def lobby_changed(self, event):
        await self.send_json(await database_sync_to_async(lobby_snapshot)(self.game))

    async def match_push(self, event):
        await self.send(text_data=event["text"])
