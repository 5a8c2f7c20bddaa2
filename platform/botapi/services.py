"""Bots that programmers own: accounts, uploaded code, challenges, and the moves the code plays.

A bot is an account (`is_bot`, `bot_owner`) with its own API token. It can be driven from
outside over HTTP or the websocket like any player, or run here: uploaded code plays every
seat whose `code_version` is set, one sandboxed process per move (sandbox.py), and its
answer goes through the same match service as everybody's moves.
"""

import hashlib
import random

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from rest_framework.authtoken.models import Token

from accounts.services import check_username
from botapi import sandbox
from botapi.models import BotCode
from games.bots import bot_names
from games.engine import IllegalAction, get_game
from games.matches import lifecycle
from games.matches.errors import MatchError

MAX_BOTS_PER_OWNER = 5
MAX_SOURCE_BYTES = 65536
HOUSE_PREFIX = "house:"


def limits() -> sandbox.Limits:
    return sandbox.Limits(
        seconds=settings.BOT_MOVE_SECONDS, memory_mb=settings.BOT_MEMORY_MB, python=settings.BOT_SANDBOX_PYTHON
    )


def create_bot(owner, name: str):
    """A new bot account owned by `owner`, and its API token."""
    if owner.is_bot:
        raise MatchError("bad_request", "Bots cannot own bots.")
    try:
        name = check_username(name)
    except ValidationError as error:
        raise MatchError("bad_request", error.messages[0]) from None
    if owner.owned_bots.count() >= MAX_BOTS_PER_OWNER:
        raise MatchError("bad_request", f"You can own at most {MAX_BOTS_PER_OWNER} bots.")
    try:
        with transaction.atomic():
            bot = get_user_model().objects.create_user(username=name, is_bot=True, bot_owner=owner)
    except IntegrityError:
        raise MatchError("bad_request", "That username is taken.") from None
    return bot, Token.objects.create(user=bot).key


def owned_bot(owner, name: str):
    bot = get_user_model().objects.filter(username__iexact=name, is_bot=True, bot_owner=owner).first()
    if bot is None:
        raise MatchError("not_found", f"You own no bot called {name!r}.")
    return bot


def upload_code(owner, name: str, source: str, game: str) -> BotCode:
    """A new version of the bot's code, once it has answered an opening position of `game` legally."""
    bot = owned_bot(owner, name)
    if not isinstance(source, str) or not source.strip():
        raise MatchError("bad_request", "Send the bot's Python source.")
    if len(source.encode()) > MAX_SOURCE_BYTES:
        raise MatchError("bad_request", f"The source may be at most {MAX_SOURCE_BYTES} bytes.")
    try:
        compile(source, "bot.py", "exec")
    except SyntaxError as error:
        raise MatchError("bad_request", f"bot.py line {error.lineno}: {error.msg}.") from None
    except (RecursionError, MemoryError):
        raise MatchError("bad_request", "bot.py nests too deeply to compile: split long expressions.") from None
    smoke_test(source, game)
    with transaction.atomic():
        latest = BotCode.objects.select_for_update().filter(bot=bot).aggregate(Max("version"))["version__max"]
        return BotCode.objects.create(
            bot=bot, version=(latest or 0) + 1, source=source, sha256=hashlib.sha256(source.encode()).hexdigest()
        )


def smoke_test(source: str, game: str) -> None:
    """Refuse code that cannot answer the first move of a fresh game."""
    engine = game_named(game)
    state = engine.new_game(max(2, engine.min_players), seed=1)
    seat = engine.to_act(state)[0]
    try:
        engine.check(state, seat, sandbox.run(source, move_request(engine, state, seat), limits()))
    except sandbox.SandboxError as error:
        raise MatchError("bad_request", f"On a {engine.name} opening position: {error}") from None
    except IllegalAction as error:
        raise MatchError("bad_request", f"On a {engine.name} opening position the answer is illegal: {error}") from None


def game_named(slug: str):
    try:
        return get_game(slug)
    except IllegalAction as error:
        raise MatchError("bad_request", str(error)) from None


def move_request(engine, state, seat: int) -> dict:
    """What the bot is given: exactly what a player on that seat sees, and its legal actions."""
    return {
        "game": engine.slug,
        "seat": seat,
        "view": engine.view(state, seat),
        "legal": engine.legal_actions(state, seat),
    }


def latest_version(bot) -> int | None:
    return BotCode.objects.filter(bot=bot).aggregate(Max("version"))["version__max"]


def seat_fields(user, house_bot: str = "") -> dict:
    """What a seat for this account holds: a house bot's name, or the uploaded code's latest version."""
    code_version = latest_version(user) if user.is_bot and not house_bot else None
    return {"user": user, "house_bot": house_bot, "code_version": code_version}


def challenge(owner, name: str, game: str, opponents: list[str], ranked: bool = True):
    """A match between the owner's bot and house bots (`house:NAME`) or other uploaded bots, started now."""
    bot = owned_bot(owner, name)
    if latest_version(bot) is None:
        raise MatchError("bad_request", "Upload your bot's code before it plays here.")
    engine = game_named(game)
    seats = [seat_fields(bot)]
    for opponent in opponents:
        seats.append(opponent_seat(game, opponent, seats))
    if not engine.min_players <= len(seats) <= engine.max_players:
        raise MatchError("bad_request", f"{engine.name} is played by {engine.min_players} to {engine.max_players}.")
    random.shuffle(seats)
    with transaction.atomic():
        return lifecycle.start_seated_match(game=game, seats=seats, now=timezone.now(), ranked=ranked)


def opponent_seat(game: str, opponent: str, seats: list[dict]) -> dict:
    if opponent.startswith(HOUSE_PREFIX):
        name = opponent[len(HOUSE_PREFIX) :]
        if name not in bot_names(game):
            raise MatchError("bad_request", f"No house bot {name!r}; choose from {', '.join(bot_names(game))}.")
        copy = 1 + sum(seat["house_bot"] == name for seat in seats)
        return seat_fields(lifecycle.house_bot_user(name, copy), name)
    other = get_user_model().objects.filter(username__iexact=opponent, is_bot=True).first()
    if other is None or latest_version(other) is None:
        raise MatchError("bad_request", f"{opponent!r} is not a bot with uploaded code.")
    if any(seat["user"] == other for seat in seats):
        raise MatchError("bad_request", f"{other.username} already has a seat: a bot cannot play itself.")
    return seat_fields(other)


def play_move(match, state, seat) -> dict:
    """The seat's uploaded code answers; raises SandboxError (and counts the failure) when it cannot."""
    code = BotCode.objects.get(bot_id=seat.user_id, version=seat.code_version)
    try:
        action = sandbox.run(code.source, move_request(match.engine, state, seat.number), limits())
        if not isinstance(action, dict):
            raise sandbox.SandboxError("choose() must return an action object (a dict).")
    except sandbox.SandboxError as error:
        record_failure(seat, str(error))
        raise
    BotCode.objects.filter(pk=code.pk).update(moves=F("moves") + 1)
    return action


def record_failure(seat, message: str) -> None:
    """Count a failed move against the code that played the seat; its owner sees the last error."""
    BotCode.objects.filter(bot_id=seat.user_id, version=seat.code_version).update(
        failures=F("failures") + 1, last_error=message[:500]
    )
