"""Bots that programmers own: accounts, versions (uploaded code or a webhook), challenges, the ladder opt-in.

A bot is an account (`is_bot`, `bot_owner`) with its own API token. It can be driven from
outside over HTTP or the websocket like any player, or play here: its latest version (code
run in the sandbox, or an endpoint the platform POSTs to) plays every seat whose
`code_version` is set (players.py), through the same match service as everybody's moves.
"""

import hashlib
import random
import secrets
import threading
from contextlib import contextmanager
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Count, Exists, Max, OuterRef, Q
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.services import check_username
from botapi import events, sandbox, webhooks
from botapi.models import BotCode, BotProfile, Challenge
from botapi.players import move_request, sandbox_limits, webhook_secret
from games.engine import IllegalAction, get_game
from games.lobby.invitations import SENT_PER_HOUR, WAITING_AT_MOST
from games.matches import broadcast, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match, Seat
from games.matches.time_controls import PRESETS
from games.registry import bot_names

MAX_BOTS_PER_OWNER = 5
MAX_LADDER_GAMES_PER_DAY = 200
HOUSE_MATCHES_PER_DAY = 20
HOUSE_MATCHES_AT_ONCE = 8
VERIFY_SECONDS = 3.0
MAX_SOURCE_BYTES = 65536
HOUSE_PREFIX = "house:"


class CheckLine:
    """The checks an owner waits for in a web request (an upload's first move, a webhook's
    verify request): at most `at_once` run, each holding a core and up to BOT_MEMORY_MB for
    seconds, and at most `waiting` more wait for their turn; past that a check is refused at
    once (ten uploads at once ran ten 200 MB bots side by side)."""

    def __init__(self, at_once: int, waiting: int):
        self.running = threading.Semaphore(at_once)
        self.places = threading.Semaphore(at_once + waiting)

    @contextmanager
    def turn(self):
        if not self.places.acquire(blocking=False):
            raise MatchError("busy", "Too many bots are being checked right now: try again in a minute.")
        try:
            with self.running:
                yield
        finally:
            self.places.release()


CHECKS = CheckLine(at_once=2, waiting=8)


def create_bot(owner, name: str):
    """A new bot account owned by `owner`, and its API token."""
    if owner.is_bot:
        raise MatchError("bad_request", "Bots cannot own bots.")
    try:
        name = check_username(name)
    except ValidationError as error:
        raise MatchError("bad_request", error.messages[0], "name") from None
    if owner.owned_bots.count() >= MAX_BOTS_PER_OWNER:
        raise MatchError("bad_request", f"You can own at most {MAX_BOTS_PER_OWNER} bots.")
    try:
        with transaction.atomic():
            bot = get_user_model().objects.create_user(username=name, is_bot=True, bot_owner=owner)
    except IntegrityError:
        raise MatchError("bad_request", "That username is taken.", "name") from None
    return bot, Token.objects.create(user=bot).key


def new_token(owner, name: str) -> str:
    """A new API token for the owner's bot; the old one stops working at once (lost or leaked)."""
    bot = owned_bot(owner, name)
    with transaction.atomic():
        Token.objects.filter(user=bot).delete()
        transaction.on_commit(lambda: broadcast.close_token_sockets(bot.pk))
        return Token.objects.create(user=bot).key


def owned_bot(owner, name: str):
    bot = get_user_model().objects.filter(username__iexact=name, is_bot=True, bot_owner=owner).first()
    if bot is None:
        raise MatchError("not_found", f"You own no bot called {name!r}.")
    return bot


