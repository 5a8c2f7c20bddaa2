"""The ranked queue: players of similar rating are seated together.

The longest-waiting player anchors each match; others join it when their
rating is within both their own and the anchor's window, which widens the
longer each has waited, so nobody waits forever for a perfect opponent.
"""

import random
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from games.engine import GAMES
from games.lobby.models import QueueEntry
from games.matches import broadcast, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match

BASE_WINDOW = 100.0
WIDENING_PER_SECOND = 5.0
MAX_WINDOW = 800.0
RANKED_CLOCK = {"clock": Match.Clock.PER_GAME, "clock_initial_ms": 180_000, "clock_increment_ms": 2_000}


def window(entry: QueueEntry, now: datetime) -> float:
    waited = max(0.0, (now - entry.joined_at).total_seconds())
    return min(MAX_WINDOW, BASE_WINDOW + WIDENING_PER_SECOND * waited)


def join_queue(user, game: str, players: int, rating: float, now: datetime | None = None) -> QueueEntry:
    if game not in GAMES:
        raise MatchError("bad_request", f"There is no game called {game!r}.")
    engine = GAMES[game]
    if not max(2, engine.min_players) <= players <= engine.max_players:
        raise MatchError(
            "bad_request", f"Ranked {engine.name} tables seat {max(2, engine.min_players)} to {engine.max_players}."
        )
    with transaction.atomic():
        entry, created = QueueEntry.objects.get_or_create(
            user=user,
            game=game,
            defaults={"players": players, "rating": rating, "joined_at": now or timezone.now()},
        )
        if not created:
            raise MatchError("already_queued", f"You are already waiting for a {engine.name} match.")
        transaction.on_commit(lambda: broadcast.send_lobby_update(game))
    return entry


def leave_queue(user, game: str) -> None:
    deleted, _ = QueueEntry.objects.filter(user=user, game=game).delete()
    if not deleted:
        raise MatchError("not_queued", "You are not in that queue.")
    broadcast.send_lobby_update(game)


def pick_groups(entries: list[QueueEntry], players: int, now: datetime) -> list[list[QueueEntry]]:
    """Groups of `players` entries to seat together, longest waiting first (pure)."""
    waiting = sorted(entries, key=lambda e: (e.joined_at, e.pk or 0))
    groups = []
    while waiting:
        anchor = waiting.pop(0)
        near = sorted(waiting, key=lambda e: (abs(e.rating - anchor.rating), e.joined_at))
        limit = window(anchor, now)
        group = [anchor] + [e for e in near if abs(e.rating - anchor.rating) <= min(limit, window(e, now))][
            : players - 1
        ]
        if len(group) == players:
            groups.append(group)
            waiting = [e for e in waiting if e not in group]
    return groups


def groups_to_seat(game: str, entries: list[QueueEntry], players: int, now: datetime) -> list[list[QueueEntry]]:
    """In real-time games people and bots are never seated together in the ranked queue (their
    ladders are kept apart, ratings.ladders.default_kind); elsewhere anyone may meet anyone."""
    if not GAMES[game].realtime:
        return pick_groups(entries, players, now)
    people = [entry for entry in entries if not entry.user.is_bot]
    bots = [entry for entry in entries if entry.user.is_bot]
    return pick_groups(people, players, now) + pick_groups(bots, players, now)


def matchmake(game: str, players: int, now: datetime | None = None) -> list[Match]:
    """Seat and start every group that can be formed now; returns the new matches."""
    now = now or timezone.now()
    started = []
    with transaction.atomic():
        entries = list(QueueEntry.objects.select_for_update().filter(game=game, players=players).select_related("user"))
        for group in groups_to_seat(game, entries, players, now):
            clock = {} if GAMES[game].realtime else RANKED_CLOCK
            users = [entry.user for entry in group]
            random.shuffle(users)  # who starts is luck, not queue order
            match = lifecycle.start_seated_match(
                game=game, seats=[{"user": user} for user in users], now=now, ranked=True, **clock
            )
            QueueEntry.objects.filter(pk__in=[entry.pk for entry in group]).delete()
            started.append(match)
            transaction.on_commit(lambda m=match, u=users: broadcast.send_match_found(m, u))
    if started:
        transaction.on_commit(lambda: broadcast.send_lobby_update(game))
    return started
