"""Fair real-time races (Dobble): claims are judged by when they were made, not when they arrived.

A player further from the server would otherwise lose every close race. Each seated socket
of a real-time match pings its client every few seconds and keeps its last round-trip
times; half their median is the socket's one-way delay, capped at `LAG_CAP_MS` so that a
client that delays its answers on purpose gains at most the cap. A claim is taken as made
at its arrival minus that delay, and it is held until the cap has passed since then, so a
claim made earlier by a player further away has time to arrive first. Every claim, a
house bot's too, waits the same `LAG_CAP_MS` after it was made (docs/rules/dobble.md).

At a table with people, a bot (house, uploaded or webhook) may not claim sooner than the
table's `bot_reaction_ms` after the cards last changed: programs react in microseconds,
people in a second or so, and the organizer chooses how much of a start people get.

In rated play every account, person or bot, has one reaction floor, REALTIME_REACTION_FLOOR_MS
(200 ms): a claim made sooner than that after the table was sent the cards it is about is a
false start, judged wrong whatever it names (docs/rules/dobble.md, docs/security.md). The
cards are sent at "go" (nobody gets their faces before, broadcast.seat_message), then each
time a right claim moves them (`Match.shown_at`). A claim counts as made at its arrival
minus its socket's credited delay, so a player far away is not taken for a false starter.
"""

import statistics
from collections import deque
from datetime import datetime, timedelta

from django.conf import settings

from games.engine import GAMES
from games.matches.models import Match

PING_SECONDS = 2.0
SAMPLES = 5


def is_realtime(match_id: int) -> bool:
    game = Match.objects.filter(pk=match_id).values_list("game", flat=True).first()
    return game is not None and GAMES[game].realtime


def lag_cap_ms() -> int:
    return settings.REALTIME_LAG_CAP_MS


class DelayMeter:
    """The round trips of one socket's pings and the one-way delay they give."""

    def __init__(self):
        self.sent: dict[int, float] = {}
        self.round_trips: deque[float] = deque(maxlen=SAMPLES)
        self.next_id = 0

    def ping(self, now: float) -> int:
        """A new ping's id, sent at `now` (seconds, monotonic)."""
        self.next_id += 1
        self.sent = {self.next_id: now}  # an answer to an older ping is too late to be useful
        return self.next_id

    def pong(self, ping_id, now: float) -> bool:
        """Count the answer to a ping; False for an unknown or repeated id."""
        sent = self.sent.pop(ping_id, None) if isinstance(ping_id, int) else None
        if sent is None:
            return False
        self.round_trips.append((now - sent) * 1000)
        return True

    def delay_ms(self) -> int:
        """The one-way delay credited to this socket's claims: 0 until measured, at most the cap."""
        if not self.round_trips:
            return 0
        return min(round(statistics.median(self.round_trips) / 2), lag_cap_ms())

    def hold_seconds(self) -> float:
        """How long a claim arriving now waits: until the cap has passed since it was made."""
        return (lag_cap_ms() - self.delay_ms()) / 1000


def hold() -> timedelta:
    """How long every real-time claim waits after it was made before it is applied."""
    return timedelta(milliseconds=lag_cap_ms())


def is_program(seat) -> bool:
    return bool(seat.house_bot) or seat.code_version is not None or seat.user.is_bot


def reaction_floor() -> timedelta:
    return timedelta(milliseconds=settings.REALTIME_REACTION_FLOOR_MS)


def cards_sent_at(match) -> datetime:
    """When the table was sent the face-up cards it shows now: at go, or after the last right claim."""
    return match.shown_at or match.started_at


def is_false_start(match, made: datetime) -> bool:
    """A rated claim made sooner after the cards were sent than any person can react."""
    return match.ranked and match.engine.realtime and made < cards_sent_at(match) + reaction_floor()


def changed_ms(match, state) -> int:
    """The game time at which the race's face-up cards last changed."""
    return match.engine.view(state, None)["changed_ms"]


def earliest_claim(match, state, seats) -> datetime | None:
    """The earliest moment a bot seat may claim now (the later of the table's bot floor and the
    rated reaction floor), so that a bot never false-starts; None where neither applies."""
    floors = [bot_floor(match, state, seats)]
    if match.ranked and match.engine.realtime:
        floors.append(cards_sent_at(match) + reaction_floor())
    floors = [floor for floor in floors if floor is not None]
    return max(floors) if floors else None


def bot_floor(match, state, seats) -> datetime | None:
    """The earliest moment a bot seat may claim now, or None where no floor applies (a
    turn-based game, a table of bots only, or a floor of 0)."""
    floor_ms = match.options.get("bot_reaction_ms", 0)
    if not match.engine.realtime or not floor_ms or all(is_program(seat) for seat in seats):
        return None
    return match.started_at + timedelta(milliseconds=changed_ms(match, state) + floor_ms)
