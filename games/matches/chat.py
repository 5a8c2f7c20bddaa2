"""Table chat: seated players and logged-in spectators, rate limited.

Text is stored and sent as plain text; clients insert it as text, never as HTML.
"""

import unicodedata

from django.core.cache import cache

from games.matches import broadcast
from games.matches.errors import MatchError
from games.matches.models import ChatMessage, Match

MAX_CHARS = 300
BURST = 5
WINDOW_SECONDS = 10


def clean(text) -> str:
    if not isinstance(text, str):
        raise MatchError("bad_message", "A chat message needs some text.")
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C" or ch == " ").strip()
    if not text:
        raise MatchError("bad_message", "A chat message needs some text.")
    if len(text) > MAX_CHARS:
        raise MatchError("bad_message", f"Chat messages are limited to {MAX_CHARS} characters.")
    return text


def check_rate(match_id: int, user) -> None:
    key = f"chat-rate-{match_id}-{user.pk}"
    cache.add(key, 0, WINDOW_SECONDS)
    if cache.incr(key) > BURST:
        raise MatchError("rate_limited", f"Slow down: at most {BURST} messages every {WINDOW_SECONDS} seconds.")


def post(match_id: int, user, text) -> ChatMessage:
    if user is None or not user.is_authenticated:
        raise MatchError("not_authenticated", "Log in to chat.")
    text = clean(text)
    if not Match.objects.filter(pk=match_id).exists():
        raise MatchError("not_found", "There is no such match.")
    check_rate(match_id, user)
    message = ChatMessage.objects.create(match_id=match_id, user=user, text=text)
    broadcast.send_to_table(
        match_id,
        {
            "type": "chat",
            "match": match_id,
            "player": user.username,
            "text": text,
            "at": message.created_at.isoformat(),
        },
    )
    return message
