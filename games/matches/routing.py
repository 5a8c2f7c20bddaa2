from django.urls import path

from games.matches.consumers import MatchConsumer

websocket_urlpatterns = [path("ws/match/<id:match_id>/", MatchConsumer.as_asgi())]
