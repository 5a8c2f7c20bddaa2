"""The lobby pages and the rules pages."""


from django.http import Http404
from django.shortcuts import render

from dubium.docs import doc_html
from games.bots import bot_names
from games.engine import GAMES
from games.lobby.models import QueueEntry
from games.lobby.snapshot import lobby_snapshot
from games.matches.models import Match


def play(request):
    """Every game, with how many tables wait and how many matches run."""
    cards = [{"game": game, "lobby": lobby_snapshot(slug)} for slug, game in GAMES.items()]
    return render(request, "games/play.html", {"cards": cards})


def lobby(request, game: str):
    engine = GAMES.get(game)
    if engine is None:
        raise Http404("No such game")
    queued = None
    mine = []
    if request.user.is_authenticated:
        queued = QueueEntry.objects.filter(user=request.user, game=game).first()
        mine = Match.objects.filter(
            game=game, seats__user=request.user, status__in=[Match.Status.OPEN, Match.Status.RUNNING]
        ).order_by("-created_at")[:10]
    return render(
        request,
        "games/lobby.html",
        {
            "engine": engine,
            "info": engine.describe(),
            "bot_names": bot_names(game),
            "queued": queued,
            "my_matches": mine,
            "ranked_sizes": range(max(2, engine.min_players), engine.max_players + 1),
            "snapshot": lobby_snapshot(game),
            "clocks": Match.Clock.choices,
        },
    )


def rules(request, game: str):
    engine = GAMES.get(game)
    if engine is None:
        raise Http404("No such game")
    return render(request, "games/rules.html", {"engine": engine, "rules_html": doc_html(f"rules/{game}.md")})
