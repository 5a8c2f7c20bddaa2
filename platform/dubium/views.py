"""Site pages that belong to no single app: home, Play, the newcomer's welcome and the health check."""

from django.contrib.auth.decorators import login_required
from django.db import DatabaseError, connection
from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET
from django.views.defaults import page_not_found

from games.engine import GAMES
from games.lobby.snapshot import lobby_snapshot
from games.matches.errors import error_body
from games.matches.models import Match
from ratings.ladders import default_kind, ladder, who_is_ranked
from tournaments.arena_pages import arenas_to_join
from tournaments.formats.arena import Arena
from tournaments.models import Tournament


@require_GET
def home(request):
    games = list(GAMES.values())
    live = Match.objects.filter(status=Match.Status.RUNNING).prefetch_related("seats__user").order_by("-started_at")
    upcoming = Tournament.objects.filter(status=Tournament.Status.SCHEDULED).exclude(format=Arena.slug)
    return render(
        request,
        "home.html",
        {
            "games": [(game, *top_three(game.slug)) for game in games],
            "live": live[:8],
            "arenas": arenas_to_join(),
            "tournaments": upcoming.order_by("starts_at")[:5],
        },
    )


@require_GET
def play(request):
    """Every game, with how many tables wait and how many matches run, and the arena to join
    next (running now, or the soonest to start): the lobbies do not know of tournaments."""
    cards = [{"game": game, "lobby": lobby_snapshot(slug)} for slug, game in GAMES.items()]
    arenas = arenas_to_join()
    return render(request, "games/play.html", {"cards": cards, "arena": arenas[0] if arenas else None})


def top_three(game: str) -> tuple:
    """The top of the ladder the leaderboard page shows first, with its rule in words."""
    kind = default_kind(game)
    return ladder(game, kind)[:3], who_is_ranked(game, kind)


@login_required
@require_GET
def welcome(request):
    """Where registration lands: what a newcomer can do next, each one a link away."""
    upcoming = Tournament.objects.filter(status=Tournament.Status.SCHEDULED).order_by("starts_at")
    return render(request, "welcome.html", {"games": list(GAMES.values()), "tournaments": upcoming[:3]})


@never_cache
@require_GET
def healthz(request):
    """For load balancers and container health checks: the database answers a trivial query."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except DatabaseError:
        return JsonResponse({"status": "error", "database": "unreachable"}, status=503)
    return JsonResponse({"status": "ok", "database": "ok"})


def not_found(request, exception=None):
    """handler404: API clients get JSON for a path that names nothing, people get the page."""
    if request.path.startswith("/api/"):
        return no_such_api_path(request)
    return page_not_found(request, exception)


@csrf_exempt  # it changes nothing, for any method: a POST to a wrong path is a 404, not a CSRF refusal
def no_such_api_path(request, *args):
    """The last /api/ URL pattern: also with DEBUG on, where Django would not call handler404."""
    return JsonResponse(error_body("not_found", "No such API path."), status=404)
