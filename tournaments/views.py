from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from games.matches.errors import MatchError
from tournaments import services
from tournaments.models import Tournament


def tournament_list(request):
    return render(
        request,
        "tournaments/list.html",
        {
            "upcoming": Tournament.objects.filter(status=Tournament.Status.SCHEDULED).select_related("organizer"),
            "recent": Tournament.objects.exclude(status=Tournament.Status.SCHEDULED).order_by("-starts_at")[:20],
        },
    )


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    entries = tournament.entries.select_related("user")
    entered = request.user.is_authenticated and entries.filter(user=request.user).exists()
    return render(
        request, "tournaments/detail.html", {"tournament": tournament, "entries": entries, "entered": entered}
    )


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