def upload_code(owner, name: str, source: str, game: str) -> BotCode:
    """A new version of the bot's code, once it has answered an opening position of `game` legally."""
    bot = owned_bot(owner, name)
    if not isinstance(source, str) or not source.strip():
        raise MatchError("bad_request", "Send the bot's Python source.", "source")
    if len(source.encode()) > MAX_SOURCE_BYTES:
        raise MatchError("bad_request", f"The source may be at most {MAX_SOURCE_BYTES} bytes.", "source")
    try:
        compile(source, "bot.py", "exec")
    except SyntaxError as error:
        raise MatchError("bad_request", f"bot.py line {error.lineno}: {error.msg}.", "source") from None
    except (RecursionError, MemoryError):
        raise MatchError(
            "bad_request", "bot.py nests too deeply to compile: split long expressions.", "source"
        ) from None
    smoke_test(source, game)
    return new_version(bot, source=source, sha256=hashlib.sha256(source.encode()).hexdigest(), game=game)


def new_version(bot, **fields) -> BotCode:
    """The bot's next version; a new version also lifts a suspension (its owner has changed something)."""
    with transaction.atomic():
        latest = BotCode.objects.select_for_update().filter(bot=bot).aggregate(Max("version"))["version__max"]
        code = BotCode.objects.create(bot=bot, version=(latest or 0) + 1, **fields)
        BotProfile.objects.filter(bot=bot).update(strikes=0, suspended_at=None, suspended_because="")
    return code


def set_webhook(owner, name: str, endpoint: str) -> BotCode:
    """A new version that plays through `endpoint`, once the endpoint has echoed a challenge token
    (proof that whoever names it controls it)."""
    bot = owned_bot(owner, name)
    allow_private = settings.BOT_WEBHOOK_ALLOW_PRIVATE
    token = secrets.token_urlsafe(24)
    try:
        webhooks.check_url(endpoint, allow_private)
        body = {"type": "verify", "challenge": token}
        with CHECKS.turn():
            answer = webhooks.post(endpoint, body, VERIFY_SECONDS, webhook_secret(bot.pk), allow_private)
    except webhooks.WebhookError as error:
        raise MatchError("bad_request", str(error), "endpoint") from None
    if not isinstance(answer, dict) or answer.get("challenge") != token:
        echo = 'The endpoint must answer the verify request with {"challenge": <the token>}.'
        raise MatchError("bad_request", echo, "endpoint")
    return new_version(bot, kind=BotCode.Kind.WEBHOOK, endpoint=endpoint)


def set_ladder(
    owner,
    name: str,
    ladder: bool,
    game: str = "",
    games_per_day: int | None = None,
    open_to_challenges: bool | None = None,
) -> BotProfile:
    """Opt the bot in (for one game) or out of the ladder's own matches, within a daily number of
    games; and open it or not to other owners' challenges without asking (issue 30's consent)."""
    bot = owned_bot(owner, name)
    profile, _ = BotProfile.objects.get_or_create(bot=bot)
    if open_to_challenges is not None:
        profile.open_to_challenges = open_to_challenges
    if ladder:
        profile.ladder_game = game_named(game).slug
    profile.ladder = ladder
    if games_per_day is not None:
        if not 1 <= games_per_day <= MAX_LADDER_GAMES_PER_DAY:
            raise MatchError(
                "bad_request", f"A bot plays 1 to {MAX_LADDER_GAMES_PER_DAY} ladder games a day.", "games_per_day"
            )
        profile.ladder_games_per_day = games_per_day
    profile.save()
    return profile


def smoke_test(source: str, game: str) -> None:
    """Refuse code that cannot answer the first move of a fresh game."""
    engine = game_named(game)
    state = engine.new_game(engine.smallest_table, seed=1)
    seat = engine.to_act(state)[0]
    try:
        with CHECKS.turn():
            answer = sandbox.run(source, move_request(engine, state, seat), sandbox_limits())
        engine.check(state, seat, answer)
    except sandbox.SandboxError as error:
        raise MatchError("bad_request", f"On a {engine.name} opening position: {error}", "source") from None
    except IllegalAction as error:
        said = f"On a {engine.name} opening position the answer is illegal: {error}"
        raise MatchError("bad_request", said, "source") from None


