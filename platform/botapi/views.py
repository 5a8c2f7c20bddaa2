from django.contrib.auth import get_user_model
from django.db.models import Max
from django.shortcuts import render

from dubium.docs import doc_html
from games.engine import GAMES
from ratings.models import Rating


def bots(request):
    """Every bot on the site (house and uploaded) with its ratings, and how to bring your own."""
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
    return render(request, "botapi/bots.html", {"rows": rows, "games": GAMES.values(), "guide": doc_html("bots.md")})
