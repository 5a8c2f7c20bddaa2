"""The 55 cards: lines of the projective plane of order 7.

The rule document speaks of 50 symbols, but 55 cards of 8 symbols in which
every two cards share exactly one symbol cannot be made from 50: the 55 * 8 =
440 places are shared by the symbols, so with 50 symbols one of them is on at
least 9 cards; those cards share only that symbol, so their other 7 * 9 symbols
are all different and 64 symbols are needed. The same count shows that at least
56 symbols are needed; the order-7 plane has 57.

We build that plane over the integers mod 7 and keep 55 of its 57 lines: the
vertical line x = 6 and the line at infinity are left out, so the symbol where
they meet (id 56) is on 6 cards, the 14 other symbols of those two lines on 7,
and the other 42 on 8.

Symbol ids: affine point (x, y) is 7x + y (0-48), the point at infinity of slope
m is 49 + m (49-55) and the vertical direction is 56. Card ids are the positions
in CARDS (0-54); the seed only shuffles the order in which they are dealt.
"""

from __future__ import annotations

ORDER = 7
SYMBOL_COUNT = ORDER * ORDER + ORDER + 1  # 57
CARD_COUNT = 55
SYMBOLS_PER_CARD = ORDER + 1

# fmt: off
SYMBOL_NAMES: tuple[str, ...] = (
    "anchor", "apple", "baby bottle", "bird", "bomb", "cactus", "candle", "carrot",
    "cat", "cheese", "chess pawn", "clock", "clown", "daisy", "dinosaur", "dog",
    "dolphin", "dragon", "exclamation mark", "eye", "fire", "four-leaf clover", "ghost", "hammer",
    "heart", "ice cube", "hut", "key", "ladybird", "light bulb", "lightning", "lips",
    "lock", "maple leaf", "moon", "no entry", "pencil", "question mark", "scissors", "skull",
    "snowflake", "snowman", "spider", "spider web", "splash", "sun", "sunglasses", "target",
    "taxi", "tortoise", "treble clef", "tree", "water drop", "yin yang", "zebra", "feather",
    "rabbit",
)
# fmt: on


def _plane_lines() -> list[tuple[int, ...]]:
    """All 57 lines of the plane, each a sorted tuple of 8 symbol ids."""
    lines = []
    for slope in range(ORDER):
        for intercept in range(ORDER):
            points = [ORDER * x + (slope * x + intercept) % ORDER for x in range(ORDER)]
            lines.append(tuple(sorted(points + [ORDER * ORDER + slope])))
    for x in range(ORDER):
        lines.append(tuple(sorted([ORDER * x + y for y in range(ORDER)] + [SYMBOL_COUNT - 1])))
    lines.append(tuple(range(ORDER * ORDER, SYMBOL_COUNT)))
    return lines


CARDS: tuple[tuple[int, ...], ...] = tuple(_plane_lines()[:CARD_COUNT])

# SHARED[a][b]: the one symbol cards a and b have in common (-1 when a == b).
SHARED: tuple[tuple[int, ...], ...] = tuple(
    tuple(-1 if a == b else next(iter(set(CARDS[a]) & set(CARDS[b]))) for b in range(CARD_COUNT))
    for a in range(CARD_COUNT)
)


def card_view(card: int) -> dict:
    """A face-up card as views show it: its id and its 8 symbol ids."""
    return {"card": card, "symbols": list(CARDS[card])}