def game_named(slug: str):
    try:
        return get_game(slug)
    except IllegalAction as error:
        raise MatchError("bad_request", str(error), "game") from None


def check_tested_for(bot, game: str) -> None:
    """Refuse a bot whose latest uploaded code was tested on another game's opening (an entry to a
    tournament of `game`); a webhook or a driven bot answers for itself."""
    latest = BotCode.objects.filter(bot=bot).only("kind", "game", "version").first()
    if latest is not None and latest.kind == BotCode.Kind.UPLOADED and latest.game and latest.game != game:
        tested, wanted = get_game(latest.game).name, get_game(game).name
        raise MatchError(
            "wrong_game",
            f"{bot.username}'s code (v{latest.version}) was tested on {tested}: upload a version for {wanted} first.",
        )


def latest_version(bot) -> int | None:
    return BotCode.objects.filter(bot=bot).aggregate(Max("version"))["version__max"]


def seat_fields(user, house_bot: str = "") -> dict:
    """What a seat for this account holds: a house bot's name, or the uploaded code's latest version."""
    return seats_fields([(user, house_bot)])[0]


def seats_fields(players: list[tuple]) -> list[dict]:
    """seat_fields for each (user, house_bot), the latest versions read in one query (a tournament round)."""
    hosted = {user.pk for user, house_bot in players if user.is_bot and not house_bot}
    versions = BotCode.objects.filter(bot_id__in=hosted).values("bot_id").annotate(latest=Max("version"))
    latest = dict(versions.values_list("bot_id", "latest")) if hosted else {}
    return [
        {"user": user, "house_bot": house_bot, "code_version": None if house_bot else latest.get(user.pk)}
        for user, house_bot in players
    ]


def suspended(bot) -> bool:
    return BotProfile.objects.filter(bot=bot, suspended_at__isnull=False).exists()


def challenge(caller, name: str, game: str, opponents: list[str], ranked: bool = True):
    """Your bot against house bots (`house:NAME`) or other bots: started at once, except against
    another owner's bot that is not open to challenges, which waits for that owner's answer (a
    pending Challenge), ranked or not: nobody's bot plays, and collects strikes, in a match its
    owner did not choose. Two bots of one owner never play each other ranked (that would farm the
    ladder), rated matches against house bots only are HOUSE_MATCHES_PER_DAY a bot a day, and one
    owner's bots play at most HOUSE_MATCHES_AT_ONCE matches with a house bot at once.
    The caller is the bot's owner, or the bot itself with its own token (a driven bot)."""
    bot = caller if caller.is_bot and caller.username.lower() == name.lower() else owned_bot(caller, name)
    owner = bot.bot_owner
    profile = BotProfile.objects.filter(bot=bot, suspended_at__isnull=False).first()
    if profile is not None:
        raise MatchError(
            "suspended",
            f"{bot.username} is suspended: {profile.suspended_because.rstrip('.')}. "
            "Upload new code or name its endpoint again to lift it.",
        )
    engine = game_named(game)
    seats = [seat_fields(bot)]
    others = []
    for opponent in opponents:
        seat = opponent_seat(game, opponent, seats)
        seats.append(seat)
        if not seat["house_bot"]:
            others.append(seat["user"])
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise MatchError(
            "bad_request", f"{engine.name} is played by {engine.min_players} to {engine.max_players}.", "opponents"
        )
    if ranked and any(other.bot_owner_id == owner.pk for other in others):
        raise MatchError("bad_request", "Your own bots do not play each other in ranked matches.", "opponents")
    if ranked and not others:
        check_house_budget(bot)
    strangers = [other for other in others if other.bot_owner_id != owner.pk and not open_to_challenges(other)]
    if not strangers:
        with transaction.atomic():
            if any(seat["house_bot"] for seat in seats):
                # The owner is locked, so two requests at once cannot both take the last place.
                get_user_model().objects.select_for_update().filter(pk=owner.pk).first()
                check_house_room(owner)
            return start(game, seats, ranked)
    if len(strangers) > 1:
        raise MatchError(
            "bad_request",
            "A challenge waits for one other owner: name one bot that is not open to challenges.",
            "opponents",
        )
    with transaction.atomic():
        # The bot challenged is locked, so two challenges at once cannot both take its last place.
        get_user_model().objects.select_for_update().filter(pk=strangers[0].pk).first()
        check_challenge_room(owner, strangers[0], game)
        offer = Challenge.objects.create(
            challenger=bot,
            opponent=strangers[0],
            game=game,
            ranked=ranked,
            house_bots=[seat["house_bot"] for seat in seats if seat["house_bot"]],
        )
        transaction.on_commit(lambda: events.send_challenge(offer))
    return offer


