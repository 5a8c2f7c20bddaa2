"""Bots that play here: uploaded code in the sandbox and webhook endpoints, one seat player.

Registered with the match service (apps.py) for every seat whose `code_version` is set. The
match service asks it outside the match lock and off the thread that wakes matches
(games/matches/wakeups.py); this module asks the sandbox or the endpoint, keeps the score of
moves and failures that the owner sees, and suspends a bot that fails again and again.
"""

from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db.models import F
from django.utils import timezone
from rest_framework.authtoken.models import Token

from botapi import sandbox, webhooks
from botapi.models import BotCode, BotFailure, BotProfile, MoveQuestion
from games.matches.models import MatchAction, Seat
from games.matches.seat_players import ASK, Answer, NoAnswer, SeatPlayer

# How long past a move's time budget a question stays outstanding before the sweep asks again
# (its worker died, its thread was lost in a restart). A question may wait in its owner's line on
# the bot threads first (asking.py): asked again too soon, an owner's many matches would be woken
# again and again by the sweep, on the worker that plays everybody's house bots and clocks.
QUESTION_GRACE = timedelta(seconds=30)
KEPT_FAILURES = 50  # failure reports kept per version, newest first


def sandbox_limits() -> sandbox.Limits:
    return sandbox.Limits(
        seconds=settings.BOT_MOVE_SECONDS, memory_mb=settings.BOT_MEMORY_MB, python=settings.BOT_SANDBOX_PYTHON
    )


def webhook_seconds(game: str) -> float:
    """A webhook bot's time budget per move in this game (BOT_WEBHOOK_MOVE_SECONDS, default 1 s)."""
    budgets = settings.BOT_WEBHOOK_MOVE_SECONDS
    return float(budgets.get(game, budgets.get("default", 1.0)))


def move_request(engine, state, seat: int, history: list[dict] | None = None) -> dict:
    """What the bot is given: exactly what a player on that seat sees, and its legal actions;
    `history` is the whole history, where the state holds only its tail (a match's snapshot)."""
    view = engine.view(state, seat)
    if history is not None:
        view["history"] = history
    return {"game": engine.slug, "seat": seat, "view": view, "legal": engine.legal_actions(state, seat)}


class HostedBot(SeatPlayer):
    def answers_for(self, seat) -> bool:
        return seat.code_version is not None

    def next_move(self, match, state, seat, seats):
        """Due as soon as it is its turn, unless a question is already out: then when that one expires.
        A match being started (not yet saved) has none out."""
        asked = None
        if match.pk is not None:
            questions = MoveQuestion.objects.filter(match=match, seat=seat.number, seq=match.seq)
            asked = questions.values_list("deadline", flat=True).first()
        return max(match.turn_started_at, asked or match.turn_started_at), ASK

    def party(self, seat) -> str:
        return owner_party(seat.user)

    def reserve(self, match, seat, now) -> None:
        budget = max(settings.BOT_MOVE_SECONDS, webhook_seconds(match.game))
        MoveQuestion.objects.update_or_create(
            match=match,
            seat=seat.number,
            defaults={"seq": match.seq, "deadline": now + timedelta(seconds=budget) + QUESTION_GRACE},
        )

    def ask(self, match, state, seat) -> Answer:
        code = BotCode.objects.get(bot_id=seat.user_id, version=seat.code_version)
        if BotProfile.objects.filter(bot_id=seat.user_id, suspended_at__isnull=False).exists():
            raise NoAnswer("The bot is suspended.")
        request = move_request(match.engine, state, seat.number, match.whole_history())
        try:
            if code.kind == BotCode.Kind.WEBHOOK:
                announce_start(match, seat, code)
                action = webhook_post(code, {"type": "move", "match": match.pk, **request}, match.game)
            else:
                action = sandbox.run(code.source, request, sandbox_limits())
            if not isinstance(action, dict):
                raise NoAnswer("The answer must be an action object (a JSON object).")
        except (sandbox.SandboxError, webhooks.WebhookError, NoAnswer) as error:
            trace, printed = getattr(error, "traceback", ""), getattr(error, "printed", "")
            record_failure(seat.user_id, seat.code_version, Failure(str(error), match.pk, match.seq, trace, printed))
            raise NoAnswer(str(error)) from None
        source = MatchAction.Source.API if code.kind == BotCode.Kind.WEBHOOK else MatchAction.Source.SANDBOX
        return Answer(action, source)

    def refused(self, seat, message: str) -> None:
        record_failure(seat.user_id, seat.code_version, Failure(message, seat.match_id, seat.match.seq))

    def accepted(self, seat) -> None:
        record_success(seat.user_id, seat.code_version)


