"""What bots hear of the match service's events (apps.py connects them)."""

from botapi import players, webhooks
from botapi.models import BotCode
from games.matches.models import Match, Seat


def tell_webhooks_the_end(sender, match_id: int, **kwargs) -> None:
    """POST `end` with the result to every webhook bot of the match; its answer is not needed,
    and an endpoint that does not listen loses nothing (best effort, within its move budget)."""
    bot_seats = list(Seat.objects.filter(match_id=match_id, code_version__isnull=False))
    match = Match.objects.filter(pk=match_id).first() if bot_seats else None  # most matches have no bot of code
    if match is None:
        return
    for seat in bot_seats:
        code = BotCode.objects.filter(bot_id=seat.user_id, version=seat.code_version, kind=BotCode.Kind.WEBHOOK).first()
        if code is None:
            continue
        body = {"type": "end", "match": match.pk, "game": match.game, "seat": seat.number, "result": match.result}
        try:
            players.webhook_post(code, body, match.game)
        except webhooks.WebhookError:
            pass
