from django.urls import path

from tournaments import api

urlpatterns = [
    path("tournaments/", api.tournaments, name="api-tournaments"),
    path("tournaments/<int:tournament_id>/", api.tournament_detail, name="api-tournament"),
    path("tournaments/<int:tournament_id>/entry/", api.entry, name="api-tournament-entry"),
    path("tournaments/<int:tournament_id>/choice/", api.choice, name="api-tournament-choice"),
]