def owner_party(bot) -> str:
    """A bot's calls share its owner's turn on the bot threads."""
    return f"owner-{bot.bot_owner_id}"


@dataclass(frozen=True)
class Failure:
    """A failed move: what went wrong, at which match and replay step (the position the bot was
    asked about: the replay shows it at that step), and for uploaded code where it broke."""

    message: str
    match_id: int
    step: int
    traceback: str = ""
    printed: str = ""

    def told(self) -> str:
        """The error in front of which the owner reads where to open the replay."""
        return f"Match {self.match_id}, step {self.step}: {self.message}"


def webhook_post(code: BotCode, body: dict, game: str) -> object:
    return webhooks.post(
        code.endpoint, body, webhook_seconds(game), webhook_secret(code.bot_id), settings.BOT_WEBHOOK_ALLOW_PRIVATE
    )


def webhook_secret(bot_id: int) -> str:
    """What webhook requests are signed with: the bot's API token, which its owner holds already
    and can replace (the next request is signed with the new one)."""
    secret = Token.objects.filter(user_id=bot_id).values_list("key", flat=True).first()
    if secret is None:
        raise webhooks.WebhookError("The bot has no API token to sign its requests with: give it a new token.")
    return secret


def announce_start(match, seat, code: BotCode) -> None:
    """Once per match and seat, before the first move: the endpoint hears which match it plays.
    Its answer is not needed, and a failure here is counted by the move that follows."""
    if not MoveQuestion.objects.filter(match=match, seat=seat.number, started=False).update(started=True):
        return
    body = {"type": "start", "match": match.pk, "game": match.game, "seat": seat.number, "players": match.players}
    try:
        webhook_post(code, body, match.game)
    except webhooks.WebhookError:
        pass


def announce_end(match_id: int, number: int) -> None:
    """POST `end` with the result to a seat's webhook bot, on the bot threads (receivers.py). Its
    answer is not needed, and an endpoint that does not listen loses nothing (best effort, within
    its move budget); a seat of uploaded code hears nothing."""
    seat = Seat.objects.select_related("match").get(match_id=match_id, number=number)
    code = BotCode.objects.filter(bot_id=seat.user_id, version=seat.code_version, kind=BotCode.Kind.WEBHOOK).first()
    if code is None:
        return
    match = seat.match
    body = {"type": "end", "match": match.pk, "game": match.game, "seat": seat.number, "result": match.result}
    try:
        webhook_post(code, body, match.game)
    except webhooks.WebhookError:
        pass


def record_success(bot_id: int, version: int) -> None:
    """A legal answer was played: counted, and the run of failures (strikes) is over."""
    BotCode.objects.filter(bot_id=bot_id, version=version).update(moves=F("moves") + 1)
    BotProfile.objects.filter(bot_id=bot_id, strikes__gt=0).update(strikes=0)


def record_failure(bot_id: int, version: int, failure: Failure) -> None:
    """Count a failed move against the version that played it and keep its report (the owner sees
    the last KEPT_FAILURES), and a strike against the bot: BOT_STRIKES_TO_SUSPEND failures in a
    row suspend it."""
    now = timezone.now()
    message = failure.told()
    BotCode.objects.filter(bot_id=bot_id, version=version).update(
        failures=F("failures") + 1, last_error=message[:500], last_error_at=now
    )
    code = BotCode.objects.filter(bot_id=bot_id, version=version).only("pk").first()
    if code is not None:
        BotFailure.objects.create(
            code=code,
            match_id=failure.match_id,
            step=failure.step,
            message=failure.message[:1000],
            traceback=failure.traceback[-4000:],
            printed=failure.printed[-4000:],
            at=now,
        )
        old = BotFailure.objects.filter(code=code).values_list("pk", flat=True)[KEPT_FAILURES:]
        BotFailure.objects.filter(pk__in=list(old)).delete()
    profile, _ = BotProfile.objects.get_or_create(bot_id=bot_id)
    BotProfile.objects.filter(pk=profile.pk).update(strikes=F("strikes") + 1)
    profile.refresh_from_db()
    if profile.strikes >= settings.BOT_STRIKES_TO_SUSPEND and profile.suspended_at is None:
        profile.suspended_at = now
        profile.suspended_because = f"{profile.strikes} failed moves in a row; the last: {message}"[:300]
        profile.save(update_fields=["suspended_at", "suspended_because"])
