from django.urls import path

from botapi.events import EventConsumer
from games.matches.routing import websocket_urlpatterns as match_and_lobby_patterns

# The bots' event socket first: the match service's list ends with a pattern that refuses any other path.
websocket_urlpatterns = [path("ws/events/", EventConsumer.as_asgi()), *match_and_lobby_patterns]

__all__ = ["websocket_urlpatterns"]
