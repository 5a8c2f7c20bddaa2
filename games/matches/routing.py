from django.urls import path

from games.lobby.consumers import LobbyConsumer, NoticeConsumer
from games.matches.consumers import MatchConsumer

websocket_urlpatterns = [
    path("ws/match/<int:match_id>/", MatchConsumer.as_asgi()),
    path("ws/lobby/<str:game>/", LobbyConsumer.as_asgi()),
    path("ws/notices/", NoticeConsumer.as_asgi()),
]
