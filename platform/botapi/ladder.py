"""The bot ladder runs itself: every minute (beat), bots that opted in are paired with bots of
similar rating in their game and play a rated match, within each bot's daily budget and the
limit of rated games one pair plays a day (docs/ratings.md).

A bot plays at most one ladder match at a time, never against a bot of its own owner, and a
suspended bot or one without a version to play sits out. Pairing is greedy over the bots sorted
by rating: each one with its nearest neighbours of other owners, within LADDER_WINDOW points.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from botapi.models import BotProfile
from botapi.services import seat_fields
from games.engine import GAMES
from games.matches import lifecycle
from games.matches.models import Match, Seat
from ratings.services import matchmaking_rating, pairs_at_limit

LADDER_WINDOW = 300.0


def ladder_bots(game: str, now: datetime) -> list:
    """Opted-in bots of `game` that may start a ladder match now: a version to play, not suspended,
    not already playing, and under their daily budget of rated matches."""
    profiles = BotProfile.objects.filter(
        ladder=True, ladder_game=game, suspended_at__isnull=True, bot__code_versions__isnull=False
    ).select_related("bot")
    since = now - timedelta(days=1)
    ready = []
    for profile in profiles.distinct():
        seats = Seat.objects.filter(user=profile.bot, match__ranked=True)
        if seats.filter(match__status=Match.Status.RUNNING).exists():
            continue
        if seats.filter(match__created_at__gte=since).count() >= profile.ladder_games_per_day:
            continue
        ready.append(profile.bot)
    return ready


def pick_groups(bots: list, ratings: dict[int, float], size: int, apart: set | frozenset = frozenset()) -> list[list]:
    """Groups of `size` bots of different owners and similar rating, nearest first, with no pair in
    `apart` (pairs by account id, smaller first: those whose rated games together today are used up)."""
    waiting = sorted(bots, key=lambda bot: (ratings[bot.pk], bot.pk))
    groups = []
    while waiting:
        anchor = waiting.pop(0)
        group = [anchor]
        for bot in waiting:
            close = ratings[bot.pk] - ratings[anchor.pk] <= LADDER_WINDOW
            kept_apart = any(
                lifecycle.same_owner(bot, other) or tuple(sorted((bot.pk, other.pk))) in apart for other in group
            )
            if close and len(group) < size and not kept_apart:
                group.append(bot)
        if len(group) == size:
            groups.append(group)
            waiting = [bot for bot in waiting if bot not in group]
    return groups


def run_ladder(now: datetime | None = None) -> list[Match]:
    """Start every ladder match that can be formed now; returns them."""
    now = now or timezone.now()
    started = []
    for slug, engine in GAMES.items():
        with transaction.atomic():
            # Two ticks at once (a redelivered task) take turns here, so no bot is seated twice.
            list(BotProfile.objects.select_for_update().filter(ladder=True, ladder_game=slug))
            bots = ladder_bots(slug, now)
            ratings = {bot.pk: matchmaking_rating(bot, slug) for bot in bots}
            # Two bots that used up their rated games together today (ratings.services.PAIR_GAMES_PER_DAY)
            # would play unrated: they meet others, or wait.
            apart = pairs_at_limit(slug, [bot.pk for bot in bots], now)
            for group in pick_groups(bots, ratings, engine.smallest_table, apart):
                seats = [seat_fields(bot) for bot in group]
                started.append(lifecycle.start_seated_match(game=slug, seats=seats, now=now, ranked=True))
    return started
