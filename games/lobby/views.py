"""The lobby pages and the rules pages; each form posts here and the services do the work."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST

from dubium.docs import doc_html
from games.engine import GAMES
from games.lobby import invitations, matchmaking, tables
from games.lobby.forms import ChallengeForm, NewTableForm, PlayComputerForm, QuickPairingForm
from games.lobby.models import QueueEntry
from games.lobby.snapshot import lobby_snapshot
from games.matches.errors import MatchError
from games.matches.models import Match
from games.registry import registered
from ratings.services import matchmaking_rating


def engine_or_404(game: str):
    engine = GAMES.get(game)
    if engine is None:
        raise Http404("No such game")
    return engine


def lobby(request, game: str):
    return render_lobby(request, game)


def render_lobby(request, game: str, forms: dict | None = None, error: str = "", status: int = 200):
    """The lobby page; a form that was refused comes back bound, with its errors (status 400)."""
    engine = engine_or_404(game)
    queued = None
    mine = []
    if request.user.is_authenticated:
        queued = QueueEntry.objects.filter(user=request.user, game=game).first()
        mine = Match.objects.filter(
            game=game, seats__user=request.user, status__in=[Match.Status.OPEN, Match.Status.RUNNING]
        ).prefetch_related("seats__user").order_by("-created_at")[:10]
    forms = {
        "computer_form": PlayComputerForm(engine, auto_id="computer_%s"),
        "pairing_form": QuickPairingForm(engine, auto_id="pairing_%s"),
        "table_form": NewTableForm(engine, auto_id="table_%s"),
        "challenge_form": ChallengeForm(engine, auto_id="challenge_%s") if engine.min_players <= 2 else None,
        **(forms or {}),
    }
    snapshot = lobby_snapshot(game)
    context = {
        "engine": engine,
        "queued": queued,
        "my_matches": mine,
        "my_table_ids": {match.pk for match in mine},
        "challenges_sent": invitations.sent_by(request.user, game) if request.user.is_authenticated else [],
        # The viewer's own socket opens a moment after this page: they are in the lobby already.
        "snapshot": {**snapshot, "online": snapshot["online"] + 1},
        **forms,
    }
    return render(request, "games/lobby.html", {**context, "error": error}, status=status)


@require_POST
@login_required
def play_computer(request, game: str):
    engine = engine_or_404(game)
    form = PlayComputerForm(engine, request.POST, auto_id="computer_%s")
    if not form.is_valid():
        return render_lobby(request, game, {"computer_form": form}, status=400)
    data = form.cleaned_data
    try:
        match = tables.play_the_computer(
            request.user, game, data["bot"], data["players"], form.options(), form.time_control()
        )
    except MatchError as error:
        return render_lobby(request, game, {"computer_form": form}, error=error.message, status=400)
    return redirect("table", match.pk)


@require_POST
@login_required
def new_table(request, game: str):
    engine = engine_or_404(game)
    form = NewTableForm(engine, request.POST, auto_id="table_%s")
    if not form.is_valid():
        return render_lobby(request, game, {"table_form": form}, status=400)
    data = form.cleaned_data
    try:
        match = tables.open_table(
            request.user, game, data["players"], form.options(), form.time_control(), form.ranked()
        )
    except MatchError as error:
        return render_lobby(request, game, {"table_form": form}, error=error.message, status=400)
    return redirect("table", match.pk)


@require_POST
@login_required
def join_queue(request, game: str):
    engine = engine_or_404(game)
    form = QuickPairingForm(engine, request.POST, auto_id="pairing_%s")
    if not form.is_valid():
        return render_lobby(request, game, {"pairing_form": form}, status=400)
    data = form.cleaned_data
    rating = matchmaking_rating(request.user, game)
    try:
        match = tables.quick_pairing(request.user, game, data["players"], data["time_control"], rating)
    except MatchError as error:
        return render_lobby(request, game, {"pairing_form": form}, error=error.message, status=400)
    return redirect("table", match.pk) if match else redirect("lobby", game)


@require_POST
@login_required
def leave_queue(request, game: str):
    engine_or_404(game)
    try:
        matchmaking.leave_queue(request.user, game)
    except MatchError:
        pass  # already paired or never queued: the lobby shows which
    return redirect("lobby", game)


@require_POST
@login_required
def send_challenge(request, game: str):
    engine = engine_or_404(game)
    form = ChallengeForm(engine, request.POST, auto_id="challenge_%s")
    if not form.is_valid():
        return render_lobby(request, game, {"challenge_form": form}, status=400)
    try:
        invitations.challenge(request.user, form.cleaned_data["username"], game, form.cleaned_data["time_control"])
    except MatchError as error:
        return render_lobby(request, game, {"challenge_form": form}, error=error.message, status=400)
    messages.success(
        request, f"Challenge sent to {form.cleaned_data['username']}: you will be taken to the table once they accept."
    )
    return redirect("lobby", game)


@require_POST
@login_required
def answer_challenge(request, game: str, challenge_id: int):
    """From any page's header: accepting opens the table, declining goes back to that page."""
    engine_or_404(game)
    try:
        match = invitations.answer(challenge_id, request.user, accept=request.POST.get("answer") == "accept")
    except MatchError as error:
        return render_lobby(request, game, error=error.message, status=400)
    if match:
        return redirect("table", match.pk)
    back = request.POST.get("next", "")
    safe = url_has_allowed_host_and_scheme(back, allowed_hosts={request.get_host()}, require_https=request.is_secure())
    return redirect(back if safe else reverse("lobby", args=[game]))


@require_POST
@login_required
def cancel_challenge(request, game: str, challenge_id: int):
    """The challenger takes back a challenge that still waits for an answer."""
    engine_or_404(game)
    try:
        invitations.cancel(challenge_id, request.user)
    except MatchError as error:
        return render_lobby(request, game, error=error.message, status=400)
    messages.success(request, "Challenge cancelled.")
    return redirect("lobby", game)


@login_required
def challenge_notice(request):
    """The header's challenges alone, for notices.js to redraw when one arrives; `next` is the page
    the player is on, where declining brings them back."""
    return render(request, "games/includes/challenges.html", {"back": request.GET.get("next", "")})


@require_POST
@login_required
def rematch(request, match_id: int):
    try:
        match = invitations.offer_rematch(match_id, request.user)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("table", match_id)
    if match is None:
        messages.success(request, "You asked for a rematch: it starts when the other players accept.")
        return redirect("table", match_id)
    return redirect("table", match.pk)


def rules(request, game: str):
    engine = engine_or_404(game)
    rules_html = doc_html(registered(game).rules_doc)
    return render(request, "games/rules.html", {"engine": engine, "rules_html": rules_html})
