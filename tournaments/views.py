from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.engine import get_game
from games.matches.errors import MatchError
from tournaments import running, services
from tournaments.models import Tournament
from tournaments.standings import SCORING, standings


def tournament_list(request):
    return render(
        request,
        "tournaments/list.html",
        {
            "upcoming": Tournament.objects.filter(status=Tournament.Status.SCHEDULED).select_related("organizer"),
            "running": Tournament.objects.filter(
                status__in=[Tournament.Status.RUNNING, Tournament.Status.PAUSED]
            ).select_related("organizer"),
            "recent": Tournament.objects.filter(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ).order_by("-starts_at")[:20],
        },
    )


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    entries = tournament.entries.select_related("user")
    entered = request.user.is_authenticated and entries.filter(user=request.user).exists()
    tables = tournament.tables.select_related("match", "chooser__user")
    my_choice = next(
        (t for t in tables if t.match is None and request.user.is_authenticated and t.chooser.user == request.user),
        None,
    )
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "entries": entries,
            "entered": entered,
            "scoring": SCORING[tournament.format],
            "my_choice": my_choice,
            "mini_games": get_game("dobble").options["mini_game"].named_choices() if my_choice else (),
            **results(tournament),
        },
    )


def results(tournament: Tournament) -> dict:
    """Standings and every round's tables, for the public page and the organizer's (_results.html)."""
    names = {entry.pk: entry.user.username for entry in tournament.entries.select_related("user")}
    rounds = {}
    for table in tournament.tables.select_related("match", "chooser__user"):
        rounds.setdefault(table.round, []).append({"table": table, "players": [names[e] for e in table.seating]})
    return {
        "standings": standings(tournament) if tournament.status != Tournament.Status.SCHEDULED else [],
        "rounds": sorted(rounds.items()),
    }


@require_POST
@login_required
def choose_mini_game(request, tournament_id: int):
    try:
        running.choose(tournament_id, request.user, request.POST.get("mini_game", ""))
        messages.info(request, "Chosen: the next mini-game starts now.")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("tournament", tournament_id=tournament_id)


@require_POST
@login_required
def enter_or_withdraw(request, tournament_id: int):
    try:
        if request.POST.get("withdraw"):
            services.withdraw(tournament_id, request.user)
            messages.info(request, "You have withdrawn.")
        else:
            services.enter(tournament_id, request.user)
            messages.info(request, "You are entered. Good luck!")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("tournament", tournament_id=tournament_id)
