"""An account's event stream: what a bot driven from outside hears so that it never polls.

One message a line, JSON, the same on the websocket (`/ws/events/`) and the streamed HTTP
endpoint (`GET /api/stream/event`, newline-delimited JSON as Lichess's `/api/stream/event`):
every `match_found` (a queue pairing, a ladder match, a tournament game, an accepted
challenge), every `bot_challenge` waiting for the bot's owner, every `notice`. On opening,
the stream first tells of every running match the account still has a seat in and every
challenge waiting for it, so a program that reconnects misses nothing; the stream listens
before it reads them, so what happens meanwhile comes as it happens, told once. An empty line
every KEEPALIVE_SECONDS on HTTP keeps proxies from closing a quiet stream.

While a bot listens it counts as present: the ladder seats a driven bot only then (ladder.py).
"""

import asyncio

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.http import JsonResponse, StreamingHttpResponse
from rest_framework.authtoken.models import Token

from botapi.models import Challenge, LadderMatch
from games.matches import broadcast, occasions
from games.matches.models import Match, Seat
from games.matches.sockets import ReconnectingConsumer

KEEPALIVE_SECONDS = 10
PRESENT_SECONDS = 3 * KEEPALIVE_SECONDS


def present_key(user_id: int) -> str:
    return f"bot-listening-{user_id}"


def listening(user_id: int) -> bool:
    """Whether the account's event stream was open in the last PRESENT_SECONDS."""
    return bool(cache.get(present_key(user_id)))


def mark_listening(user_id: int) -> None:
    cache.set(present_key(user_id), True, PRESENT_SECONDS)


def stop_listening(user_id: int) -> None:
    """A stream closed: the ladder stops seating the bot at once (another stream of it may be open
    still, and marks it again within KEEPALIVE_SECONDS)."""
    cache.delete(present_key(user_id))


def challenge_message(offer: Challenge) -> dict:
    return {
        "type": "bot_challenge",
        "id": offer.pk,
        "challenger": offer.challenger.username,
        "opponent": offer.opponent.username,
        "game": offer.game,
        "ranked": offer.ranked,
        "accept": f"/api/bots/challenges/{offer.pk}/accept/",
    }


def send_challenge(offer: Challenge) -> None:
    """Tell the challenged bot (its owner answers, or the bot with its owner's token)."""
    broadcast.deliver([(broadcast.user_group(offer.opponent_id), broadcast.push(challenge_message(offer)))])


def send_started(match: Match, users) -> None:
    """Tell the bot accounts among `users` where their new match is (after the commit)."""
    broadcast.send_match_found(match, [user for user in users if user.is_bot])


def about(match) -> str:
    """What a running match is part of, as it was told when it started: its event's round, the
    bot ladder, else nothing to add (match_found_message then says what the match is)."""
    occasion = occasions.of(match)
    if occasion is not None:
        return occasion.name
    laddered = LadderMatch.objects.filter(match=match).select_related("match").first()
    return laddered.about if laddered else ""


def opening_events(user) -> list[dict]:
    """What a stream says first: the running matches the account is seated in, oldest first,
    and the challenges waiting for it."""
    seats = Seat.objects.filter(user=user, forfeited_at=None, match__status=Match.Status.RUNNING).select_related(
        "match"
    )
    running = [seat.match for seat in seats.order_by("match__started_at")[:50]]
    started = [broadcast.match_found_message(match, about(match)) for match in running]
    waiting = Challenge.objects.filter(opponent=user, status=Challenge.Status.PENDING).select_related(
        "challenger", "opponent"
    )
    return started + [challenge_message(offer) for offer in waiting[:50]]


class Opening:
    """The stream's opening events, as the text of each line. Read after the stream joined its
    group, so an event that happened in between comes twice, read and heard: `fresh` passes a
    heard event once, unless the opening told it already (events are built by the same
    functions either way, so the texts are equal)."""

    def __init__(self, events: list[dict]):
        self.lines = [broadcast.push(event)["text"] for event in events]
        self.unheard = set(self.lines)

    def fresh(self, text: str) -> bool:
        if text in self.unheard:
            self.unheard.discard(text)
            return False
        return True


@database_sync_to_async
def read_opening(user) -> Opening:
    return Opening(opening_events(user))


class EventConsumer(ReconnectingConsumer):
    """`/ws/events/`: the stream over a websocket (token in the header or `?token=`)."""

    async def connect(self):
        user = self.scope.get("user")
        if user is None or not user.is_authenticated:
            await self.accept()
            await self.close(code=4401)
            return
        self.groups_joined = [broadcast.user_group(user.pk), *self.sign_in_groups()]
        if not await self.join_groups(self.groups_joined):
            return
        # Read before the handshake ends: whatever starts later comes through the group joined above.
        self.opening = await read_opening(user)
        await database_sync_to_async(mark_listening)(user.pk)
        await self.accept()
        self.presence = asyncio.ensure_future(keep_present(user.pk))
        for line in self.opening.lines:
            await self.send(text_data=line)

    async def disconnect(self, code):
        if getattr(self, "presence", None) is not None:
            self.presence.cancel()
            await database_sync_to_async(stop_listening)(self.scope["user"].pk)
        for group in getattr(self, "groups_joined", []):
            await self.channel_layer.group_discard(group, self.channel_name)

    async def receive_json(self, content, **kwargs):
        await self.send_json({"type": "error", "code": "bad_message", "message": "The event socket only listens."})

    async def match_push(self, event):
        if self.opening.fresh(event["text"]):
            await self.send(text_data=event["text"])


async def keep_present(user_id: int) -> None:
    while True:
        await asyncio.sleep(KEEPALIVE_SECONDS)
        await database_sync_to_async(mark_listening)(user_id)


@database_sync_to_async
def user_of_request(request):
    """The token's account (`Authorization: Token ...` or `Bearer ...`), else the session's."""
    kind, _, key = request.headers.get("Authorization", "").partition(" ")
    if kind.lower() in ("token", "bearer") and key:
        found = Token.objects.select_related("user").filter(key=key.strip()).first()
        return found.user if found else None
    user = request.user
    return user if user.is_authenticated else None


async def stream_event(request):
    """`GET /api/stream/event`: the stream as newline-delimited JSON, open until the client leaves."""
    user = await user_of_request(request)
    if user is None:
        body = {"type": "error", "code": "not_authenticated", "message": "Send the bot's token.", "fields": {}}
        return JsonResponse(body, status=401)
    # The response starts once the stream listens and has read its opening, as the socket's
    # handshake ends: whatever happens after the client has its headers is heard.
    layer = get_channel_layer()
    channel = await layer.new_channel()
    group = broadcast.user_group(user.pk)
    await layer.group_add(group, channel)
    try:
        opening = await read_opening(user)
    except BaseException:
        await layer.group_discard(group, channel)
        raise
    return StreamingHttpResponse(event_lines(user, layer, channel, opening), content_type="application/x-ndjson")


async def event_lines(user, layer, channel: str, opening: Opening):
    group = broadcast.user_group(user.pk)
    try:
        for line in opening.lines:
            yield line + "\n"
        while True:
            await database_sync_to_async(mark_listening)(user.pk)
            try:
                message = await asyncio.wait_for(layer.receive(channel), KEEPALIVE_SECONDS)
            except TimeoutError:
                yield "\n"
                continue
            if message.get("type") == "match.push" and opening.fresh(message["text"]):
                yield message["text"] + "\n"
    finally:
        await layer.group_discard(group, channel)
        await database_sync_to_async(stop_listening)(user.pk)
