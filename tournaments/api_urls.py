from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.tournaments, name="api-tournaments"),
    path("tournaments/<id:tournament_id>/", api.tournament_detail, name="api-tournament"),
    path("tournaments/<id:tournament_id>/entry/", api.entry, name="api-tournament-entry"),
    path("tournaments/<id:tournament_id>/choice/", api.choice, name="api-tournament-choice"),
]
