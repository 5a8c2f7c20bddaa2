"""The FIDE Dutch system for fields too large for one matching: pure functions, no Django.

dutch.py pairs a whole round with matchings that weigh every pair of the field, which costs the
cube of the field (1.2 s of CPU at 100 players, 18 s at 200). The Dutch rules themselves go one
score bracket at a time, from the top, each bracket looking only at the next one (C.04.3: pairs and
score differences in the next bracket, C.7), so a large field is paired here the same way: each
bracket, with the players moved down into it, is paired by dutch.py's matchings together with the
top AHEAD players of the next bracket, whom its floaters would meet; the pairs made inside the
bracket are kept, and whoever is left floats down into the next bracket.

A bracket of more than BRACKET players is cut into windows, as a person pairing it by hand reads
it: its top half against its bottom half, 1 v 51, 2 v 52, ... in a bracket of 100, so each window
holds a slice of the top half and the same slice of the bottom half (WINDOW of each), the players
moved down in the first window with as many of the bracket's highest players (their opponents).
Whoever a window leaves unpaired (a rematch, colours) joins the next window; the last window
looks ahead into the next bracket. What this can miss against one matching over the bracket: a
colour wish or a float granted by an exchange between windows far apart.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import replace
from typing import TYPE_CHECKING

from tournaments import dutch

if TYPE_CHECKING:
    from tournaments.swiss import Field

BRACKET = 80  # the most players of a bracket (moved-down players included) paired by one matching
WINDOW = 32  # a larger bracket's windows: this many players of its top half and as many of its bottom half
AHEAD = 12  # players of the next bracket each bracket's last matching looks at


def pair_round(players: Field) -> tuple[list[list[Hashable]], list[Hashable]] | None:
    """Two-seat tables in seat order and the bye, as dutch.pair_round, or None when the last
    bracket cannot be paired within the absolute rules."""
    rank = {p: i for i, p in enumerate(players.order)}
    groups = score_groups(players)
    opponent: dict[Hashable, Hashable] = {}
    carried: list[Hashable] = []
    for k, group in enumerate(groups):
        ahead = groups[k + 1][:AHEAD] if k + 1 < len(groups) else []
        windows = cut(carried, group)
        carried = []
        for i, window in enumerate(windows):
            current = sorted(carried + window, key=rank.__getitem__)
            last = i == len(windows) - 1
            final = last and k == len(groups) - 1
            part = current + (ahead if last else [])
            found = dutch.opponents(replace(players, order=part), carry=not final)
            if found is None:
                return None
            here = set(current)
            for p in current:
                q = found.get(p)
                if q == dutch.BYE or q in here:
                    opponent[p] = q
            carried = [p for p in current if p not in opponent]
    if carried:
        return None
    return dutch.tables_of(players, opponent)


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


def cut(moved: list[Hashable], residents: list[Hashable]) -> list[list[Hashable]]:
    """A bracket's windows: the whole bracket when it is small; otherwise slices of the top half
    of its remainder with the same slices of the bottom half, the moved-down players and their
    likely opponents (the bracket's highest) in the first."""
    if len(moved) + len(residents) <= BRACKET:
        return [moved + residents]
    top, rest = residents[: len(moved)], residents[len(moved) :]
    half = len(rest) // 2
    first, second = rest[:half], rest[half:]
    starts = range(0, half, WINDOW)
    windows = [first[start : start + WINDOW] + second[start : start + WINDOW] for start in starts] or [[]]
    windows[-1] += second[-(-half // WINDOW) * WINDOW :]  # the bottom half's odd one out
    windows[0] = moved + top + windows[0]
    return windows
