"""Who answers for a seat: a person, a house bot, or a bot that another app runs.

The match service knows two kinds itself: a person (whose clock, when it runs out, plays
the default move) and a house bot (plain Python in games/<game>/bots.py, answered inside
the match lock because it takes microseconds). Apps above the match service register the
kinds they provide (botapi: uploaded code and webhook bots) in their AppConfig.ready(), so
this layer never imports them. Such a player is *asked*: outside the match lock, off the
thread that wakes matches, and its answer is then played like anybody's move.
"""

import random
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings

from games.matches import clocks, fairness
from games.registry import get_bot

# The action of a due event whose player must be asked (outside the lock) what it plays.
ASK = "ask"


class NoAnswer(Exception):
    """An asked player gave no usable answer; the message is for its owner (already recorded)."""


@dataclass(frozen=True)
class Answer:
    action: dict
    source: str  # a MatchAction.Source value


class SeatPlayer:
    """The interface. `next_move` is called inside the match lock on every change."""

    def answers_for(self, seat) -> bool:
        raise NotImplementedError

    def next_move(self, match, state, seat, seats) -> tuple[datetime, dict | str | None] | None:
        """When this seat acts by itself and what it plays: an action, ASK, or None for the
        default move of a spent clock; None when it waits for someone outside. `seats` are all
        the table's seats."""
        raise NotImplementedError

    def next_time(self, match, state, seat, seats) -> datetime | None:
        """When `next_move` will say this seat acts: all that planning a wake-up needs. A kind
        whose time does not hang on what it plays says so without working out the move."""
        move = self.next_move(match, state, seat, seats)
        return None if move is None else move[0]

    def ask(self, match, state, seat) -> Answer:
        """ASK players only: their answer (may take seconds); raises NoAnswer."""
        raise NotImplementedError

    def party(self, seat) -> str:
        """ASK players only: whose share of the bot threads its questions use (asking.py), so one
        owner's many slow bots wait for each other, not for everybody's."""
        raise NotImplementedError

    def reserve(self, match, seat, now: datetime) -> None:
        """ASK players only: note that a question is on its way, so `next_move` waits for it."""
        raise NotImplementedError

    def refused(self, seat, message: str) -> None:
        """ASK players only: their answer was illegal; count it against them."""
        raise NotImplementedError

    def accepted(self, seat) -> None:
        """ASK players only: their answer was played; a run of failures is over."""
        raise NotImplementedError


class Person(SeatPlayer):
    """Anyone not otherwise claimed plays from outside (browser, HTTP, websocket)."""

    def answers_for(self, seat) -> bool:
        return True

    def next_move(self, match, state, seat, seats):
        limit = clocks.deadline(match, seat, state)
        return None if limit is None else (limit, None)


class HouseBot(SeatPlayer):
    """House bots, and every forfeited seat (a forfeit hands the seat to the random bot)."""

    def answers_for(self, seat) -> bool:
        return bool(seat.house_bot)

    def next_move(self, match, state, seat, seats):
        """What the house bot on this seat will play and when; the same answer every time it is asked.
        A real-time claim is due once the race has been held open after it was made (fairness.py)."""
        engine = match.engine
        rng = random.Random(f"{match.seed}-{match.seq}-{seat.number}")
        bot = get_bot(match.game, seat.house_bot)
        view = engine.view(state, seat.number)
        action = bot.choose(view, engine.legal_actions(state, seat.number), rng)
        if action is None:
            return None
        if not engine.realtime:
            return self.thought(match, seat), action
        when = match.turn_started_at + timedelta(milliseconds=bot.reaction_ms(view, action, rng))
        # A real-time legal action may carry the earliest game time it can be played (a lockout's end).
        earliest = match.started_at + timedelta(milliseconds=action.get("at_ms", 0) + 1)
        floor = fairness.earliest_claim(match, state, seats)
        made = max(when, earliest, floor) if floor else max(when, earliest)
        return made + fairness.hold(), action

    def next_time(self, match, state, seat, seats):
        if match.engine.realtime:  # a reaction time hangs on what the bot saw and plays
            return super().next_time(match, state, seat, seats)
        return self.thought(match, seat)

    def thought(self, match, seat) -> datetime:
        """A turn-based house bot moves 0.5-1.5 x HOUSE_BOT_THINK_MS after its turn began, drawn
        apart from its choice, so a wake-up is planned without making the choice (which is made,
        once, when the bot wakes: a round of 5,000 tables plans 5,000 first moves)."""
        rng = random.Random(f"{match.seed}-{match.seq}-{seat.number}-think")
        return match.turn_started_at + timedelta(milliseconds=int(settings.HOUSE_BOT_THINK_MS * rng.uniform(0.5, 1.5)))


_registered: list[SeatPlayer] = []


def register(player: SeatPlayer) -> None:
    """Called by the app that provides a kind of player (AppConfig.ready); house bots still come first."""
    if not any(type(known) is type(player) for known in _registered):
        _registered.append(player)


def player_for(seat) -> SeatPlayer:
    for player in (HOUSE_BOT, *_registered):
        if player.answers_for(seat):
            return player
    return PERSON


HOUSE_BOT = HouseBot()
PERSON = Person()
