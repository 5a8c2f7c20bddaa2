"""Sends each seat its own view, and spectators theirs, through the channel layer.

Groups are per match and per seat, so an event costs one message per seat and
one per spectator group, however many other matches are running. Views are
computed on the server from the engine (`game.view`), which strips every secret
the receiver may not see.
"""

import logging
import math
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import orjson
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.core.cache import cache
from django.utils import timezone
from redis.exceptions import RedisError

from games.matches import clocks
from games.matches.models import Match

log = logging.getLogger(__name__)


def player_group(match_id: int, user_id: int) -> str:
    """A seat's own pushes, named by its player (one seat a player in a match): a socket joins it
    before it knows its seat, so that it hears every push after the whole state it is sent,
    which it reads in the same hop as its seat (consumers.MatchConsumer.connect)."""
    return f"match-{match_id}-player-{user_id}"


def watch_group(match_id: int) -> str:
    return f"match-{match_id}-watch"


def table_group(match_id: int) -> str:
    """Everyone at the table, seated or watching: chat and seat changes."""
    return f"match-{match_id}"


# How many of the latest history entries a push after a change carries. Entries never change
# once written, so the client keeps the earlier ones; a push that starts past what it holds
# makes it ask for the whole state ("sync"). This keeps a move's messages the same size however
# long the game has run.
HISTORY_TAIL = 8


def match_message(match, state, seats, seat: int | None, history_tail: int | None = None) -> dict:
    """The picture one receiver gets: whole on (re)connect (the history read back from the
    log), with only the last `history_tail` history entries (from index `history_start`) after
    a change. `state` is the match's latest: its history ends where the snapshot's does."""
    return seat_message(match, state, table_facts(match, state, seats), seat, history_tail)


def table_facts(match, state, seats) -> dict:
    """The part of a state message that is the same for every receiver, built once a push."""
    to_act = acting(match, state)
    now = timezone.now()
    return {
        "type": "state",
        "match": match.pk,
        "seq": match.seq,
        "status": match.status,
        "seats": [public_seat(s, match.result) for s in seats],
        "to_act": to_act,
        "clocks": clocks.snapshot(match, state, seats, to_act, now),
        # A real-time race's get-ready countdown: how long until "go" (0 once it has come, never
        # before: the views hide the cards while it is above 0).
        "starts_in_ms": max(0, math.ceil((match.started_at - now).total_seconds() * 1000)) if match.started_at else 0,
        "result": match.result,
        "deal": match.deal_facts(reveal=False),
        # Where in the history the clock moved for a seat: all of them in a whole message, the
        # latest move's in a push after it (clients keep what they were told).
        "clock_moves": getattr(match, "clock_moves", []),
        **rating_facts(match),
    }


def acting(match, state) -> list[int]:
    """The seats to act now: none unless the match is running."""
    return match.engine.to_act(state) if state is not None and match.status == match.Status.RUNNING else []


def seat_message(match, state, facts: dict, seat: int | None, history_tail: int | None) -> dict:
    engine = match.engine
    view = engine.view(state, seat) if state is not None else None
    counting_down = facts["starts_in_ms"] > 0
    if view is not None and counting_down:  # before "go" nobody is sent the cards' faces
        view = engine.countdown_view(view)
    # A seat given up is in `to_act` while the computer plays it, but its player may no longer move;
    # before "go" nobody may, and a Dobble claim's list would name the symbols of the seat's card.
    given_up = {s["seat"] for s in facts["seats"] if s["forfeited"]}
    playing = seat is not None and seat in facts["to_act"] and seat not in given_up and not counting_down
    legal = engine.legal_actions(state, seat) if playing else []
    message = {**facts, "seat": seat, "view": view, "legal": legal}
    if seat is not None and match.deal_over:  # a player may check the deal once it is over
        message["deal"] = match.deal_facts(reveal=True)
    if view is not None and history_tail is None:
        view["history"] = match.whole_history()
    elif view is not None:
        kept = view["history"][-history_tail:]
        message["history_start"] = match.history_length - len(kept)
        view["history"] = kept
    return message


