"""The ranked queue: players of similar rating are seated together.

The longest-waiting player anchors each match; others join it when their
rating is within both their own and the anchor's window, which widens the
longer each has waited, so nobody waits forever for a perfect opponent.

Pools: bots meet bots, people meet people, and a person who opted in (`meet_bots`) meets
both, except in real-time games, where people and bots are ranked apart
(ratings.ladders.default_kind). A person and their bots, or two bots of one owner, are never
seated together.
"""

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from fairplay.actions import rated_play_stopped
from games.engine import GAMES
from games.lobby.models import QueueEntry, QueuePairing
from games.matches import broadcast, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match
from games.matches.time_controls import PRESETS, QUICK_PAIRING

BASE_WINDOW = 100.0
WIDENING_PER_SECOND = 5.0
MAX_WINDOW = 800.0
DEFAULT_TIME_CONTROL = "3+2"


def window(entry: QueueEntry, now: datetime) -> float:
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return min(MAX_WINDOW, BASE_WINDOW + WIDENING_PER_SECOND * waited)


def join_queue(
    user,
    game: str,
    players: int,
    rating: float,
    now: datetime | None = None,
    time_control: str = DEFAULT_TIME_CONTROL,
    meet_bots: bool = False,
) -> QueueEntry:
    if time_control not in QUICK_PAIRING:
        raise MatchError("bad_request", "Choose a time control of the quick pairing.", "time_control")
    if game not in GAMES:
        raise MatchError("bad_request", f"There is no game called {game!r}.", "game")
    engine = GAMES[game]
    if rated_play_stopped(user):
        raise MatchError("rated_play_stopped", "Your account may not play rated games: write to the site's staff.")
    if not engine.smallest_table <= players <= engine.max_players:
        raise MatchError(
            "bad_request",
            f"Ranked {engine.name} tables seat {engine.smallest_table} to {engine.max_players}.",
            "players",
        )
    with transaction.atomic():
        entry, created = QueueEntry.objects.get_or_create(
            user=user,
            game=game,
            defaults={
                "players": players,
                "time_control": time_control,
                "rating": rating,
                "joined_at": now or timezone.now(),
                "meet_bots": meet_bots and not user.is_bot,
            },
        )
        if not created:
            raise MatchError("already_queued", f"You are already waiting for a {engine.name} match.")
        transaction.on_commit(lambda: broadcast.send_lobby_update(game))
    return entry


JUST_STARTED = timedelta(seconds=15)


def just_paired(user, game: str, now: datetime | None = None) -> Match | None:
    """A running match of this game the queue seated the user in moments ago: a lobby page that
    connects after its `match_found` went out (it was loading) is sent there all the same. Any
    other match (a game against the computer, a table they opened) is no reason to leave the lobby."""
    pairing = (
        QueuePairing.objects.filter(
            user=user,
            match__game=game,
            match__status=Match.Status.RUNNING,
            paired_at__gte=(now or timezone.now()) - JUST_STARTED,
        )
        .select_related("match")
        .order_by("-paired_at")
        .first()
    )
    return pairing.match if pairing else None


def leave_queue(user, game: str) -> None:
    deleted, _ = QueueEntry.objects.filter(user=user, game=game).delete()
    if not deleted:
        raise MatchError("not_queued", "You are not in that queue.")
    broadcast.send_lobby_update(game)


def may_meet(one: QueueEntry, other: QueueEntry) -> bool:
    """Whether the queue may seat these two together (the pools of the module docstring)."""
    if lifecycle.same_owner(one.user, other.user):
        return False
    if one.user.is_bot == other.user.is_bot:
        return True
    person = other if one.user.is_bot else one
    return person.meet_bots and not GAMES[person.game].realtime


def pool(entry: QueueEntry) -> str:
    """Whom the entry waits for, in words: what the queue answers when a player joins it."""
    if entry.user.is_bot:
        return "Bots are paired with bots of other owners (and people who chose to meet bots)."
    if entry.meet_bots and not GAMES[entry.game].realtime:
        return "You are paired with people and bots."
    if entry.meet_bots:
        return f"You are paired with people only: in {GAMES[entry.game].name} people and bots are ranked apart."
    return "You are paired with people only."


def waiting_with(entry: QueueEntry) -> int:
    """How many others wait now in the same queue who may be seated with this entry."""
    others = QueueEntry.objects.filter(game=entry.game, players=entry.players, time_control=entry.time_control).exclude(
        pk=entry.pk
    )
    return sum(may_meet(entry, other) for other in others.select_related("user"))


def pick_groups(entries: list[QueueEntry], players: int, now: datetime) -> list[list[QueueEntry]]:
    """Groups of `players` entries to seat together, longest waiting first (pure)."""
    waiting = sorted(entries, key=lambda e: (e.joined_at, e.pk or 0))
    groups = []
    while waiting:
        anchor = waiting.pop(0)
        near = sorted(waiting, key=lambda e: (abs(e.rating - anchor.rating), e.joined_at))
        limit = window(anchor, now)
        group = [anchor]
        for entry in near:
            close = abs(entry.rating - anchor.rating) <= min(limit, window(entry, now))
            apart = not all(may_meet(entry, e) for e in group)
            if close and len(group) < players and not apart:
                group.append(entry)
        if len(group) == players:
            groups.append(group)
            waiting = [e for e in waiting if e not in group]
    return groups


def matchmake(
    game: str, players: int, now: datetime | None = None, time_control: str = DEFAULT_TIME_CONTROL
) -> list[Match]:
    """Seat and start every group that can be formed now; returns the new matches.

    "no clock" pairs a casual game; the other presets are ranked.
    """
    now = now or timezone.now()
    preset = PRESETS[time_control]
    started = []
    with transaction.atomic():
        entries = list(
            QueueEntry.objects.select_for_update()
            .filter(game=game, players=players, time_control=time_control)
            .select_related("user")
        )
        for group in pick_groups(entries, players, now):
            clock = {} if GAMES[game].realtime else preset.as_table()
            users = [entry.user for entry in group]
            random.shuffle(users)  # who starts is luck, not queue order
            match = lifecycle.start_seated_match(
                game=game, seats=[{"user": user} for user in users], now=now, ranked=preset.ranked, **clock
            )
            QueueEntry.objects.filter(pk__in=[entry.pk for entry in group]).delete()
            QueuePairing.objects.bulk_create([QueuePairing(user=user, match=match, paired_at=now) for user in users])
            started.append(match)
            transaction.on_commit(lambda m=match, u=users: broadcast.send_match_found(m, u))
    if started:
        transaction.on_commit(lambda: broadcast.send_lobby_update(game))
    return started