def check_challenge_room(owner, opponent, game: str) -> None:
    """A bot is challenged within the limits a person is (games/lobby/invitations.py): one waiting
    challenge a game from one owner's bots to it, ranked or not, SENT_PER_HOUR sent by one owner's
    bots an hour, WAITING_AT_MOST waiting for it. A tester held three to one bot at once (issue 32)."""
    waiting = Challenge.objects.filter(opponent=opponent, status=Challenge.Status.PENDING)
    if waiting.filter(challenger__bot_owner=owner, game=game).exists():
        raise MatchError(
            "too_many",
            f"Your {get_game(game).name} challenge to {opponent.username} is still waiting for its owner's answer.",
        )
    an_hour_ago = timezone.now() - timedelta(hours=1)
    if Challenge.objects.filter(challenger__bot_owner=owner, created_at__gte=an_hour_ago).count() >= SENT_PER_HOUR:
        raise MatchError("too_many", f"Your bots have sent {SENT_PER_HOUR} challenges in the last hour: wait a little.")
    if waiting.count() >= WAITING_AT_MOST:
        raise MatchError(
            "too_many", f"{opponent.username} has {WAITING_AT_MOST} challenges waiting already: try later."
        )


def open_to_challenges(bot) -> bool:
    return BotProfile.objects.filter(bot=bot, open_to_challenges=True).exists()


def check_entered_with_consent(by_user, bot) -> None:
    """Someone else entering a bot in an event (an organizer at the desk) needs the owner's consent,
    as a challenge does: the bot's failures there count against it (issue 30). A bot open to
    challenges has given it; otherwise its owner enters it."""
    if bot.is_bot and bot.bot_owner_id not in (None, by_user.pk) and not open_to_challenges(bot):
        raise MatchError(
            "no_consent",
            f"{bot.username} belongs to {bot.bot_owner.username}, who has not opened it to other people's "
            "matches: its owner enters it.",
        )


def check_house_budget(bot, now=None) -> None:
    """Refuse a rated match against house bots only beyond HOUSE_MATCHES_PER_DAY in 24 hours: a
    bot cannot farm its rating on house bots faster than the ladder lets it climb."""
    since = (now or timezone.now()) - timedelta(days=1)
    mine = Seat.objects.filter(user=bot, match__ranked=True, match__created_at__gte=since).values("match_id")
    people = Count("seats", filter=Q(seats__house_bot=""))
    played = Match.objects.filter(pk__in=mine).annotate(people=people).filter(people=1).count()
    if played >= HOUSE_MATCHES_PER_DAY:
        raise MatchError(
            "too_many_house_matches",
            f"{bot.username} has played {HOUSE_MATCHES_PER_DAY} rated matches against house bots in the last "
            "24 hours, the most a bot may; play unranked, on the ladder or in the queue meanwhile.",
        )


