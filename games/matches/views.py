"""Pages of a match: the live table and the replay viewer. The websocket does the rest."""

from django.shortcuts import get_object_or_404, render

from games.bots import bot_names
from games.dobble.deck import SYMBOL_NAMES
from games.matches.models import Match


def table(request, match_id: int):
    match = get_object_or_404(Match.objects.prefetch_related("seats__user"), pk=match_id)
    seat = match.seat_of(request.user)
    return render(
        request,
        "games/table.html",
        {
            "match": match,
            "seat": seat,
            "is_host": request.user.is_authenticated and match.host_id == request.user.pk,
            "can_join": request.user.is_authenticated and seat is None and match.status == Match.Status.OPEN,
            "bot_names": bot_choices(match),
            "dobble_symbols": SYMBOL_NAMES if match.game == "dobble" else None,
        },
    )


def replay(request, match_id: int):
    match = get_object_or_404(Match.objects.prefetch_related("seats__user"), pk=match_id, status=Match.Status.FINISHED)
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "steps": match.seq,
            "dobble_symbols": SYMBOL_NAMES if match.game == "dobble" else None,
        },
    )


def bot_choices(match: Match) -> list[str]:
    return bot_names(match.game)
