"""Pages of a match: the live table and the replay viewer. The websocket does the rest."""

from django.http import HttpResponse
from django.shortcuts import render
from django.templatetags.static import static

from games.dobble.deck import SYMBOL_NAMES
from games.matches import occasions, replays
from games.matches.models import Match
from games.matches.verifier import verifier_archive
from games.registry import bot_strengths, registered


def missing(request, message: str):
    """A page in words, not the framework's 404 (which `make run`'s debug mode would show)."""
    return render(request, "games/no_match.html", {"message": message}, status=404)


def table(request, match_id: int):
    match = Match.objects.prefetch_related("seats__user").filter(pk=match_id).first()
    if match is None:
        return missing(request, "This match does not exist.")
    seat = match.seat_of(request.user)
    return render(
        request,
        "games/table.html",
        {
            "match": match,
            "seat": seat,
            "is_host": request.user.is_authenticated and match.host_id == request.user.pk,
            "can_join": request.user.is_authenticated and seat is None and match.status == Match.Status.OPEN,
            "house_bots": bot_choices(match),
            "occasion": occasions.of(match, request.user),
            "dobble_symbols": dobble_symbols() if match.game == "dobble" else None,
            "script": registered(match.game).script,
            # What was said before this page opened: a reload must not lose the table's talk.
            "chat": reversed(match.chat.select_related("user").order_by("-created_at")[:CHAT_SHOWN]),
        },
    )


CHAT_SHOWN = 50


def replay(request, match_id: int):
    match = Match.objects.prefetch_related("seats__user").filter(pk=match_id).first()
    if match is None:
        return missing(request, "This match does not exist.")
    if match.status != Match.Status.FINISHED:
        return missing(request, "The replay opens when the match ends.")
    seats = {seat.number: seat for seat in match.seats.all()}
    seen_by = [
        (number, "you, with your hand" if seats[number].user_id == request.user.pk else
         f"{seats[number].user.username}, with its hand")
        for number in replays.seats_shown_to(match, request.user)
    ]  # fmt: skip
    return render(
        request,
        "games/replay.html",
        {
            "match": match,
            "seen_by": seen_by,
            "exportable": replays.may_export_everything(match, request.user),
            "deal": match.deal_facts(reveal=replays.may_export_everything(match, request.user)),
            "deal_check": replays.deal_check(match),
            "names": [seat.user.username for seat in sorted(match.seats.all(), key=lambda s: s.number)],
            "steps": match.seq,
            "dobble_symbols": dobble_symbols() if match.game == "dobble" else None,
            "script": registered(match.game).script,
        },
    )


def deal_verifier(request):
    """The verifier of deals with the site's engines, one file to run with Python (docs/fair-play.md)."""
    response = HttpResponse(verifier_archive(), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="dubium-verifier.pyz"'
    return response


def dobble_symbols() -> list[dict]:
    """Each Dobble symbol's name and picture (static/vendor/twemoji/, one file per name)."""
    return [{"name": name, "picture": static(f"vendor/twemoji/{name.replace(' ', '-')}.svg")} for name in SYMBOL_NAMES]


def bot_choices(match: Match) -> list[tuple[str, str]]:
    """The house bots the host may seat, weakest first, in players' words."""
    return bot_strengths(match.game)