def rating_facts(match) -> dict:
    """What a ranked result did to each seat's rating, or why it is not rated, as the ratings
    app reports it (`rating_changes` empty and `not_rated` null while it is being rated)."""
    if _rating_report is None or match.status != match.Status.FINISHED or not match.ranked:
        return {"rating_changes": [], "not_rated": None}
    return _rating_report(match)


_rating_report = None


def report_ratings(report) -> None:
    """The ratings app (AppConfig.ready) gives the function that tells a finished ranked match's
    rating changes, or why it is not rated."""
    global _rating_report
    _rating_report = report


def rematch_facts(match) -> dict:
    """A finished table's rematch asked for and not yet started, as the lobby app reports it (the
    message its push carries), for the whole state a socket opens with: a page whose socket opens
    after that push, having been drawn before the ask, shows it too. Nothing at a table still
    playing, and nothing in a push: the match's last one comes before anyone can ask."""
    if _rematch_report is None or match.status != match.Status.FINISHED:
        return {}
    asked = _rematch_report(match)
    return {} if asked is None else {"rematch": asked}


_rematch_report = None


def report_rematches(report) -> None:
    """The lobby app (AppConfig.ready) gives the function that tells a finished match's rematch
    asked for and not yet started, or None."""
    global _rematch_report
    _rematch_report = report


def public_seat(seat, result: dict | None) -> dict:
    """A seat as everyone sees it. `connected`: someone is there to move, the player's socket or
    the seat's own house bot or uploaded code; a seat given up has no one, though the computer
    moves there so the others can finish and its player may still be watching."""
    return {
        "seat": seat.number,
        "player": seat.user.username,
        "bot": seat.user.is_bot,
        "connected": seat.forfeited_at is None
        and (seat.connections > 0 or bool(seat.house_bot) or seat.code_version is not None),
        "forfeited": seat.forfeited_at is not None,
        "resigned": seat.resigned,
        "came": seat.came,
        "gone": seat.why_gone(result),
        "gone_words": seat.gone_words(result),
        "gone_at": seat.gone_at,
    }


def send_state(match, state, seats, opened: int | None = None) -> None:
    """Push the new state to every seat with an open socket and to spectators (call after
    commit). A seat with none (a bot's, an absent player's) has nobody in its group to hear it;
    a socket that opens later is sent the whole state once it is counted (presence.connected
    locks the match, so a move is either before that count or sees it). `opened`: the seat of
    the socket whose count this change is; that socket is sent the whole state read in the same
    transaction, and the seat's other sockets, if any, already had it connected: no news there."""
    facts = table_facts(match, state, seats)
    heard = receivers(match.pk, seats, opened)
    deliver([(group, push(seat_message(match, state, facts, number, HISTORY_TAIL))) for group, number in heard])


def send_seats(match, state, seats, opened: int | None = None) -> None:
    """Who is at a table that started changed (a socket came to an empty seat or the last one
    left), nothing else: the others hear the seats and the clocks (a grace to come back starts or
    ends), not every seat's view again (call after commit; `opened` as send_state's). When 400 players
    connected at once, each arrival's whole-state push was a quarter of an opening's CPU
    (docs/performance.md). Not a state: a socket's heard seq stays (MatchConsumer.match_push)."""
    to_act = acting(match, state)
    message = {
        "type": "seats",
        "match": match.pk,
        "seq": match.seq,
        "seats": [public_seat(s, match.result) for s in seats],
        "clocks": clocks.snapshot(match, state, seats, to_act, timezone.now()),
    }
    event = {"type": "match.push", "text": encoded(message)}
    deliver([(group, event) for group, _ in receivers(match.pk, seats, opened)])


def receivers(match_id: int, seats, opened: int | None) -> list[tuple[str, int | None]]:
    """(group, seat number) of everyone a table's push goes to: the seats with an open socket but
    `opened`, then the spectators (None)."""
    heard = [(player_group(match_id, s.user_id), s.number) for s in seats if s.connections > 0 and s.number != opened]
    return [*heard, (watch_group(match_id), None)]


