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
- empty tables of one size are interchangeable, so only one of them is tried;
- `prefer` reorders the tables tried ("emptiest" or "fullest" first, then nearest home): on hard
  fields one order often decides in a few hundred placements what another cannot in 300,000,
  so callers give each order a share of their budget in turn (swiss_pairing.repair).

It is complete: it returns a seating without a rematch whenever one exists, None when it proved
there is none, and raises OutOfBudget when it placed `budget` players without deciding either
way (the caller's fallback then applies).
Pure Python, no Django; recursion depth is the number of players, so callers keep groups to a
few hundred.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence

PREFERENCES = ("home", "emptiest", "fullest")  # the order tables are tried in, see the module's docstring


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
    budget: int = 10**6,
    prefer: str = "home",
) -> list[list[Hashable]] | None:
    """Tables of `sizes` (in that order) for `group` with no two players who met at one table,
    None if there are none; each table lists its players in `group` order. `home` gives each
    player's preferred table index (default: standings order, table by table)."""
    if sum(sizes) != len(group):
        raise ValueError("the tables must seat exactly the group")
    if prefer not in PREFERENCES:
        raise ValueError(f"prefer is one of {', '.join(PREFERENCES)}")
    search = _Search(group, sizes, graph, home, budget, prefer)
    return search.tables() if search.solve() else None


class _Search:
    """The search's state, kept up to date as players sit down and stand up again (last in,
    first out), so that choosing the next player and checking ahead cost little per step."""

    def __init__(self, group, sizes, graph, home, budget, prefer="home"):
        index = {p: i for i, p in enumerate(group)}
        n = len(group)
        self.group, self.sizes, self.budget, self.prefer = list(group), list(sizes), budget, prefer
        self.neighbours = [[(index[q], times) for q, times in graph.get(p, {}).items() if q in index] for p in group]
        if home is None:
            starts = [t for t, size in enumerate(sizes) for _ in range(size)]
            home = {p: starts[i] for i, p in enumerate(group)}
        self.preferred = [sorted(range(len(sizes)), key=lambda t, h=home[p]: (abs(t - h), t)) for p in group]
        by_degree = sorted(range(n), key=lambda i: (len(self.neighbours[i]), -i))
        self.tie = [0] * n  # among equally constrained players: most players met, then standings order
        for rank, i in enumerate(by_degree):
            self.tie[i] = rank
        self.room, self.members = list(sizes), [[] for _ in sizes]
        self.table_of = [-1] * n
        self.clash: list[dict[int, float]] = [{} for _ in group]  # player -> {table: repeats if seated there}
        self.blocked = [0] * n  # open tables where a player met someone already seated
        self.barred = [0] * len(sizes)  # standing players who met someone seated at the table
        self.key = [self.tie[i] for i in range(n)]  # blocked * n + tie; -1 once seated
        self.open_tables, self.standing = sum(1 for size in sizes if size), n

    def tables(self) -> list[list[Hashable]]:
        return [[self.group[i] for i in sorted(members)] for members in self.members]

    def solve(self) -> bool:
        if self.standing == 0:
            return True
        n = len(self.group)
        player = max(range(n), key=self.key.__getitem__)
        if self.blocked[player] >= self.open_tables:
            return False  # forward check: this player has no table left
        if any(room and self.standing - barred < room for room, barred in zip(self.room, self.barred, strict=True)):
            return False  # forward check: a table cannot be filled any more
        for t in self.options(player):
            self.budget -= 1
            if self.budget < 0:
                raise OutOfBudget
            self.sit(player, t)
            if self.solve():
                return True
            self.stand(player, t)
        return False

    def options(self, player: int) -> list[int]:
        """Tables the player may take, nearest their home table first (after the emptiest or
        fullest with `prefer`); of the empty tables of one size only the first (the others would
        repeat the same seatings)."""
        clash, tried_empty, chosen = self.clash[player], set(), []
        for t in self.preferred[player]:
            if not self.room[t] or clash.get(t, 0):
                continue
            if self.room[t] == self.sizes[t]:
                if self.sizes[t] in tried_empty:
                    continue
                tried_empty.add(self.sizes[t])
            chosen.append(t)
        if self.prefer != "home":
            chosen.sort(key=lambda t: self.room[t] if self.prefer == "fullest" else -self.room[t])
        return chosen

    def sit(self, player: int, t: int) -> None:
        n = len(self.group)
        self.table_of[player], self.key[player] = t, -1
        self.standing -= 1
        for u, repeats in self.clash[player].items():
            if repeats:
                self.barred[u] -= 1
        self.room[t] -= 1
        if not self.room[t]:  # the table closes: it no longer blocks anyone
            self.open_tables -= 1
            for q in self.clashing_at(t):
                self.blocked[q] -= 1
                self.key[q] -= n
        self.members[t].append(player)
        for q, times in self.neighbours[player]:
            before = self.clash[q].get(t, 0)
            self.clash[q][t] = before + times
            if not before and self.table_of[q] < 0:
                self.barred[t] += 1
                if self.room[t]:
                    self.blocked[q] += 1
                    self.key[q] += n

    def stand(self, player: int, t: int) -> None:
        """Exactly undo `sit(player, t)`, the last seating made."""
        n = len(self.group)
        for q, times in self.neighbours[player]:
            after = self.clash[q][t] - times
            if after:
                self.clash[q][t] = after
            else:
                del self.clash[q][t]
                if self.table_of[q] < 0:
                    self.barred[t] -= 1
                    if self.room[t]:
                        self.blocked[q] -= 1
                        self.key[q] -= n
        self.members[t].pop()
        if not self.room[t]:
            self.open_tables += 1
            for q in self.clashing_at(t):
                self.blocked[q] += 1
                self.key[q] += n
        self.room[t] += 1
        for u, repeats in self.clash[player].items():
            if repeats:
                self.barred[u] += 1
        self.standing += 1
        self.table_of[player] = -1
        self.key[player] = self.blocked[player] * n + self.tie[player]

    def clashing_at(self, t: int) -> set[int]:
        """Standing players who met someone seated at table t."""
        return {q for member in self.members[t] for q, _ in self.neighbours[member] if self.table_of[q] < 0}