def check_house_room(owner) -> None:
    """Refuse a match with a house bot while the owner's bots play HOUSE_MATCHES_AT_ONCE such matches
    not yet over, ranked or not, whichever bots: a house bot's moves are the worker's, and one owner's
    dozens of matches at once kept it from the rest of the site (issue 32)."""
    mine = Seat.objects.filter(user__bot_owner=owner).values("match_id")
    with_house_bot = Seat.objects.filter(match=OuterRef("pk")).exclude(house_bot="")
    over = (Match.Status.FINISHED, Match.Status.ABORTED)
    playing = Match.objects.filter(pk__in=mine).exclude(status__in=over).filter(Exists(with_house_bot)).count()
    if playing >= HOUSE_MATCHES_AT_ONCE:
        raise MatchError(
            "too_many",
            f"Your bots already play {HOUSE_MATCHES_AT_ONCE} matches against house bots: start another when one ends.",
        )


def start(game: str, seats: list[dict], ranked: bool):
    """Start the match and tell the bots seated in it (a driven bot hears it on its event stream)."""
    random.shuffle(seats)
    with transaction.atomic():
        match = lifecycle.start_seated_match(
            game=game, seats=seats, now=timezone.now(), ranked=ranked, **driven_clock(game, seats, ranked)
        )
        users = [seat["user"] for seat in seats if not seat["house_bot"]]
        transaction.on_commit(lambda: events.send_started(match, users))
    return match


def driven_clock(game: str, seats: list[dict], ranked: bool) -> dict:
    """A rated turn-based match with a bot driven from outside is played on the queue's "3+2", as
    people's are: nothing else makes a driven bot that stops moving lose (an uploaded or webhook bot
    has its time per move, and the computer moves for it when that runs out)."""
    driven = any(seat["user"].is_bot and not seat["house_bot"] and seat["code_version"] is None for seat in seats)
    if not ranked or not driven or get_game(game).realtime:
        return {}
    return PRESETS["3+2"].as_table()


def opponent_seat(game: str, opponent: str, seats: list[dict]) -> dict:
    if opponent.startswith(HOUSE_PREFIX):
        name = opponent[len(HOUSE_PREFIX) :]
        if name not in bot_names(game):
            choices = ", ".join(bot_names(game))
            raise MatchError("bad_request", f"No house bot {name!r}; choose from {choices}.", "opponents")
        copy = 1 + sum(seat["house_bot"] == name for seat in seats)
        return seat_fields(lifecycle.house_bot_user(name, copy), name)
    other = get_user_model().objects.filter(username__iexact=opponent, is_bot=True, bot_owner__isnull=False).first()
    if other is None or suspended(other):
        raise MatchError("bad_request", f"{opponent!r} is not a bot that plays here (or it is suspended).", "opponents")
    if any(seat["user"].pk == other.pk for seat in seats):
        raise MatchError("bad_request", f"{other.username} already has a seat in this match.", "opponents")
    return seat_fields(other)


def answer_challenge(owner, challenge_id: int, accept: bool):
    """The challenged bot's owner, or the bot itself with its token, accepts (the match starts now)
    or declines."""
    with transaction.atomic():
        offer = (
            Challenge.objects.select_for_update()
            .filter(Q(opponent__bot_owner=owner) | Q(opponent=owner), pk=challenge_id, status=Challenge.Status.PENDING)
            .select_related("challenger", "opponent")
            .first()
        )
        if offer is None:
            raise MatchError("not_found", "No challenge of yours is waiting with that number.")
        if not accept:
            offer.status = Challenge.Status.DECLINED
            offer.save(update_fields=["status"])
            return offer
        if suspended(offer.challenger) or suspended(offer.opponent):
            raise MatchError("bad_request", "One of the two bots is suspended and cannot play now.")
        seats = [seat_fields(offer.challenger), seat_fields(offer.opponent)]
        for name in offer.house_bots:
            copy = 1 + sum(seat["house_bot"] == name for seat in seats)
            seats.append(seat_fields(lifecycle.house_bot_user(name, copy), name))
        offer.match = start(offer.game, seats, ranked=offer.ranked)
        offer.status = Challenge.Status.ACCEPTED
        offer.save(update_fields=["match", "status"])
    return offer