def push(message: dict) -> dict:
    """The channel-layer event a consumer forwards to its socket as is: encoded once here, so
    the layer carries (and the in-memory layer copies) one string, not a tree of objects.
    orjson, because the standard encoder took 30 µs a message, a tenth of a move's CPU
    (docs/performance.md); keys that are not strings become strings, as json.dumps makes them."""
    event = {"type": "match.push", "text": encoded(message)}
    if "seq" in message:  # a state: the socket notes what it has heard (consumers.MatchConsumer.check_heard)
        event["seq"] = message["seq"]
    if message.get("starts_in_ms"):  # sent face down: the socket sends the faces at go (MatchConsumer.plan_go)
        event["starts_in_ms"] = message["starts_in_ms"]
    return event


def encoded(message: dict) -> str:
    """A message as JSON text, by orjson (the standard encoder took 5x as long)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def deliver(events: list[tuple[str, dict]]) -> None:
    """Send events to groups in one hop to the event loop, or, inside `collected`, leave them
    for the caller to send from its event loop.

    Called after the change is committed, so an unreachable channel layer (Redis restarting)
    loses no data: it is logged, and every client gets the whole current state when its
    socket reconnects.
    """
    outbox = getattr(_collecting, "outbox", None)
    if outbox is not None:
        outbox.events.extend(events)
    else:
        async_to_sync(send_collected)(events)


def after_sent(function, *args) -> None:
    """Call `function(*args)` once the pushes collected on this thread have been sent, or now
    outside `collected`. For commit work nobody at the table waits for, such as scoring a
    finished match: eager Celery ran it on the database thread before the last move's pushes
    left, and every move asked for meanwhile waited behind it (docs/performance.md)."""
    outbox = getattr(_collecting, "outbox", None)
    if outbox is not None:
        outbox.later.append((function, args))
    else:
        function(*args)


@dataclass
class Outbox:
    """What commits asked for while `collected`: events to send, then calls to make."""

    events: list[tuple[str, dict]] = field(default_factory=list)
    later: list[tuple] = field(default_factory=list)

    def call_later(self) -> None:
        """The `after_sent` calls, in order; one that fails is logged and the rest still run
        (what they do is also swept up later, e.g. `settle_forgotten`)."""
        for function, args in self.later:
            try:
                function(*args)
            except Exception:
                log.exception("%s%r after the pushes failed", getattr(function, "__name__", function), args)


_collecting = threading.local()


@contextmanager
def collected() -> Iterator[Outbox]:
    """Within the block, this thread's `deliver` calls add their events to the outbox yielded
    instead of sending them, and its `after_sent` calls wait there too. A web process's writes
    run on a database thread and would each make their own hop to the event loop to send (a
    thread waking the loop and waiting for it, per move); collected, a whole write group's
    events go in one `send_collected` from the loop, after its commit."""
    outer = getattr(_collecting, "outbox", None)
    _collecting.outbox = outbox = Outbox()
    try:
        yield outbox
    finally:
        _collecting.outbox = outer


async def send_collected(events: list[tuple[str, dict]]) -> None:
    """Send events from the event loop; an unreachable layer is logged (see `deliver`)."""
    try:
        await send_all(events)
    except (RedisError, OSError) as error:
        log.warning("channel layer unreachable, %d message(s) not sent: %s", len(events), error)


async def send_all(events: list[tuple[str, dict]], tries: int = 3) -> None:
    """Tried again on a Redis error: after a Redis restart every pooled connection fails once
    before it reconnects, and a lost push would leave a live socket behind. A retry may send a
    group twice whose first send Redis ran before the connection broke: a client takes a state
    it already holds as it is."""
    layer = get_channel_layer()
    for attempt in range(tries):
        try:
            await send_to_groups(layer, events)
            return
        except (RedisError, OSError):
            if attempt == tries - 1:
                raise


async def send_to_groups(layer, events: list[tuple[str, dict]]) -> None:
    """All in one call where the layer can (the real stack's: one round trip to Redis), else in turn."""
    if hasattr(layer, "group_send_many"):
        await layer.group_send_many(events)
    else:
        for group, event in events:
            await layer.group_send(group, event)


def send_to_table(match_id: int, message: dict) -> None:
    deliver([(table_group(match_id), push(message))])


def send_table_update(match_id: int) -> None:
    """Seats changed (join, leave, bot added, connection): everyone at the table and the lobby hear it."""
    match = Match.objects.get(pk=match_id)
    send_table_state(match, list(match.seats.select_related("user")))


def send_table_state(match, seats, opened: int | None = None) -> None:
    """As `send_table_update`, for a match just written with these seats (`opened`: send_state's)."""
    state = match.load_state() if match.dealt else None
    send_state(match, state, seats, opened)
    send_lobby_update(match.game)


def lobby_group(game: str) -> str:
    return f"lobby-{game}"


def send_lobby_update(game: str) -> None:
    deliver([(lobby_group(game), {"type": "lobby.changed"})])


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def token_group(user_id: int) -> str:
    """The account's sockets opened with its API token (not its browser session's)."""
    return f"token-{user_id}"


def account_group(user_id: int) -> str:
    """Every socket the account has open, however it signed in."""
    return f"account-{user_id}"


def session_group(session_key: str) -> str:
    """The sockets one browser session opened."""
    return f"session-{session_key}"


def close_token_sockets(user_id: int) -> None:
    """The account's token was retired (replaced, deleted, its password changed): the sockets it
    opened close, so whoever held the old token cannot go on playing through one left open.
    Call after the change is committed."""
    deliver([(token_group(user_id), {"type": "token.retired"})])


def close_account_sockets(user_id: int) -> None:
    """The account's password changed: every socket it has open closes, to open again with
    whatever sign-in is still good (a session the new password ended comes back a visitor's, so
    whoever stole it cannot go on playing through a socket left open). Call after the commit."""
    deliver([(account_group(user_id), {"type": "signed.out"})])


def close_session_sockets(session_key: str) -> None:
    """The session was signed out: its sockets open again as a visitor's."""
    deliver([(session_group(session_key), {"type": "signed.out"})])


def match_found_message(match, about: str = "") -> dict:
    """`about` says what the match is for a player elsewhere: what it is part of ("Round 2 of
    Friday Swiss"), else the match itself ("ranked Dudo, alice v bob")."""
    about = about or match.summary
    return {"type": "match_found", "match": match.pk, "game": match.game, "url": f"/match/{match.pk}/", "about": about}


def send_match_found(match, users) -> None:
    """Tell each player (queued, or in a tournament) where their new match is."""
    send_matches_found([(match, users)])


def send_matches_found(found: list[tuple[Match, list]], about: str = "") -> None:
    """Every (match, players) pair of a tournament round in one hop to the channel layer; a
    match with nobody to tell (house bots only) costs nothing."""
    messages = [(push(match_found_message(match, about)), users) for match, users in found if users]
    deliver([(user_group(user.pk), message) for message, users in messages for user in users])


def send_notice(user_ids, text: str, link: dict | None = None) -> None:
    """A sentence shown at once on whatever page these people have open (notices.js), such as
    a tournament they entered being cancelled; `link` is {"href", "text"} to end it with.

    It is also kept for NOTICE_KEPT_SECONDS: a page that was loading when it went out (a player
    who resigned reloads the table) is sent it when its socket opens (`recent_notices`); pages
    tell a notice they have shown by its `id`."""
    user_ids = list(user_ids)
    message = {"type": "notice", "id": uuid.uuid4().hex, "text": text, "link": link}
    kept = cache.get_many([notices_key(user_id) for user_id in user_ids])
    cache.set_many(
        {notices_key(user_id): [*kept.get(notices_key(user_id), [])[-4:], message] for user_id in user_ids},
        NOTICE_KEPT_SECONDS,
    )
    deliver([(user_group(user_id), push(message)) for user_id in user_ids])


NOTICE_KEPT_SECONDS = 120


def notices_key(user_id: int) -> str:
    return f"notices-{user_id}"


def recent_notices(user_id: int) -> list[dict]:
    """The notices sent to the account in the last NOTICE_KEPT_SECONDS, oldest first."""
    return cache.get(notices_key(user_id), [])
