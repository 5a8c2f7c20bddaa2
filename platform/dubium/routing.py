from channels.security.websocket import WebsocketDenier
from django.urls import path, re_path

from botapi.events import EventConsumer
from games.lobby.routing import websocket_urlpatterns as lobby_patterns
from games.matches.routing import websocket_urlpatterns as match_patterns

# Each layer's sockets, assembled here at the top (the match service knows nothing of the lobby).
websocket_urlpatterns = [
    path("ws/events/", EventConsumer.as_asgi()),
    *match_patterns,
    *lobby_patterns,
    # Any other path (`/ws/match/abc/`) is refused at the handshake (403), not a server error.
    re_path(r"", WebsocketDenier.as_asgi()),
]

__all__ = ["websocket_urlpatterns"]
