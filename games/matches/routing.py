from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from games.lobby.consumers import LobbyConsumer, NoticeConsumer
from games.matches.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/match/<id:match_id>/", MatchConsumer.as_asgi()),
    path("ws/lobby/<str:game>/", LobbyConsumer.as_asgi()),
    path("ws/notices/", NoticeConsumer.as_asgi()),
    # Any other path (`/ws/match/abc/`) is refused at the handshake (403), not a server error.
    re_path(r"", WebsocketDenier.as_asgi()),
]
