"""A complete search for multi-seat tables without rematches (docs/tournaments.md, "Swiss pairing").

Seating players at tables of given sizes so that no two who met sit together is colouring the
"has met" graph with one colour per table, each colour used exactly as often as its table has
seats. The search is depth-first over players:

- most constrained player first: the fewest tables left where they could sit, then the most
  players met (DSATUR, as in graph colouring);
- each player tried at their home table first (where the local search seated them, so score
  groups stay together), then at the tables nearest to it;
- forward checking after every placement: each player still standing must have a table left,
  and each table with empty seats must have as many players left who may sit there;
- empty tables of one size are interchangeable, so only one of them is tried.

It is complete: it returns a seating whose repeats (a pair counted once per meeting) are at most
`allowance` whenever one exists, None when it proved there is none, and raises OutOfBudget when
it placed `budget` players without deciding either way (the caller's fallback then applies).
Pure Python, no Django; recursion depth is the number of players, so callers keep groups to a
few hundred.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence


class OutOfBudget(Exception):
    """The search placed its budget of players without finding a seating or proving there is none."""


def met_graph(met: Counter, group: Sequence[Hashable]) -> dict[Hashable, dict[Hashable, float]]:
    """Who met whom among `group`, and how often: player -> {player met: times}."""
    inside = set(group)
    graph: dict[Hashable, dict[Hashable, float]] = {p: {} for p in group}
    for pair, times in met.items():
        if times > 0 and len(pair) == 2 and pair <= inside:
            a, b = tuple(pair)
            graph[a][b] = graph[b][a] = times
    return graph


def seat_without_rematches(
    group: Sequence[Hashable],
    sizes: Sequence[int],
    graph: dict[Hashable, dict[Hashable, float]],
    home: dict[Hashable, int] | None = None,
    allowance: float = 0,
    budget: int = 10**6,
) -> list[list[Hashable]] | None:
    """Tables of `sizes` (in that order) for `group` with at most `allowance` repeats, None if
    there are none; each table lists its players in `group` order. `home` gives each player's
    preferred table index (default: standings order, table by table)."""
    if sum(sizes) != len(group):
        raise ValueError("the tables must seat exactly the group")
    search = _Search(group, sizes, graph, home, budget)
    return search.tables() if search.solve(len(group), allowance) else None


class _Search:
    def __init__(self, group, sizes, graph, home, budget):
        index = {p: i for i, p in enumerate(group)}
        self.group, self.sizes, self.budget = list(group), list(sizes), budget
        self.neighbours = [[(index[q], times) for q, times in graph.get(p, {}).items() if q in index] for p in group]
        if home is None:
            starts = [t for t, size in enumerate(sizes) for _ in range(size)]
            home = {p: starts[i] for i, p in enumerate(group)}
        self.home = [home[p] for p in group]
        self.room = list(sizes)
        self.table_of = [-1] * len(group)
        self.clash: list[dict[int, float]] = [{} for _ in group]  # player -> {table: repeats if seated there}

    def tables(self) -> list[list[Hashable]]:
        seated: list[list[Hashable]] = [[] for _ in self.sizes]
        for i, t in enumerate(self.table_of):
            seated[t].append(self.group[i])
        return seated

    def solve(self, standing: int, left: float) -> bool:
        if standing == 0:
            return True
        player = self.most_constrained(standing, left)
        if player is None:
            return False
        for t in self.options(player, left):
            self.budget -= 1
            if self.budget < 0:
                raise OutOfBudget
            repeats = self.clash[player].get(t, 0)
            self.seat(player, t, +1)
            if self.solve(standing - 1, left - repeats):
                return True
            self.seat(player, t, -1)
        return False

    def most_constrained(self, standing: int, left: float) -> int | None:
        """The player with the fewest tables left, or None when forward checking fails: someone
        has no table, a table cannot be filled, or the repeats still to come exceed `left`."""
        open_tables = sum(1 for r in self.room if r)
        barred = [0] * len(self.sizes)  # standing players who may not sit at each table
        best, best_key, floor = None, None, 0.0
        for i, t in enumerate(self.table_of):
            if t >= 0:
                continue
            blocked, clashing, cheapest = 0, 0, None
            for u, repeats in self.clash[i].items():
                if self.room[u] and repeats:
                    clashing += 1
                    cheapest = repeats if cheapest is None else min(cheapest, repeats)
                    if repeats > left:
                        blocked += 1
                        barred[u] += 1
            free = open_tables - blocked
            if free == 0:
                return None
            if clashing == open_tables:
                floor += cheapest  # every table left costs this player a repeat
            key = (free, -len(self.neighbours[i]), i)
            if best_key is None or key < best_key:
                best, best_key = i, key
        if floor > left:
            return None
        if any(r and standing - barred[t] < r for t, r in enumerate(self.room)):
            return None
        return best

    def options(self, player: int, left: float) -> list[int]:
        """Tables the player may take, fewest repeats then nearest their home table; of the
        empty tables of one size only the first (the others would repeat the same seatings)."""
        clash, home = self.clash[player], self.home[player]
        allowed = [t for t, r in enumerate(self.room) if r and clash.get(t, 0) <= left]
        allowed.sort(key=lambda t: (clash.get(t, 0), abs(t - home), t))
        tried_empty: set[int] = set()
        chosen = []
        for t in allowed:
            if self.room[t] == self.sizes[t]:
                if self.sizes[t] in tried_empty:
                    continue
                tried_empty.add(self.sizes[t])
            chosen.append(t)
        return chosen

    def seat(self, player: int, t: int, step: int) -> None:
        """Seat the player at table t (step +1) or stand them up again (step -1)."""
        self.table_of[player] = t if step > 0 else -1
        self.room[t] -= step
        for other, times in self.neighbours[player]:
            clash = self.clash[other]
            clash[t] = clash.get(t, 0) + step * times
            if not clash[t]:
                del clash[t]
