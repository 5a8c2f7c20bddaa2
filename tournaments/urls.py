from django.urls import path

from tournaments import dashboard, exports, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<int:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<int:tournament_id>/entry/", views.enter_or_withdraw, name="tournament-entry"),
    path("tournaments/<int:tournament_id>/withdraw/", views.confirm_withdrawal, name="tournament-withdraw"),
    path("tournaments/<int:tournament_id>/choose/", views.choose_mini_game, name="tournament-choose"),
    path(
        "tournaments/<int:tournament_id>/<str:what>.<str:fmt>",
        exports.export,
        name="tournament-export",
    ),
    path("tournaments/<int:tournament_id>/round/<int:round_number>/", exports.round_sheet, name="round-sheet"),
    path("organize/", dashboard.dashboard, name="organize"),
    path("organize/new/<str:game>/", dashboard.new, name="organize-new"),
    path("organize/<int:tournament_id>/", dashboard.manage, name="organize-tournament"),
    path("organize/<int:tournament_id>/edit/", dashboard.edit, name="organize-edit"),
    path("organize/<int:tournament_id>/bots/", dashboard.add_bots, name="organize-bots"),
    path(
        "organize/<int:tournament_id>/entries/<int:entry_id>/remove/",
        dashboard.withdraw_entry,
        name="organize-withdraw-entry",
    ),
    path("organize/<int:tournament_id>/entries/", dashboard.enter_player, name="organize-enter-player"),
    path(
        "organize/<int:tournament_id>/entries/<int:entry_id>/check-in/",
        dashboard.check_in,
        name="organize-check-in",
    ),
    path(
        "organize/<int:tournament_id>/entries/<int:entry_id>/pair-again/",
        dashboard.pair_again,
        name="organize-pair-again",
    ),
    path(
        "organize/<int:tournament_id>/tables/<int:table_id>/correct/", dashboard.correct, name="organize-correct"
    ),
    path("organize/<int:tournament_id>/tables/<int:table_id>/stop/", dashboard.stop_table, name="organize-stop"),
    path("organize/<int:tournament_id>/<str:action>/", dashboard.act, name="organize-act"),
]
