"""The bot ladder runs itself: every minute (beat), bots that opted in are paired with bots of
similar rating in their game and play a rated match, within each bot's daily budget and the
limit of rated games one pair plays a day (docs/ratings.md).

A bot plays at most one ladder match at a time, never against a bot of its own owner, and a
suspended bot sits out. An uploaded or webhook bot is always there to play; a bot driven from
outside is seated only while its event stream is open (events.py), and hears of the match there.
If a driven bot has made no move SHOW_UP_SECONDS after the start, the match is called off: not
played, not rated, for nobody a loss. Pairing is greedy over the bots sorted by rating: each one
with its nearest neighbours of other owners, within LADDER_WINDOW points.
"""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from botapi import events
from botapi.models import BotProfile, LadderMatch
from botapi.services import driven_clock, latest_version, seat_fields
from games.engine import GAMES
from games.matches import broadcast, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction, Seat
from ratings.services import matchmaking_rating, pairs_at_limit

LADDER_WINDOW = 300.0
SHOW_UP_SECONDS = 60
NO_SHOW_REST = timedelta(minutes=10)  # a driven bot that did not come sits the ladder out this long


def ladder_bots(game: str, now: datetime) -> list:
    """Opted-in bots of `game` that may start a ladder match now: a version to play or an event
    stream open, not suspended, not already playing, and under their daily budget of rated
    matches (a match called off is not counted)."""
    profiles = BotProfile.objects.filter(ladder=True, ladder_game=game, suspended_at__isnull=True).select_related("bot")
    since = now - timedelta(days=1)
    ready = []
    for profile in profiles:
        if latest_version(profile.bot) is None and not events.listening(profile.bot_id):
            continue
        if did_not_come(profile.bot, now - NO_SHOW_REST):
            continue
        seats = Seat.objects.filter(user=profile.bot, match__ranked=True).exclude(match__status=Match.Status.ABORTED)
        if seats.filter(match__status=Match.Status.RUNNING).exists():
            continue
        if seats.filter(match__created_at__gte=since).count() >= profile.ladder_games_per_day:
            continue
        ready.append(profile.bot)
    return ready


def did_not_come(bot, since: datetime) -> bool:
    """Was the bot absent from a ladder match called off since then? Its stream may be open while
    nothing plays, and the bots that came would be called to a dead match every minute."""
    called_off = LadderMatch.objects.filter(
        started_at__gte=since, checked=True, match__status=Match.Status.ABORTED, match__seats__user=bot
    ).values_list("match_id", flat=True)
    for match_id in called_off:
        seat = Seat.objects.get(match_id=match_id, user=bot)
        if not seat.came and not MatchAction.objects.filter(match_id=match_id, seat=seat.number).exists():
            return True
    return False


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
    call_off_no_shows(now)
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
                clock = driven_clock(slug, seats, ranked=True)
                match = lifecycle.start_seated_match(game=slug, seats=seats, now=now, ranked=True, **clock)
                LadderMatch.objects.create(match=match, started_at=now)
                transaction.on_commit(lambda m=match, g=group: broadcast.send_matches_found([(m, g)], "Bot ladder"))
                started.append(match)
    return started


def call_off_no_shows(now: datetime) -> list[Match]:
    """Ladder matches where a driven bot has not moved SHOW_UP_SECONDS after the start: stopped
    unrated, and the bots told why. Returns them."""
    called_off = []
    due = LadderMatch.objects.filter(checked=False, started_at__lte=now - timedelta(seconds=SHOW_UP_SECONDS))
    for ladder_match in due.select_related("match"):
        match = ladder_match.match
        driven = match.seats.filter(code_version__isnull=True, house_bot="").select_related("user")
        moved = set(MatchAction.objects.filter(match=match).values_list("seat", flat=True))
        # Came: moved, or opened the match's socket (a bot whose turn never came has not moved).
        absent = [seat.user for seat in driven if seat.number not in moved and not seat.came]
        if absent and match.status == Match.Status.RUNNING:
            try:
                lifecycle.abort_match(match.pk, now)
            except MatchError:  # it ended meanwhile
                pass
            else:
                called_off.append(match)
                names = ", ".join(user.username for user in absent)
                text = f"Ladder match {match.pk} was called off, not rated: {names} did not come within a minute."
                broadcast.send_notice([seat.user_id for seat in match.seats.all()], text)
        LadderMatch.objects.filter(pk=ladder_match.pk).update(checked=True)
    return called_off
