"""Two-seat Swiss rounds by the FIDE Dutch system (C.04.3): pure functions, no Django.

Who moves first plays the part of White. The rules, in FIDE's order (docs/tournaments.md,
"Swiss pairing"):

- absolute: no rematch, no forbidden pair, no second bye, and no two players who must both
  move first (or both second) at one table, unless one of them leads the field in the last round;
- the bye to a player of the lowest score that leaves a complete pairing (bbpPairings weighs it so,
  above the brackets: a higher bracket floats more players rather than push the bye up a score);
- score brackets from the top: as many pairs as possible in each, the highest scores floating down
  first, then the next bracket's pairs, then colours (both players' wishes, the strong ones first),
  then floats (nobody floats down, or up, again in the direction they floated in the last two rounds);
- then the order of the bracket: its top half against its bottom half (1 v 5, 2 v 6, ...), a
  player moved down meets the highest player of the bracket, and the lowest float on.

The whole round is one maximum-weight matching (networkx): each pair's weight is one integer
whose bit fields hold these rules, each bracket's rules above the next bracket's, so comparing
sums compares the pairings rule by rule. The order of each bracket needs its halves, which are
known once the matching has decided who floats: a first matching decides that, the next one,
with the order added below everything else, may move a floater and so another bracket's
halves, so matchings follow until the halves stay put (at most SETTLE more).
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import networkx as nx

if TYPE_CHECKING:
    from tournaments.swiss_pairing import Field

FIRST, SECOND = "w", "b"  # who moves first is White
BYE = "bye"
SETTLE = 4  # matchings after the first, each ordering the brackets as the last one split them


@dataclass(frozen=True)
class Wish:
    """A player's colour preference (C.04.3 A.6): which seat, and how strongly: 3 absolute (a
    difference of 2, or the same seat twice in a row), 2 strong (a difference of 1), 1 mild,
    0 none (no game yet)."""

    seat: str | None
    strength: int
    imbalance: int  # |games moving first - games moving second|

    @property
    def absolute(self) -> bool:
        return self.strength == 3


def wish(colours: str) -> Wish:
    """The wish of a player whose played games, oldest first, moved first ('w') or second ('b')."""
    if not colours:
        return Wish(None, 0, 0)
    difference = colours.count(FIRST) - colours.count(SECOND)
    fewer = SECOND if difference > 0 else FIRST
    other = SECOND if colours[-1] == FIRST else FIRST
    twice = len(colours) > 1 and colours[-1] == colours[-2]
    if abs(difference) > 1:
        return Wish(fewer, 3, abs(difference))
    if twice:
        return Wish(other, 3, abs(difference))
    if difference:
        return Wish(fewer, 2, 1)
    return Wish(other, 1, 0)


class Weights:
    """Bit fields of the pair weights, each bracket's rules above the next bracket's."""

    def __init__(self, players: Field, halves: dict | None = None):
        self.players = players
        self.order = list(players.order)
        self.rank = {p: i for i, p in enumerate(self.order)}
        scores = sorted({players.score.get(p, 0.0) for p in self.order}, reverse=True)
        self.group = {p: scores.index(players.score.get(p, 0.0)) for p in self.order}
        self.sizes = [0] * len(scores)
        self.members: list[list[Hashable]] = [[] for _ in scores]
        for p in self.order:
            self.sizes[self.group[p]] += 1
            self.members[self.group[p]].append(p)
        self.within = {p: group.index(p) for group in self.members for p in group}
        self.wishes = {p: wish(players.colours.get(p, "")) for p in self.order}
        self.halves = halves or {}
        self.offsets: dict[tuple, int] = {}
        self._lay_out(len(scores))

    def _lay_out(self, groups: int) -> None:
        """Fields from the least significant up: bracket k decides P_k, S_k, P_k+1, S_k+1, C_k,
        F_k, O_k before bracket k+1 looks at anything below, hence this interleaving."""
        n = len(self.order) + 2
        bits = n.bit_length() + 1
        plan: list[tuple] = []  # most significant first
        plan += [("P", 0), ("S", 0)]
        for k in range(groups):
            if k + 1 < groups:
                plan += [("P", k + 1), ("S", k + 1)]
            plan += [("C", k, c) for c in range(4)] + [("F", k, f) for f in range(4)]
            plan += [("M", k), ("O", k)]
        width = {"P": bits, "C": bits, "F": bits + 1}
        offset = 0
        for key in reversed(plan):
            self.offsets[key] = offset
            if key[0] == "S":
                offset += sum(max(2, (self.sizes[h] + 1).bit_length() + 1) for h in range(key[1] + 1))
            elif key[0] == "M":
                moved = len(self.halves[key[1]][2]) if key[1] in self.halves else 0
                offset += (self.sizes[key[1]] + 1).bit_length() * (moved + 1) + bits
            elif key[0] == "O":
                digit = (self.sizes[key[1]] + 1).bit_length()
                offset += self.sizes[key[1]] * digit + 3 * digit + 2
            else:
                offset += width[key[0]]
        self.total = offset

    def field(self, key: tuple, value: int) -> int:
        return value << self.offsets[key]

    def pair_weight(self, a: Hashable, b: Hashable) -> int:
        """The weight of a meeting b, a placed above b."""
        k, h = self.group[b], self.group[a]
        weight = self.field(("P", k), 1)
        below = sum(max(2, (self.sizes[g] + 1).bit_length() + 1) for g in range(h + 1, k + 1))
        weight += 1 << (self.offsets[("S", k)] + below)  # a higher floater paired outweighs all lower
        weight += self.colour_fields(k, a, b)
        weight += self.float_fields(k, a, b)
        weight += self.order_fields(k, a, b)
        return weight + 1

    def colour_fields(self, k: int, a: Hashable, b: Hashable) -> int:
        wa, wb = self.wishes[a], self.wishes[b]
        same = wa.seat is not None and wa.seat == wb.seat
        strong_a, strong_b = wa.strength >= 2, wb.strength >= 2
        digits = (
            not (same and wa.imbalance > 1 and wb.imbalance > 1),
            not (same and wa.absolute and wb.absolute),
            not same,
            not (same and strong_a and strong_b and not (wa.absolute and wb.absolute)),
        )
        return sum(self.field(("C", k, c), int(d)) for c, d in enumerate(digits))

    def float_fields(self, k: int, a: Hashable, b: Hashable) -> int:
        floats = self.players.floats
        resident = self.group[a] == self.group[b]
        total = 0
        for back in (0, 1):
            fa, fb = floats.get(a, "  ")[back], floats.get(b, "  ")[back]
            stays = (fb == "D") + (resident and fa == "D")  # a past downfloater kept in their group
            not_up_again = not (not resident and fb == "U")
            total += self.field(("F", k, 2 * back), stays) + self.field(("F", k, 2 * back + 1), int(not_up_again))
        return total

    def order_fields(self, k: int, a: Hashable, b: Hashable) -> int:
        """A moved-down player meets the highest of the bracket (the higher moved-down player
        first). The rest of the bracket (its remainder) is cut into a top half S1 and the others:
        the most pairs led by an S1 player (the fewest exchanges), then pairs led by the highest
        players of the remainder (the smallest exchanges); then
        each S1 player, from the top, meets the highest player it can; the lowest float on."""
        size = self.sizes[k]
        j = self.within[b]
        if self.group[a] != k:
            moved = self.halves[k][2] if k in self.halves else {}
            digit = (size + 1).bit_length()
            lead = len(moved) - moved[a] if a in moved else 0  # the highest moved-down player chooses first
            return self.field(("M", k), (size - j + 1) << (digit * lead))
        if k not in self.halves:
            return 0
        remainder, top, _ = self.halves[k]
        place = remainder.get(a)
        if place is None:
            return 0
        digit = (size + 1).bit_length()
        base = self.offsets[("O", k)]
        led = ((int(place < top) << (2 * digit)) + size - place) << (base + digit * size)
        zig = (size - j) << (base + digit * (size - 1 - place))
        return zig + led


def compatible(players: Field, wishes: dict[Hashable, Wish], a: Hashable, b: Hashable) -> bool:
    """The absolute criteria: never met, not forbidden, not both bound to the same seat (a
    leader of the last round excepted: more than half the points played for)."""
    key = frozenset((a, b))
    if players.met.get(key, 0) or key in players.forbidden:
        return False
    wa, wb = wishes[a], wishes[b]
    if wa.absolute and wb.absolute and wa.seat == wb.seat:
        return players.final_round and max(players.score.get(a, 0.0), players.score.get(b, 0.0)) > players.played / 2
    return True


def matching(
    players: Field, weights: Weights, carry: bool = False, apart: frozenset = frozenset()
) -> dict[Hashable, Hashable] | None:
    """Everyone's opponent (BYE for the bye), or None when no pairing keeps the absolute rules.
    With `carry` (a part of a large field, dutch_brackets.py) nobody gets the bye: whoever is
    left unpaired has no opponent and is paired further down; no two players of `apart` meet."""
    graph = nx.Graph()
    order = weights.order
    graph.add_nodes_from(order)
    for i, a in enumerate(order):
        for b in order[i + 1 :]:
            if compatible(players, weights.wishes, a, b) and not (a in apart and b in apart):
                graph.add_edge(a, b, weight=weights.pair_weight(a, b))
    if len(order) % 2 and not carry:
        for a in order:
            if a not in players.had_bye:  # the lowest score that can take it, above every rule of the brackets
                graph.add_edge(a, BYE, weight=(weights.group[a] + 1) << weights.total)
    found = nx.max_weight_matching(graph, maxcardinality=not carry)
    if 2 * len(found) < len(order) and not carry:
        return None
    opponent = {}
    for a, b in found:
        opponent[a], opponent[b] = b, a
    return opponent


def halves(weights: Weights, opponent: dict) -> dict[int, tuple[dict, int, dict]]:
    """For each bracket, as the last matching left it: its remainder (the residents not meeting a
    moved-down player, each with its place), the size of its top half (the remainder's pairs),
    and its moved-down players, each with its place."""
    result = {}
    for k, members in enumerate(weights.members):
        rest = [p for p in members if opponent.get(p, BYE) == BYE or weights.group[opponent[p]] >= k]
        pairs = sum(1 for p in rest if opponent.get(p, BYE) != BYE and weights.group[opponent[p]] == k) // 2
        moved = sorted((opponent[p] for p in members if p not in rest), key=weights.rank.get)
        result[k] = ({p: place for place, p in enumerate(rest)}, pairs, {p: place for place, p in enumerate(moved)})
    return result


def pair_in_one_matching(players: Field) -> tuple[list[list[Hashable]], list[Hashable]] | None:
    """Two-seat tables in seat order and the bye, or None when the absolute rules allow no round."""
    opponent = opponents(players)
    return None if opponent is None else tables_of(players, opponent)


def tables_of(players: Field, opponent: dict) -> tuple[list[list[Hashable]], list[Hashable]]:
    """The tables of an opponent map, in standings order, each in seat order, and the bye."""
    tables, byes, seen = [], [], set()
    for p in players.order:
        if p in seen:
            continue
        other = opponent[p]
        if other == BYE:
            byes.append(p)
            continue
        seen |= {p, other}
        tables.append(who_sits_first(players, p, other))
    return tables, byes


def opponents(players: Field, carry: bool = False, apart: frozenset = frozenset()) -> dict[Hashable, Hashable] | None:
    """The matchings of the module's docstring, until each bracket's halves stay put."""
    weights = Weights(players)
    opponent = matching(players, weights, carry, apart)
    if opponent is None:
        return None
    for _ in range(SETTLE):
        split = halves(weights, opponent)
        if split == weights.halves:
            break
        weights = Weights(players, halves=split)
        opponent = matching(players, weights, carry, apart)
        assert opponent is not None  # the same graph as the first matching's
    return opponent


def who_sits_first(players: Field, higher: Hashable, lower: Hashable) -> list[Hashable]:
    """Who moves first (C.04.3 E): both wishes granted; else the stronger wish (the wider
    difference among absolute ones); else the seats swapped from the last game in which the two
    sat differently; else the higher-ranked player's wish; else, nobody having a wish, the
    higher-ranked player moves first on an odd pairing number."""
    wh, wl = wish(players.colours.get(higher, "")), wish(players.colours.get(lower, ""))
    seat = _seat_of_higher(players, higher, lower, wh, wl)
    return [higher, lower] if seat == FIRST else [lower, higher]


def _seat_of_higher(players: Field, higher, lower, wh: Wish, wl: Wish) -> str:
    flip = {FIRST: SECOND, SECOND: FIRST}
    if wh.seat != wl.seat or wh.seat is None:
        if wh.seat is not None:
            return wh.seat
        if wl.seat is not None:
            return flip[wl.seat]
        return FIRST if players.numbers.get(higher, players.order.index(higher) + 1) % 2 else SECOND
    if wh.absolute and (wh.imbalance > wl.imbalance or not wl.absolute):
        return wh.seat
    if wl.absolute and (wl.imbalance > wh.imbalance or not wh.absolute):
        return flip[wl.seat]
    if wh.strength == 2 and wl.strength != 2:
        return wh.seat
    if wl.strength == 2 and wh.strength != 2:
        return flip[wl.seat]
    mine_back, theirs_back = reversed(players.colours.get(higher, "")), reversed(players.colours.get(lower, ""))
    for mine, theirs in zip(mine_back, theirs_back, strict=False):
        if mine != theirs:
            return theirs
    return wh.seat
