"""Columns on the table and which card may go where.

A column keeps every physical card, bottom first. Cards under a Baby are
invisible (`visible_from`); a Jungle card lies sideways at `jungle_at`, and the
cards after it mirror the cards before it. `request` is the request of a Dudab
lying on top, None for any other top card and for a Dudab that asks nothing
(a starting Dudab, a Dudab below a Jungle, a Dudab covering a Baby).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.dudab.cards import (
    CARDS,
    COLOUR_NAMES,
    DUDAB,
    NUMBER,
    SHAMAN,
    describe,
    describe_request,
    meets,
    shares_attribute,
)

COLUMN_LIMIT = 5  # the sixth visible card collects the column


@dataclass(slots=True)
class Column:
    cards: list[str]
    visible_from: int = 0
    jungle_at: int = -1
    request: tuple[str, object] | None = None

    def copy(self) -> Column:
        return Column(list(self.cards), self.visible_from, self.jungle_at, self.request)

    def above(self) -> int:
        """Visible cards before the Jungle card."""
        return self.jungle_at - self.visible_from

    def below(self) -> int:
        """Cards after the Jungle card."""
        return len(self.cards) - self.jungle_at - 1

    def under_jungle(self) -> bool:
        """The next card goes below the Jungle and stays: it must mirror a card above."""
        return self.jungle_at >= 0 and self.below() < self.above()

    def collects_next(self) -> bool:
        """The next card collects the column: the sixth visible one, or one more below a Jungle than above."""
        if self.jungle_at >= 0:
            return self.below() == self.above()
        return len(self.cards) - self.visible_from == COLUMN_LIMIT

    def put(self, card: str, request: tuple[str, object] | None) -> list[str]:
        """Lay the card on the column; the cards it collects (it then starts the column alone)."""
        collected: list[str] = []
        if self.collects_next():
            collected, self.cards = self.cards, [card]
            self.visible_from, self.jungle_at = 0, -1
        else:
            self.cards.append(card)
        self.request = request
        return collected

    def add_jungle(self, card: str) -> None:
        """Sideways on the last card; a pending request of a covered Dudab ends."""
        self.jungle_at = len(self.cards)
        self.cards.append(card)
        self.request = None

    def add_baby(self, baby: str, cover: str) -> None:
        """Everything under the Baby becomes invisible; the cover card starts the visible column."""
        self.cards += [baby, cover]
        self.visible_from = len(self.cards) - 1
        self.jungle_at = -1
        self.request = None

    def json(self) -> dict:
        visible = self.cards[self.visible_from:]
        return {
            "cards": visible,
            "hidden": self.visible_from,
            "jungle_at": self.jungle_at - self.visible_from if self.jungle_at >= 0 else None,
            "request": None if self.request is None else {self.request[0]: self.request[1]},
        }


def placement_problem(column: Column, card: str, request: tuple[str, object] | None) -> str | None:
    """Why the card may not go on this column (None when it may); the caller checks table-wide limits."""
    kind = CARDS[card].kind
    if kind not in (NUMBER, SHAMAN, DUDAB):
        return f"A {describe(card)} card is never played from the hand."
    under = column.under_jungle()
    if kind == DUDAB:
        if under and request is not None:
            return "A Dudab played below a Jungle card asks for nothing."
        if not under and request is None:
            return "A Dudab must ask for a colour, a symbol or a value."
        return None
    if request is not None:
        return "Only a Dudab makes a request."
    if under:
        mirrored = column.cards[column.jungle_at - column.below() - 1]
        problem = mirror_problem(mirrored, card)
        if problem or column.below() == 0:
            return problem  # the first card below lies on the Jungle card itself: only the mirror binds it
    return follow_problem(column.cards[-1], column.request, card)


@cache  # pure in its card ids: legal_actions asks the same questions again and again
def mirror_problem(mirrored: str, card: str) -> str | None:
    """Below a Jungle: like the equidistant card above (a Dudab may stand in for any card)."""
    mirrored_kind, kind = CARDS[mirrored].kind, CARDS[card].kind
    if mirrored_kind == DUDAB:
        return "Opposite a Dudab above the Jungle card only a Dudab may be played."
    if mirrored_kind == SHAMAN:
        if kind == SHAMAN:
            return None
        return "Opposite a Shaman above the Jungle card only a Shaman or a Dudab may be played."
    if shares_attribute(mirrored, card):
        return None
    return (
        "Below the Jungle card this card must share a colour, symbol or value "
        f"with the {describe(mirrored)} opposite it."
    )


@cache
def follow_problem(top: str, top_request: tuple[str, object] | None, card: str) -> str | None:
    """The base placement rule for a number card or a Shaman on the column's top card."""
    top_info, info = CARDS[top], CARDS[card]
    if top_info.kind == DUDAB:
        if top_request is None or meets(card, top_request):
            return None
        return f"The Dudab on this column asks for {describe_request(top_request)}."
    if top_info.kind == SHAMAN:
        if info.kind == SHAMAN or info.colour == top_info.colour:
            return None
        return f"Only a {COLOUR_NAMES[top_info.colour]} card or another Shaman may go on the {describe(top)}."
    if info.kind == SHAMAN:
        if info.colour == top_info.colour:
            return None
        return f"A Shaman goes only on a number card of its own colour, not on the {describe(top)}."
    one_apart = abs(info.value - top_info.value) == 1
    if one_apart and info.colour != top_info.colour and info.symbol != top_info.symbol:
        return None
    neighbours = " or ".join(str(v) for v in (top_info.value - 1, top_info.value + 1) if 1 <= v <= 4)
    return f"On the {describe(top)} you can only play a {neighbours} of another colour and another symbol."
