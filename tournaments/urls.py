from django.urls import path

from tournaments import exports, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/entry/", views.enter_or_withdraw, name="tournament-entry"),
    path("tournaments/<int:tournament_id>/choose/", views.choose_mini_game, name="tournament-choose"),
    path(
        "tournaments/<int:tournament_id>/<str:what>.<str:fmt>",
        exports.export,
        name="tournament-export",
    ),
    path("tournaments/<int:tournament_id>/round/<int:round_number>/", exports.round_sheet, name="round-sheet"),
]
