from django.urls import path

from games.matches import api

urlpatterns = [
    path("games/", api.games, name="api-games"),
    path("matches/", api.matches, name="api-matches"),
    path("matches/<id:match_id>/", api.match_detail, name="api-match"),
    path("matches/<id:match_id>/join/", api.match_command, {"command": "join"}, name="api-match-join"),
    path("matches/<id:match_id>/leave/", api.match_command, {"command": "leave"}, name="api-match-leave"),
    path("matches/<id:match_id>/start/", api.match_command, {"command": "start"}, name="api-match-start"),
    path("matches/<id:match_id>/bots/", api.add_bot, name="api-match-bots"),
    path("matches/<id:match_id>/actions/", api.act, name="api-match-act"),
    path("matches/<id:match_id>/replay/", api.replay_export, name="api-match-replay"),
    path("matches/<id:match_id>/replay/<id:step>/", api.replay_step, name="api-match-replay-step"),
]
