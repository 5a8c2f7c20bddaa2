from django.urls import path

from games.lobby.consumers import LobbyConsumer, NoticeConsumer

websocket_urlpatterns = [
    path("ws/lobby/<str:game>/", LobbyConsumer.as_asgi()),
    path("ws/notices/", NoticeConsumer.as_asgi()),
]
