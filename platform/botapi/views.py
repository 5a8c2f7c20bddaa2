from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.db.models import Max
from django.http import FileResponse, Http404
from django.shortcuts import redirect, render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from botapi import players, services
from botapi.models import BotCode, BotFailure, BotProfile
from dubium.docs import doc_html
from games.engine import GAMES
from games.matches import lifecycle
from games.matches.errors import MatchError
from games.registry import REGISTRY, bot_strengths
from ratings.models import Rating


@never_cache  # it may show a new API token: no cache keeps the page
def bots(request):
    """Every bot on the site (house and uploaded) with its ratings, your own bots, and the guide."""
    accounts = list(
        get_user_model()
        .objects.filter(is_bot=True)
        .select_related("bot_owner")
        .annotate(code_version=Max("code_versions__version"))
        .order_by("username")
    )
    ratings = {}
    for rating in Rating.objects.filter(user__in=accounts):
        ratings.setdefault(rating.user_id, {})[rating.game] = rating
    rows = [{"bot": bot, "ratings": [ratings.get(bot.pk, {}).get(slug) for slug in GAMES]} for bot in accounts]
    mine = []
    if request.user.is_authenticated and not request.user.is_bot:
        for bot in request.user.owned_bots.order_by("username"):
            mine.append(
                {
                    "bot": bot,
                    "versions": list(BotCode.objects.filter(bot=bot).defer("source")[:5]),
                    "failures": list(
                        BotFailure.objects.filter(code__bot=bot).select_related("code").order_by("-at", "-pk")[:10]
                    ),
                    "profile": BotProfile.objects.filter(bot=bot).first() or BotProfile(bot=bot),
                }
            )
    return render(
        request,
        "botapi/bots.html",
        {
            "rows": rows,
            "games": GAMES.values(),
            "examples": [{"slug": game.example_bot, "name": game.engine.name} for game in REGISTRY.values()],
            "mine": mine,
            "opponents": [
                (f"{slug}:{name}", f"{game.name}: {strength} ({house_bots(game, name)})")
                for slug, game in GAMES.items()
                for name, strength in bot_strengths(slug)
            ],
            "webhook_seconds": [(game.name, players.webhook_seconds(slug)) for slug, game in GAMES.items()],
            "upload_seconds": settings.BOT_MOVE_SECONDS,
            "strikes": settings.BOT_STRIKES_TO_SUSPEND,
            "guide": doc_html("bots.md"),
        },
    )


def house_bots(game, name: str) -> str:
    """Who sits with the bot: one house bot, or as many as the game's smallest table needs
    ("RandomBot and RandomBot2")."""
    names = [lifecycle.house_bot_username(name, copy) for copy in range(1, opponents_needed(game) + 1)]
    return " and ".join(names)


def opponents_needed(game) -> int:
    return game.smallest_table - 1


def protocol(request, game: str = ""):
    """For bot authors: the live-play protocol, or one game's actions and views with its engine notes."""
    if game and game not in REGISTRY:
        raise Http404("No such game")
    pages = (REGISTRY[game].protocol_doc, REGISTRY[game].engine_doc) if game else ("protocol.md",)
    docs = [doc_html(page) for page in pages]
    return render(request, "botapi/protocol.html", {"games": GAMES.values(), "engine": GAMES.get(game), "docs": docs})


@require_POST
@login_required
def create(request):
    try:
        bot, token = services.create_bot(request.user, request.POST.get("name", ""))
        messages.info(request, f"{bot.username} is yours. Its API token, shown only now: {token}")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("bots")


@require_POST
@login_required
def token(request, name: str):
    try:
        key = services.new_token(request.user, name)
        messages.info(request, f"{name}'s new API token, shown only now: {key} (the old one no longer works)")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("bots")


@require_POST
@login_required
def upload(request, name: str):
    try:
        code = services.upload_code(request.user, name, request.POST.get("source", ""), request.POST.get("game", ""))
        messages.info(request, f"{code.bot.username} v{code.version} passed its first move and plays from now on.")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("bots")


@require_POST
@login_required
def webhook(request, name: str):
    try:
        code = services.set_webhook(request.user, name, request.POST.get("endpoint", ""))
        messages.info(request, f"{code.bot.username} v{code.version} answered the check and plays through it now.")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("bots")


@require_POST
@login_required
def ladder(request, name: str):
    try:
        games = request.POST.get("games_per_day", "")
        profile = services.set_ladder(
            request.user,
            name,
            request.POST.get("ladder") == "on",
            request.POST.get("game", ""),
            int(games) if games.isdigit() else None,
        )
        state = (
            f"plays {GAMES[profile.ladder_game].name} ladder matches by itself"
            if profile.ladder
            else "plays no ladder matches"
        )
        messages.info(request, f"{profile.bot.username} {state}.")
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("bots")


@require_POST
@login_required
def challenge(request, name: str):
    game, _, house_bot = request.POST.get("opponent", "").partition(":")
    seats = opponents_needed(GAMES[game]) if game in GAMES else 1
    try:
        match = services.challenge(request.user, name, game, [services.HOUSE_PREFIX + house_bot] * seats)
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("bots")
    return redirect("table", match_id=match.pk)


CLIENT = Path(__file__).with_name("client")
EXAMPLES = {path.stem: path for path in (CLIENT / "examples").glob("*.py")}


def client_file(request, example: str = ""):
    """The bot client (standard library only) or one game's example bot, as a download."""
    path = CLIENT / "dubium_bot.py" if not example else EXAMPLES.get(example)
    if path is None:
        raise Http404("No such example.")
    return FileResponse(path.open("rb"), as_attachment=True, filename=path.name, content_type="text/x-python")
