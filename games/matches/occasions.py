"""What a match is part of, as the app that seated it says: "Round 2 of Winter Swiss".

The match service never imports the apps above it. A tournament registers the function that
names its matches' event (AppConfig.ready); the table page links back to the event, and no
rematch is offered there: the event seats the next game itself, after asking the viewer a
question where it has one (a Dobble series' loser chooses the next mini-game at the table).
"""

from dataclasses import dataclass, field
from datetime import UTC, datetime

from games.matches.models import Match, Seat


@dataclass(frozen=True)
class Choice:
    """A question the event puts to the viewer once the game at this table is over (a Dobble
    series' loser names the next mini-game): the page posts `field` with one of `options` to `url`."""

    question: str  # in words: "You lost: choose the next mini-game"
    field: str
    options: tuple[tuple[str, str], ...]  # (value, label)
    url: str
    until: datetime
    otherwise: str  # what happens when the time runs out, in words

    def seconds_left(self) -> int:
        return max(0, round((self.until - datetime.now(UTC)).total_seconds()))


@dataclass(frozen=True)
class Offer:
    """Something the event lets the seated player do while the game runs (an arena's berserk:
    halve one's clock for a point more): a button posting to `url`, with what it does in words."""

    label: str  # "Berserk"
    url: str
    explains: str  # "Halve your clock now, before your first move: a win earns 1 more point."
    until_first_move: bool = False  # gone from the table once the player has moved (the table takes it away)


@dataclass(frozen=True)
class Occasion:
    name: str  # in words: "Round 2 of Winter Swiss"
    event: str  # the event's own name, for sentences: "Winter Swiss"
    url: str
    next: str = ""  # what comes next for the viewer, in words: "The tournament seats your next game."
    next_url: str = ""  # where that next game is, once it has started
    choice: Choice | None = None  # asked of the viewer now
    offer: Offer | None = None  # offered to the viewer while the game runs
    standing: str = ""  # where the viewer stands in the event now: "you: 14 points, 3rd of 9 · 23 minutes left"
    seat_notes: dict[int, str] = field(default_factory=dict)  # beside a seat's name, by seat number: "berserk"


def no_move_words(names: str) -> str:
    """How an event counts a game a player came to but made no move of their own in (`Match.idle_seats`),
    in words: the one sentence its round list and the game's page ("Not rated: ...") both say."""
    return f"{names} made no move of their own: counted as a forfeit"


_namers: list = []


def register(name_occasion) -> None:
    """name_occasion(match, user) -> Occasion | None; an app registers one once."""
    if name_occasion not in _namers:
        _namers.append(name_occasion)


def of(match, user=None) -> Occasion | None:
    """The match's event, with what comes next for `user` (a visitor, or nobody, is told nothing)."""
    for name_occasion in _namers:
        found = name_occasion(match, user)
        if found is not None:
            return found
    return None


def games_under_way(user) -> list[tuple[Match, Occasion]]:
    """The account's games of an event still in play, its seat not given up: a page that opens
    meanwhile reminds its player of them (an event's clock runs whether they come or not)."""
    seats = (
        Seat.objects.filter(user=user, forfeited_at=None, match__status=Match.Status.RUNNING)
        .select_related("match")
        .order_by("-match__started_at")[:5]
    )
    found = [(seat.match, of(seat.match, user)) for seat in seats]
    return [(match, occasion) for match, occasion in found if occasion is not None]
