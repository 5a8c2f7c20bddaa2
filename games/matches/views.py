"""Pages of a match: the live table and the replay viewer. The websocket does the rest."""

from django.shortcuts import get_object_or_404, render
from django.templatetags.static import static

from games.bots import bot_names
from games.dobble.deck import SYMBOL_NAMES
from games.matches import replays
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
            "dobble_symbols": dobble_symbols() if match.game == "dobble" else None,
        },
    )


def replay(request, match_id: int):
    match = get_object_or_404(Match.objects.prefetch_related("seats__user"), pk=match_id, status=Match.Status.FINISHED)
    own = replays.seats_shown_to(match, request.user)
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "own_seat": own[0] if own else None,
            "names": [seat.user.username for seat in sorted(match.seats.all(), key=lambda s: s.number)],
            "steps": match.seq,
            "dobble_symbols": dobble_symbols() if match.game == "dobble" else None,
        },
    )


def dobble_symbols() -> list[dict]:
    """Each Dobble symbol's name and picture (static/vendor/twemoji/, one file per name)."""
    return [{"name": name, "picture": static(f"vendor/twemoji/{name.replace(' ', '-')}.svg")} for name in SYMBOL_NAMES]


def bot_choices(match: Match) -> list[str]:
    return bot_names(match.game)
