"""The FIDE Dutch system for fields too large for one matching: pure functions, no Django.

dutch.py pairs a whole round with matchings that weigh every pair of the field, which costs the
cube of the field (1.2 s of CPU at 100 players, 18 s at 200). The Dutch rules themselves go one
score bracket at a time, from the top, each bracket looking only at the next one (C.04.3: pairs and
score differences in the next bracket, C.7), so a large field is paired here the same way: each
bracket, with the players moved down into it, is paired by dutch.py's matchings together with the
top AHEAD players of the next bracket, whom its floaters would meet (all the field below, and the
bye, once that is no more than AHEAD players); the pairs made inside the bracket are kept, and
whoever is left floats down into the next bracket.

A bracket of more than BRACKET players is read as a person pairing it by hand reads it, its top
half against its bottom half (1 v 51, 2 v 52, ... in a bracket of 100). The players moved down into
it are paired first (`settle_moved`), the highest first, each with the highest resident it can
while the bracket's fewest refused colour wishes, then strong ones, stay reachable (counted over the
whole bracket, as one matching over it weighs them). Its top half but the last WINDOW players is
then paired in the Dutch order (`settle_top`): each from the top meets the highest of the bottom
half it can while the same counts, top half against bottom half, stay reachable, so an unavoidable
refused wish falls at the top, as one matching over the bracket puts it. The rest is cut into
windows: a slice of WINDOW of the top half with the next WINDOW (+ SPARE in the first) of the bottom
half (one window when it is as small as what settle_top leaves). Before the last window the bottom
half's players do not meet one another: whom a slice does not take waits for the next, as does
whoever a window leaves unpaired (a rematch); the last window looks ahead into the next bracket.
The counts read seats and strengths (and, for the moved-down players' opponents, who floated up),
not the float history of the top half: a bracket whose rematches stand in their way is left to the
windows, and either can then order it differently from one matching over the bracket
(docs/tournaments.md gives how often it pairs as bbpPairings does).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from tournaments import dutch

if TYPE_CHECKING:
    from tournaments.swiss_pairing import Field

BRACKET = 80  # the most players of a bracket (moved-down players included) paired by one matching
WINDOW = 32  # a larger bracket's windows: this many players of its top half, as many of its bottom half
SPARE = 16  # and this many more of the bottom half, for the colours and floats an exchange settles
AHEAD = 12  # players of the next bracket each bracket's last matching looks at


def pair_bracket_by_bracket(players: Field) -> tuple[list[list[Hashable]], list[Hashable]] | None:
    """Two-seat tables in seat order and the bye, as dutch.pair_in_one_matching, or None when the last
    bracket cannot be paired within the absolute rules."""
    rank = {p: i for i, p in enumerate(players.order)}
    groups = score_groups(players)
    opponent: dict[Hashable, Hashable] = {}
    carried: list[Hashable] = []
    before = []  # each bracket's start: who was moved into it and the pairs made above it
    below = len(players.order)
    for k, group in enumerate(groups):
        before.append((list(carried), dict(opponent)))
        below -= len(group)
        # The brackets below all within sight: the last matching is the round's end, bye included.
        final = below <= AHEAD
        ahead = [p for lower in groups[k + 1 :] for p in lower] if final else groups[k + 1][:AHEAD]
        if carried and len(carried) + len(group) > BRACKET:
            group, carried = settle_moved(players, carried, group, opponent)
        if not carried:
            group = settle_top(players, group, opponent)
        carried = pair_bracket(players, rank, carried, group, ahead, final, opponent)
        if carried is None:
            break
    if carried == []:
        return dutch.tables_of(players, opponent)
    return pair_bottom(players, groups, before)


def pair_bottom(players: Field, groups: list, before: list) -> tuple[list[list[Hashable]], list[Hashable]] | None:
    """When the last brackets leave someone unpaired (rematches at the bottom of a late round): the
    lowest brackets again as one matching over them all (dutch.py, as a field up to BRACKET players
    is paired), from the bracket that failed (the last but one, when the last failed alone) up
    while that many players fit; None when none pairs them."""
    for k in range(min(len(before) - 1, len(groups) - 2), -1, -1):
        moved, opponent = before[k]
        rest = moved + [p for group in groups[k:] for p in group]
        if len(rest) > BRACKET:
            return None
        found = dutch.opponents(replace(players, order=rest))
        if found is not None:
            return dutch.tables_of(players, {**opponent, **found})
    return None


def pair_bracket(players: Field, rank: dict, moved: list, residents: list, ahead: list, final: bool, opponent: dict):
    """One bracket's pairs (and the bye, if it falls there) into `opponent`, window by window
    (see the module's docstring); returns who floats down, or None when the round cannot be
    completed. `final`: `ahead` is all the field below, so the last window's matching pairs
    everyone and gives the bye (C.04.3's completion; the bye receiver floats down to the bottom)
    rather than leaving whoever pairs worst to float into brackets that cannot take them."""
    leftover: list[Hashable] = []
    for members, bottom, last in windows(moved, residents):
        current = sorted(leftover + members, key=rank.__getitem__)
        part = current + (ahead if last else [])
        # Before the last window the bottom half's players do not meet one another: those the
        # top half's slice does not take wait for the next slice, as a person pairing by hand leaves them.
        apart = frozenset() if last else frozenset(p for p in current if p in bottom)
        found = dutch.opponents(replace(players, order=part), carry=not (final and last), apart=apart)
        if found is None:
            return None
        here = set(current)
        for p in current:
            q = found.get(p)
            if q == dutch.BYE or q in here:
                opponent[p] = q
        leftover = [p for p in current if p not in opponent]
    return leftover


def settle_top(players: Field, residents: list[Hashable], opponent: dict) -> list[Hashable]:
    """A large bracket with nobody moved into it: its top half but the last WINDOW paired as the
    Dutch order reads, each from the top meeting the highest of the bottom half it can while the
    bracket's fewest colour wishes refused, then the fewest strong ones, stay reachable (counted:
    who wants which seat, how strongly, is left on each side); returns the players left for the
    windows (all of them when that fails, a rematch or a seat both must have in the way). An
    unavoidable refused wish thus falls where the Dutch order puts it, at the top, which windows
    paired one by one would push down."""
    half = len(residents) // 2
    if len(residents) <= BRACKET or half <= WINDOW:
        return residents
    wishes = {p: dutch.wish(players.colours.get(p, "")) for p in residents}
    kind = {p: kind_of(wishes[p]) for p in residents}
    top, bottom = Counter(kind[p] for p in residents[:half]), Counter(kind[p] for p in residents[half:])
    target, spent, found = halves_clashes(top, bottom), (0, 0), {}
    free = list(residents[half:])
    for p in residents[: half - WINDOW]:
        top[kind[p]] -= 1
        for q in free:
            if not dutch.compatible(players, wishes, p, q):
                continue
            bottom[kind[q]] -= 1
            after = plus(spent, clash(kind[p], kind[q]))
            if plus(after, halves_clashes(top, bottom)) == target:
                found[p], found[q], spent = q, p, after
                free.remove(q)
                break
            bottom[kind[q]] += 1
        else:
            return residents
    opponent.update(found)
    return [p for p in residents if p not in found]


def kind_of(wish: dutch.Wish) -> tuple[str | None, bool]:
    """What the colour counts read of a wish: the seat, and whether it is strong (or absolute)."""
    return wish.seat, wish.strength >= 2


def clash(a: tuple, b: tuple) -> tuple[int, int]:
    """A pair's refused wishes: one when both want the same seat, strong when both wishes are."""
    same = a[0] is not None and a[0] == b[0]
    return int(same), int(same and a[1] and b[1])


def plus(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return a[0] + b[0], a[1] + b[1]


def strong_pairs(pairs: int, mild: int) -> int:
    """Of `pairs` pairs wanting one seat, how many must hold two strong wishes, `mild` players
    with a mild wish for that seat being there to take part in them."""
    return max(0, pairs - mild)


def halves_clashes(top: Counter, bottom: Counter) -> tuple[int, int]:
    """The fewest pairs wanting one seat, top half against bottom half, then the fewest of them
    with two strong wishes (players without a wish of the bottom half sparing either seat)."""
    first, second = dutch.FIRST, dutch.SECOND
    tops, bottoms = (
        {seat: top[(seat, True)] + top[(seat, False)] for seat in (first, second)},
        {seat: bottom[(seat, True)] + bottom[(seat, False)] for seat in (first, second)},
    )
    excess = {first: max(0, tops[first] - bottoms[second]), second: max(0, tops[second] - bottoms[first])}
    spare = bottom[(None, False)] + bottom[(None, True)]
    best = None
    high = min(excess[first], spare)
    low = min(max(0, spare - excess[second]), high)
    mild = {seat: top[(seat, False)] + bottom[(seat, False)] for seat in (first, second)}
    # the spare players meeting first-seat wishers: the range is wider than one value only when
    # both seats have too many wishers at the top, and then (the halves differing by at most one
    # player) at most one pair is left wanting one seat: an end of the range gives the fewest strong ones
    for given in {low, high}:
        pairs = {first: excess[first] - given, second: max(0, excess[second] - (spare - given))}
        strong = sum(strong_pairs(pairs[seat], mild[seat]) for seat in pairs)
        key = (pairs[first] + pairs[second], strong)
        best = key if best is None else min(best, key)
    return best


def fewest_clashes(kinds: Counter) -> tuple[int, int]:
    """The fewest pairs wanting one seat among players with these wishes, paired in any way (one of
    an odd number floating on, from the larger side), then the fewest with two strong wishes."""
    first, second = dutch.FIRST, dutch.SECOND
    count = {seat: kinds[(seat, True)] + kinds[(seat, False)] for seat in (first, second)}
    more = first if count[first] >= count[second] else second
    surplus = count[first] + count[second] - 2 * min(count.values()) - kinds[(None, False)] - kinds[(None, True)]
    floats = sum(kinds.values()) % 2
    pairs = max(0, surplus - floats) // 2
    # the floater and the players sparing the others are the majority's strong wishers when it helps
    mild = kinds[(more, False)]
    return pairs, strong_pairs(pairs, mild)


def settle_moved(players: Field, moved: list, residents: list, opponent: dict) -> tuple[list, list]:
    """A large bracket's moved-down players, the highest first, each meeting the highest resident
    it can while the bracket's fewest refused colour wishes, then strong ones, stay reachable
    (counted over the whole bracket), a resident who floated up in the last round (then the one
    before) only when no other can; returns the residents left and the moved-down players left (all
    of them when one cannot be paired so, for the windows to pair). One matching over the bracket
    pairs them so; windows, each counting its own wishes, would not."""
    wishes = {p: dutch.wish(players.colours.get(p, "")) for p in moved + residents}
    kind = {p: kind_of(wishes[p]) for p in wishes}
    left = Counter(kind[p] for p in moved + residents)
    target, spent, found = fewest_clashes(left), (0, 0), {}
    free = list(residents)
    for p in moved:
        left[kind[p]] -= 1
        choice = None
        for avoid in ("UU", "U ", "  "):
            for q in free:
                if any(a == "U" == f for a, f in zip(avoid, players.floats.get(q, "  "), strict=False)):
                    continue
                if not dutch.compatible(players, wishes, p, q):
                    continue
                left[kind[q]] -= 1
                reachable = plus(plus(spent, clash(kind[p], kind[q])), fewest_clashes(left)) == target
                left[kind[q]] += 1
                if reachable:
                    choice = q
                    break
            if choice is not None:
                break
        if choice is None:
            return residents, moved
        left[kind[choice]] -= 1
        spent = plus(spent, clash(kind[p], kind[choice]))
        found[p], found[choice] = choice, p
        free.remove(choice)
    opponent.update(found)
    return free, []


def windows(moved: list[Hashable], residents: list[Hashable]):
    """A bracket's windows, each (players, the bracket's bottom half, whether it is the last):
    the whole bracket when small; else slices of the top half of its remainder, each with the
    next WINDOW + SPARE of the bottom half (whom it has not taken stays for the next slice), the
    moved-down players and their likely opponents (the bracket's highest) in the first."""
    if len(moved) + len(residents) <= BRACKET:
        yield moved + residents, frozenset(), True
        return
    top, rest = residents[: len(moved)], residents[len(moved) :]
    half = len(rest) // 2
    first, second = rest[:half], rest[half:]
    bottom = frozenset(second)
    if not first:
        yield moved + residents, frozenset(), True
        return
    taken = 0
    for start in range(0, half, WINDOW):
        last = start + WINDOW >= half
        share = len(second) - taken if last else WINDOW + (SPARE if start == 0 else 0)
        members = first[start : start + WINDOW] + second[taken : taken + share]
        taken += share
        yield (moved + top + members if start == 0 else members), bottom, last


def score_groups(players: Field) -> list[list[Hashable]]:
    """The field in standings order, cut where the score changes."""
    groups: list[list[Hashable]] = []
    last = None
    for p in players.order:
        score = players.score.get(p, 0.0)
        if not groups or score != last:
            groups.append([])
        groups[-1].append(p)
        last = score
    return groups
