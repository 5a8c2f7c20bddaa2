from django.urls import path

from games.matches import api

urlpatterns = [
    path("games/", api.games, name="api-games"),
    path("matches/", api.matches, name="api-matches"),
    path("matches/<int:match_id>/", api.match_detail, name="api-match"),
    path("matches/<int:match_id>/join/", api.match_command, {"command": "join"}, name="api-match-join"),
    path("matches/<int:match_id>/leave/", api.match_command, {"command": "leave"}, name="api-match-leave"),
    path("matches/<int:match_id>/start/", api.match_command, {"command": "start"}, name="api-match-start"),
    path("matches/<int:match_id>/bots/", api.add_bot, name="api-match-bots"),
    path("matches/<int:match_id>/actions/", api.act, name="api-match-act"),
    path("matches/<int:match_id>/replay/", api.replay_export, name="api-match-replay"),
    path("matches/<int:match_id>/replay/<int:step>/", api.replay_step, name="api-match-replay-step"),
]
