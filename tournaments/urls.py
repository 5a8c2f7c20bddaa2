from django.urls import path

from tournaments import arena_pages, dashboard, exports, views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/<id:tournament_id>/", views.tournament_detail, name="tournament"),
    path("tournaments/<id:tournament_id>/entry/", views.enter_or_withdraw, name="tournament-entry"),
    path("tournaments/<id:tournament_id>/withdraw/", views.confirm_withdrawal, name="tournament-withdraw"),
    path("tournaments/<id:tournament_id>/choose/", views.choose_mini_game, name="tournament-choose"),
    path("tournaments/<id:tournament_id>/leaderboard/", arena_pages.board, name="arena-board"),
    path("tournaments/<id:tournament_id>/berserk/", arena_pages.berserk, name="arena-berserk"),
    path("tournaments/<id:tournament_id>/arena/<str:action>/", arena_pages.act, name="arena-act"),
    path(
        "tournaments/<id:tournament_id>/<str:what>.<str:fmt>",
        exports.export,
        name="tournament-export",
    ),
    path("tournaments/<id:tournament_id>/round/<id:round_number>/", exports.round_sheet, name="round-sheet"),
    path("organize/", dashboard.dashboard, name="organize"),
    path("organize/new/<str:game>/", dashboard.new, name="organize-new"),
    path("organize/<id:tournament_id>/", dashboard.manage, name="organize-tournament"),
    path("organize/<id:tournament_id>/edit/", dashboard.edit, name="organize-edit"),
    path("organize/<id:tournament_id>/bots/", dashboard.add_bots, name="organize-bots"),
    path(
        "organize/<id:tournament_id>/entries/<id:entry_id>/remove/",
        dashboard.withdraw_entry,
        name="organize-withdraw-entry",
    ),
    path("organize/<id:tournament_id>/entries/", dashboard.enter_player, name="organize-enter-player"),
    path(
        "organize/<id:tournament_id>/entries/<id:entry_id>/check-in/",
        dashboard.check_in,
        name="organize-check-in",
    ),
    path(
        "organize/<id:tournament_id>/entries/<id:entry_id>/pair-again/",
        dashboard.pair_again,
        name="organize-pair-again",
    ),
    path(
        "organize/<id:tournament_id>/tables/<id:table_id>/correct/", dashboard.correct, name="organize-correct"
    ),
    path("organize/<id:tournament_id>/tables/<id:table_id>/stop/", dashboard.stop_table, name="organize-stop"),
    path("organize/<id:tournament_id>/repeat/", dashboard.repeat, name="organize-repeat"),
    path("organize/<id:tournament_id>/<str:action>/", dashboard.act, name="organize-act"),
]
