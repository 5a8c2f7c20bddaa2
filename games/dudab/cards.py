"""The Dudab Buba deck and its stable card ids.

  number cards  "R-hand-3"    colour letter (R, B, Y, G), symbol, value 1-4: 64 cards
  Dudab         "dudab-1"     .. "dudab-8"
  Shaman        "shaman-R-1"  two per colour: "shaman-R-1", "shaman-R-2", .. "shaman-G-2"
  Jungle        "jungle-1"    .. "jungle-8" (expansion option `jungle`)
  Baby          "baby-1"      .. "baby-8"   (expansion option `baby`)

A Dudab request names one attribute: {"colour": "R"}, {"symbol": "hide"} or {"value": 3}.
"""

from __future__ import annotations

from typing import NamedTuple

from games.base import IllegalAction

COLOURS = ("R", "B", "Y", "G")
COLOUR_NAMES = {"R": "red", "B": "blue", "Y": "yellow", "G": "green"}
SYMBOLS = ("hand", "mammoth", "club", "hide")
VALUES = (1, 2, 3, 4)
ATTRIBUTES = ("colour", "symbol", "value")

NUMBER, DUDAB, SHAMAN, JUNGLE, BABY = "number", "dudab", "shaman", "jungle", "baby"


class Card(NamedTuple):
    kind: str
    colour: str = ""  # "" for Dudab, Jungle, Baby
    symbol: str = ""  # a number card's only
    value: int = 0  # a number card's only


NUMBER_CARDS = tuple(f"{c}-{s}-{v}" for c in COLOURS for s in SYMBOLS for v in VALUES)
NUMBER_INFO = {f"{c}-{s}-{v}": Card(NUMBER, c, s, v) for c in COLOURS for s in SYMBOLS for v in VALUES}
DUDAB_CARDS = tuple(f"dudab-{i}" for i in range(1, 9))
SHAMAN_CARDS = tuple(f"shaman-{c}-{i}" for c in COLOURS for i in (1, 2))
JUNGLE_CARDS = tuple(f"jungle-{i}" for i in range(1, 9))
BABY_CARDS = tuple(f"baby-{i}" for i in range(1, 9))

CARDS: dict[str, Card] = {
    **NUMBER_INFO,
    **{card: Card(DUDAB) for card in DUDAB_CARDS},
    **{card: Card(SHAMAN, card.split("-")[1]) for card in SHAMAN_CARDS},
    **{card: Card(JUNGLE) for card in JUNGLE_CARDS},
    **{card: Card(BABY) for card in BABY_CARDS},
}

# Every request a Dudab may make, in a fixed order (bots and legal_actions list them this way).
REQUESTS = (
    [("colour", c) for c in COLOURS] + [("symbol", s) for s in SYMBOLS] + [("value", v) for v in VALUES]
)


def full_deck(jungle: bool, baby: bool) -> list[str]:
    """The round's cards in a fixed order, before shuffling."""
    deck = [*NUMBER_CARDS, *DUDAB_CARDS, *SHAMAN_CARDS]
    if jungle:
        deck += JUNGLE_CARDS
    if baby:
        deck += BABY_CARDS
    return deck


def kind(card: str) -> str:
    return CARDS[card].kind


def describe(card: str) -> str:
    """A card as players say it: "red hide 3", "blue Shaman", "Dudab"."""
    info = CARDS[card]
    if info.kind == NUMBER:
        return f"{COLOUR_NAMES[info.colour]} {info.symbol} {info.value}"
    if info.kind == SHAMAN:
        return f"{COLOUR_NAMES[info.colour]} Shaman"
    return info.kind.capitalize()


def describe_request(request: tuple[str, object]) -> str:
    attribute, value = request
    if attribute == "colour":
        return f"a {COLOUR_NAMES[str(value)]} card"
    if attribute == "symbol":
        return f"a {value} card"
    return f"a {value}"


def meets(card: str, request: tuple[str, object]) -> bool:
    """Does the card answer the request? A Shaman has a colour and nothing else."""
    info = CARDS[card]
    if info.kind not in (NUMBER, SHAMAN):
        return False
    attribute, value = request
    return getattr(info, attribute) == value


def shares_attribute(card: str, other: str) -> bool:
    """The Jungle's mirror test: at least one of colour, symbol, value in common."""
    a, b = CARDS[card], CARDS[other]
    pairs = ((a.colour, b.colour), (a.symbol, b.symbol), (a.value, b.value))
    return any(x and x == y for x, y in pairs)


def parse_request(raw) -> tuple[str, object] | None:
    """A request from an action ({"colour": "R"}), None when absent; IllegalAction when malformed."""
    if raw is None:
        return None
    if isinstance(raw, dict) and len(raw) == 1:
        (attribute, value), = raw.items()
        if (attribute, value) in REQUESTS and type(value) is (int if attribute == "value" else str):
            return attribute, value
    raise IllegalAction(
        "A Dudab asks for one thing: a colour (red, blue, yellow or green), "
        "a symbol (hand, mammoth, club or hide) or a value (1 to 4)."
    )


def request_json(request: tuple[str, object] | None) -> dict | None:
    return None if request is None else {request[0]: request[1]}
