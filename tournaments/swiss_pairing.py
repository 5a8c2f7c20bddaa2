"""Swiss pairing: pure functions, no Django (docs/tournaments.md, "Swiss pairing").

Two seats: the FIDE Dutch system up to DUTCH_BRACKETS_FIELD players (dutch.py, dutch_brackets.py).
Larger fields, and rounds whose absolute Dutch rules leave no pairing, are paired by the blocks:
one maximum-weight matching (networkx) over every possible pair, whose
weights rank the rules strictly, each one above everything below it:

1. a forbidden pair (same club, same family: set by the organizer) only when nothing else works;
2. fewest rematches (a pair that met before, counted as often as they met);
3. the bye to the lowest-ranked player who has not had one (a second bye counts as a rematch);
4. score groups kept together: a pair costs the square of how many score groups apart they are;
5. in each score group the top half meets the bottom half (1 v 5, 2 v 6, ... in a group of 8),
   and the player who floats down to a lower group is the lowest of theirs;
6. seat 0 (who moves first) can go to whoever is due it: two players due the same seat cost a little.

A field larger than BLOCK players is paired in blocks of standings order cut at score-group
borders (`blocks`), each block handing its unpaired player down to the next one, so a
10,000-player round costs a few hundred small matchings instead of one huge one (above
1,000 players: blocks of 30, each player linked only to the players near them and near their
ideal opponent; a block that is one even score group takes its top half against its bottom
half directly when no pair in it is a rematch or forbidden, see `top_against_bottom`).

Tables of 3 to 8: the seating with the fewest forbidden pairs, then the fewest rematches, then
the smallest spread of scores
at each table; exact up to EXACT players, above that standings order improved table pair by
table pair, and where that leaves a rematch, the complete search of rematch_free.py (see
`seat_tables` and `repair`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field, replace
from itertools import combinations
from random import Random

import networkx as nx

from tournaments import dutch, dutch_brackets
from tournaments.rematch_free import PREFERENCES, OutOfBudget, met_graph, seat_without_rematches

BYE = "bye"
DUTCH_FIELD = 128  # the Dutch matchings weigh every pair: 1.2 s of CPU at 100 players, 18 s at 200
# Above DUTCH_FIELD the Dutch system goes bracket by bracket (dutch_brackets.py: 0.3 to 4.6 s of CPU a
# round at 1,000 players, growing with the brackets); above DUTCH_BRACKETS_FIELD, the blocks below.
DUTCH_BRACKETS_FIELD = 2000
BLOCK = 100
# Above 1,000 players: blocks of 30 whose graphs only link likely opponents, so a round stays within seconds.
LARGE_FIELD, LARGE_FIELD_BLOCK, REACH = 1000, 30, 6
EXACT = 12  # up to this many players at multi-seat tables, every seating is weighed
# Multi-seat local search: neighbouring tables tried, random restarts, and restarts in a row
# without a lower cost after which it stops (each restart costs a full descent: seconds at tables of 8).
NEAR, KICKS, STALE = 4, 60, 8
# Complete search after the local search: players placed per search before falling back, and the
# most players one search seats (its recursion depth); larger fields search windows of tables.
SEARCH_BUDGET, SEARCH_FIELD = 90_000, 400


@dataclass
class Field:
    """What pairing needs to know about the players, best placed first."""

    order: Sequence[Hashable]
    score: dict[Hashable, float]
    met: Counter = field(default_factory=Counter)  # frozenset pair -> times they met
    had_bye: set = field(default_factory=set)
    forbidden: set = field(default_factory=set)  # frozensets
    first_seats: dict[Hashable, int] = field(default_factory=dict)  # games in seat 0 minus games in seat 1
    last_first: dict[Hashable, bool] = field(default_factory=dict)  # sat first in their last game
    # Two seats (dutch.py): each player's played games oldest first, 'w' moving first and 'b' second;
    # how they floated in the last round and the one before ('D' down, 'U' up, ' ' neither: a bye is down);
    # pairing numbers (seeds); rounds played before this one; whether this round is the last.
    colours: dict[Hashable, str] = field(default_factory=dict)
    floats: dict[Hashable, str] = field(default_factory=dict)
    numbers: dict[Hashable, int] = field(default_factory=dict)
    played: int = 0
    final_round: bool = False


def pair_round(players: Field) -> tuple[list[list[Hashable]], list[Hashable]]:
    """Two-seat tables for one round, each in seat order, and the bye (at most one player): the
    FIDE Dutch system, in one matching (dutch.py) up to DUTCH_FIELD players, bracket by bracket
    (dutch_brackets.py) up to DUTCH_BRACKETS_FIELD, while it finds a pairing that keeps its absolute
    rules; otherwise the blocks below, whose rules bend before a round goes unpaired."""
    found = None
    if len(players.order) <= DUTCH_FIELD:
        found = dutch.pair_in_one_matching(players)
    elif len(players.order) <= DUTCH_BRACKETS_FIELD:
        found = dutch_brackets.pair_bracket_by_bracket(players)
    return found if found is not None else pair_in_blocks(players)


def pair_in_blocks(players: Field) -> tuple[list[list[Hashable]], list[Hashable]]:
    """Fields above DUTCH_BRACKETS_FIELD, and rounds the Dutch system's absolute rules cannot pair:
    the rules at the top of this module, in blocks of standings order."""
    tables: list[list[Hashable]] = []
    carried: list[Hashable] = []
    large = len(players.order) > LARGE_FIELD
    chunks = blocks(players, LARGE_FIELD_BLOCK if large else BLOCK)
    for index, chunk in enumerate(chunks):
        last = index == len(chunks) - 1
        direct = top_against_bottom(players, chunk, carried, last) if large else None
        if direct is None:
            pairs, carried = match_block(players, carried + chunk, allow_bye=last, sparse=large)
        else:
            pairs, carried = direct
        tables += pairs
    byes = carried
    return [who_sits_first(players, a, b) for a, b in tables], byes


def blocks(players: Field, size: int) -> list[list[Hashable]]:
    """Standings order cut into blocks of about `size` players at score-group borders; a score
    group larger than that is cut so that each block holds a slice of its top half and the
    matching slice of its bottom half (their ideal opponents)."""
    groups: list[list[Hashable]] = []
    for player in players.order:
        if groups and players.score.get(groups[-1][-1], 0.0) == players.score.get(player, 0.0):
            groups[-1].append(player)
        else:
            groups.append([player])
    chunks: list[list[Hashable]] = [[]]
    for group in groups:
        if len(group) > size:
            half = len(group) // 2
            step = size // 2
            for start in range(0, half, step):
                end = min(start + step, half)
                chunks.append(group[start:end] + group[half + start : half + end])
            if len(group) % 2:
                chunks[-1].append(group[-1])
            chunks.append([])
        elif len(chunks[-1]) + len(group) > size and chunks[-1]:
            chunks.append(list(group))
        else:
            chunks[-1].extend(group)
    return [chunk for chunk in chunks if chunk]


def match_block(
    players: Field, block: list[Hashable], allow_bye: bool, sparse: bool = False
) -> tuple[list[tuple], list[Hashable]]:
    """The best pairs within one block; the player left over when the block is odd. A sparse
    block (fields over LARGE_FIELD) only weighs each player's likely opponents (see
    candidate_pairs), and falls back to every pair when that leaves someone unpaired."""
    if len(block) < 2:
        return [], block
    graph = nx.Graph()
    costs = Costs(players, block)
    # Floats hold these integers exactly below 2**53, and spare networkx's final check (run for ints).
    number = float if costs.ceiling * len(block) < 2**53 else int
    for a, b in candidate_pairs(costs, block, sparse):
        graph.add_edge(a, b, weight=number(costs.ceiling - costs.pair_cost(a, b)))
    if len(block) % 2:
        for a in block:
            graph.add_edge(a, BYE, weight=number(costs.ceiling - costs.left_over(a, allow_bye)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if sparse and len(matching) < len(block) // 2 + len(block) % 2:
        return match_block(players, block, allow_bye, sparse=False)  # the sparse graph had no full pairing
    pairs, left = [], []
    for a, b in matching:
        if BYE in (a, b):
            left.append(b if a == BYE else a)
        else:
            pairs.append((a, b) if block.index(a) < block.index(b) else (b, a))
    pairs.sort(key=lambda pair: block.index(pair[0]))
    return pairs, left


def top_against_bottom(
    players: Field, chunk: list[Hashable], carried: list[Hashable], last: bool
) -> tuple[list[tuple], list[Hashable]] | None:
    """A big field's block paired without a matching, or None when that would break a rule.
    The block must be one even score group (a slice of a group's top half and the matching
    slice of its bottom half, see `blocks`): its top half meets its bottom half (1 v 16, 2 v 17,
    ...). A player carried down from the block before meets the top half's lowest, whose
    opponent, the block's lowest, is carried on (or gets the bye in the last block), so the
    carried player takes the only score-group crossing and the odd one out stays the lowest.
    None if any of these pairs is a rematch or forbidden, or the bye would be a second one."""
    half = len(chunk) // 2
    if len(chunk) % 2 or len(carried) > 1 or len({players.score.get(player, 0.0) for player in chunk}) != 1:
        return None
    pairs = list(zip(chunk[:half], chunk[half:], strict=True))
    left: list[Hashable] = []
    if carried:
        left = [chunk[-1]]
        pairs[-1] = (carried[0], chunk[half - 1])
        if last and left[0] in players.had_bye:
            return None
    for pair in pairs:
        key = frozenset(pair)
        if players.met.get(key, 0) or key in players.forbidden:
            return None
    return pairs, left


def candidate_pairs(costs: Costs, block: list[Hashable], sparse: bool):
    """Every pair, or (sparse) only the pairs a good pairing uses: players up to REACH places
    apart in standings order, and up to REACH places from one's ideal opponent half a score
    group away."""
    if not sparse:
        yield from combinations(block, 2)
        return
    seen = set()
    by_group: dict[int, list[Hashable]] = {}
    for player in block:
        by_group.setdefault(costs.group[player], []).append(player)
    for i, a in enumerate(block):
        near = block[max(0, i - REACH) : i + REACH + 1]
        group = by_group[costs.group[a]]
        ideal = (costs.within[a] + len(group) // 2) % len(group)
        near += group[max(0, ideal - REACH) : ideal + REACH + 1]
        for b in near:
            key = frozenset((a, b))
            if a != b and key not in seen:
                seen.add(key)
                yield a, b


class Costs:
    """A pair's cost as one integer whose digits, in a base larger than any sum of the digits
    below, are the rules in order: comparing sums compares the rules lexicographically."""

    def __init__(self, players: Field, block: list[Hashable]):
        self.players = players
        self.rank = {player: index for index, player in enumerate(block)}
        scores = sorted({players.score.get(p, 0.0) for p in block}, reverse=True)
        self.group = {p: scores.index(players.score.get(p, 0.0)) for p in block}
        members = Counter(self.group.values())
        self.within: dict[Hashable, int] = {}
        seen: Counter = Counter()
        for player in block:
            self.within[player] = seen[self.group[player]]
            seen[self.group[player]] += 1
        self.members = members
        n = len(block) + 1
        self.base = [1, 3 * n]  # colour digit, half digit
        self.base.append(self.base[-1] * (n * n + 1))  # score-group digit
        self.base.append(self.base[-1] * (n * len(scores) ** 2 + 1))  # bye digit
        top_met = max([*players.met.values(), 1])
        self.base.append(self.base[-1] * (n + 1))  # rematch digit
        self.base.append(self.base[-1] * (n * (top_met + 1) + 1))  # forbidden digit
        self.ceiling = self.base[-1] * (n + 1)

    def pair_cost(self, a: Hashable, b: Hashable) -> int:
        players = self.players
        key = frozenset((a, b))
        forbidden = int(key in players.forbidden)
        rematch = players.met.get(key, 0)
        apart = abs(self.group[a] - self.group[b])
        if apart:  # the one who floats down should be the lowest of their group
            upper = a if self.group[a] < self.group[b] else b
            half = self.members[self.group[upper]] - 1 - self.within[upper]
        else:
            high, low = sorted((self.within[a], self.within[b]))
            half = abs(low - high - self.members[self.group[a]] // 2)
        colour = int(self.due_first(a) == self.due_first(b))
        digits = (colour, half, apart * apart, 0, rematch, forbidden)
        return sum(digit * base for digit, base in zip(digits, self.base, strict=True))

    def left_over(self, player: Hashable, allow_bye: bool) -> int:
        """Leaving a player unpaired: in the last block that is the bye, lowest-ranked first;
        otherwise it floats down to the next block, which should be the lowest-ranked too."""
        from_bottom = len(self.rank) - 1 - self.rank[player]
        repeat = int(allow_bye and player in self.players.had_bye)
        return from_bottom * self.base[3] + repeat * self.base[4]

    def due_first(self, player: Hashable) -> bool:
        balance = self.players.first_seats.get(player, 0)
        return balance < 0 or (balance == 0 and not self.players.last_first.get(player, False))


def who_sits_first(players: Field, a: Hashable, b: Hashable) -> list[Hashable]:
    """Who sits in seat 0: whoever has sat first less often, then whoever did not sit first
    last time, then the higher-placed player (a)."""

    def claim(player):
        return (players.first_seats.get(player, 0), players.last_first.get(player, False))

    return [b, a] if claim(b) < claim(a) else [a, b]


def rematches(tables: list[list[Hashable]], met: Counter) -> int:
    """How many pairs sitting together this round had met before."""
    return sum(met.get(frozenset(pair), 0) > 0 for table in tables for pair in combinations(table, 2))


def seat_tables(
    players: Field, sizes: list[int], exact: int = EXACT, budget: int = SEARCH_BUDGET
) -> list[list[Hashable]]:
    """Tables of the given sizes (3 to 8 seats) for the players in players.order (no byes here),
    lowest cost first: rematches (a pair counted once per meeting), then the squared spread of
    scores at each table. Players first sit in standings order (the least spread there is);
    `descend` swaps players between tables while that lowers the cost; a rematch the swaps
    leave goes to the complete search (`repair`), and only when that cannot remove it to the
    random restarts of `improve`; up to `exact` players every seating is then weighed, pruned
    by what the swaps found."""
    first_meeting = not players.met
    players = forbidding(players)
    tables, start = [], 0
    for size in sizes:
        tables.append(list(players.order[start : start + size]))
        start += size
    tables = descend(players, dealt_across(players, tables) if first_meeting else tables)
    if cost(players, tables)[0] and len(players.order) > exact:
        tables = repair(players, tables, budget)
    if cost(players, tables)[0]:
        tables = improve(players, tables)
    if len(players.order) <= exact:
        tables = best_split(players, list(players.order), sizes, bound=cost(players, tables)) or tables
    return [balance_seats(players, table) for table in tables]


def forbidding(players: Field) -> Field:
    """Rule 1 at larger tables: each forbidden pair counts as a meeting heavier than every
    rematch of the field together, so the searches keep such pairs apart first, and only then
    avoid rematches."""
    if not players.forbidden:
        return players
    heavier = 1 + sum(players.met.values())
    met = Counter(players.met)
    for pair in players.forbidden:
        met[pair] += heavier
    return replace(players, met=met)


def dealt_across(players: Field, tables: list[list[Hashable]]) -> list[list[Hashable]]:
    """Before anyone has met (round 1, accelerated or not): where neighbouring tables all hold
    one score, their players are dealt across them as cards are, out and back (1 2 3 3 2 1 ...).
    The spread stays nil, and the strongest do not all sit at one table, as a two-seat round
    pairs top half against bottom half. Later rounds keep standings order, which the swaps start from."""
    result: list[list[Hashable]] = []
    run: list[list[Hashable]] = []
    for table in tables:
        scores = {players.score[p] for p in table}
        if run and scores == {players.score[run[0][0]]}:
            run.append(table)
            continue
        result += out_and_back(run)
        run = [table] if len(scores) == 1 else []
        if len(scores) > 1:
            result.append(table)
    return result + out_and_back(run)


def out_and_back(tables: list[list[Hashable]]) -> list[list[Hashable]]:
    """The tables' players, in order, dealt out and back over tables of the same sizes."""
    if len(tables) < 2:
        return tables
    sizes = [len(table) for table in tables]
    laps = [*range(len(tables)), *reversed(range(len(tables)))]
    seated: list[list[Hashable]] = [[] for _ in tables]
    turn = 0
    for player in (p for table in tables for p in table):
        while len(seated[laps[turn % len(laps)]]) == sizes[laps[turn % len(laps)]]:
            turn += 1
        seated[laps[turn % len(laps)]].append(player)
        turn += 1
    return seated


def repair(players: Field, tables: list[list[Hashable]], budget: int) -> list[list[Hashable]]:
    """The local search's tables with their rematches removed by the complete search whenever
    that is possible: the tables with a rematch are reseated together with their neighbours in
    standings order (1, 2, 4, ... tables either side, up to the whole field when it has at most
    SEARCH_FIELD players), each player first tried at their own table; the first seating found
    without a rematch is then polished by the swaps (`descend`, which never adds a rematch).
    When the whole field has none, the local search's tables stay (the fewest it found).
    Fallback, documented: a search that places `budget` players (a third in each order of
    rematch_free.PREFERENCES) without an answer leaves the tables as they are (a larger field:
    its windows only)."""
    graph = met_graph(players.met, players.order)
    stuck = [t for t, table in enumerate(tables) if table_cost(players, table)[0]]
    width = 1
    while True:
        chosen = sorted({u for t in stuck for u in range(max(0, t - width), min(len(tables), t + width + 1))})
        whole = len(chosen) == len(tables)
        group = [p for u in chosen for p in tables[u]]
        if len(group) > SEARCH_FIELD:
            return tables
        home = {p: k for k, u in enumerate(chosen) for p in tables[u]}
        sizes = [len(tables[u]) for u in chosen]
        found = _first_seating(group, sizes, graph, home, budget)
        if found is OutOfBudget:
            if whole:
                return tables
            found = None
        if found is not None:
            for u, table in zip(chosen, found, strict=True):
                tables[u] = table
            return descend(players, tables)
        if whole:
            return tables
        width *= 2


def _first_seating(group, sizes, graph, home, budget):
    """seat_without_rematches trying the tables in each order of PREFERENCES in turn, each with
    an equal share of `budget`; OutOfBudget (the class) when none decided."""
    for prefer in PREFERENCES:
        try:
            return seat_without_rematches(group, sizes, graph, home, budget // len(PREFERENCES), prefer)
        except OutOfBudget:
            continue
    return OutOfBudget


def improve(players: Field, tables: list[list[Hashable]]) -> list[list[Hashable]]:
    """Local search: the best swap of two players between two tables while one lowers the cost
    (a table with a rematch looks at every table, the others at their NEAR neighbours in
    standings order); when no swap helps, each table with a rematch is reseated together with
    another (every split of the two); then up to KICKS random swaps out of a table with a
    rematch, each followed by the swaps alone (reseating two tables after every kick cost
    seconds in small fields where a rematch cannot be avoided), kept when the result is no
    worse, stopping after STALE kicks in a row that lowered nothing (a fixed seed: the same
    field always gets the same tables)."""
    times = met_graph(players.met, players.order)
    tables = descend(players, [list(t) for t in tables], times=times)
    rng = Random(len(players.order))
    best, best_cost = [list(t) for t in tables], cost(players, tables)
    stale = 0
    for _ in range(KICKS):
        if best_cost[0] == 0 or len(tables) < 2 or stale == STALE:
            break
        tables = [list(t) for t in best]
        stuck = [t for t, table in enumerate(tables) if table_cost(players, table)[0]]
        t = rng.choice(stuck)
        u = rng.choice([u for u in range(len(tables)) if u != t])
        i, j = rng.randrange(len(tables[t])), rng.randrange(len(tables[u]))
        tables[t][i], tables[u][j] = tables[u][j], tables[t][i]
        tables = descend(players, tables, reseat=False, times=times)
        found = cost(players, tables)
        stale = 0 if lower(found, best_cost) else stale + 1
        if found <= best_cost:
            best, best_cost = [list(t) for t in tables], found
    return best


def descend(
    players: Field, tables: list[list[Hashable]], reseat: bool = True, times: dict | None = None
) -> list[list[Hashable]]:
    """Swaps while one lowers the cost; with `reseat`, a table whose rematch no swap removes is
    reseated with a neighbour (`resplit`). A swap is weighed by what it changes only: the
    meetings of the two players moved with the rest of their new tables (`times`: met_graph)."""
    if times is None:
        times = met_graph(players.met, players.order)
    score = players.score
    costs = [table_cost(players, table) for table in tables]
    changed = True
    while changed:
        changed = False
        for t in range(len(tables)):
            if not costs[t][0] and costs[t][1] < 1e-9:
                continue  # nothing to lower here; a swap that helps a neighbour is found from its side
            # A table with a rematch looks at every table, nearest first, and stops at a swap that
            # removes its rematches and adds no spread (none can do better for it).
            near = range(max(0, t - NEAR), min(len(tables), t + NEAR + 1))
            others = sorted(range(len(tables)), key=lambda u: abs(u - t)) if costs[t][0] else near
            best, leaving_t = None, _leaving(times, score, tables[t])
            for u in others:
                if u == t:
                    continue
                if best is not None and costs[t][0] and best[0][0] == costs[best[1]][0]:
                    if best[0][1] <= costs[t][1] + costs[best[1]][1] + 1e-9:
                        break
                before = costs[t][0] + costs[u][0], costs[t][1] + costs[u][1]
                leaving_u = _leaving(times, score, tables[u])
                for i, (a, rest_t, *left_t) in enumerate(leaving_t):
                    for j, (b, rest_u, *left_u) in enumerate(leaving_u):
                        cost_t = _joining(times, score, rest_t, left_t, b)
                        cost_u = _joining(times, score, rest_u, left_u, a)
                        after = cost_t[0] + cost_u[0], cost_t[1] + cost_u[1]
                        if lower(after, before) and (best is None or lower(after, best[0])):
                            best = (after, u, [*rest_t[:i], b, *rest_t[i:]], [*rest_u[:j], a, *rest_u[j:]])
            if best is None and costs[t][0] and reseat:
                best = resplit(players, tables, costs, t)
            if best is not None:
                _, u, tables[t], tables[u] = best[:4]
                costs[t], costs[u] = table_cost(players, tables[t]), table_cost(players, tables[u])
                changed = True
    return tables


def _leaving(times: dict, score: dict, table: list[Hashable]) -> list[tuple]:
    """For each player of `table`: (player, the others, how often the others met one another,
    their highest score, their lowest)."""
    parts = []
    for i, player in enumerate(table):
        rest = [*table[:i], *table[i + 1 :]]
        points = [score.get(p, 0.0) for p in rest]
        kept = sum(times[a].get(b, 0) for a, b in combinations(rest, 2))
        parts.append((player, rest, kept, max(points), min(points)))
    return parts


def _joining(times: dict, score: dict, rest: list[Hashable], left: list, player: Hashable) -> tuple[int, float]:
    """table_cost of `rest` (`left`: its meetings, highest and lowest score) once `player` joins."""
    kept, high, low = left
    met, points = times[player], score.get(player, 0.0)
    return int(kept + sum(met.get(q, 0) for q in rest)), (max(high, points) - min(low, points)) ** 2


def resplit(players: Field, tables: list[list[Hashable]], costs: list[tuple], t: int):
    """Table t (which has a rematch) reseated with its nearest table that helps, every split tried
    (only for two tables of at most EXACT players together: two tables of 7 or 8 have thousands
    of splits, and the complete search in `repair` has already removed every avoidable rematch)."""
    for u in sorted(range(len(tables)), key=lambda u: abs(u - t))[1 : NEAR + 1]:
        if len(tables[t]) + len(tables[u]) > EXACT:
            continue
        before = costs[t][0] + costs[u][0], costs[t][1] + costs[u][1]
        split = best_split(players, tables[t] + tables[u], [len(tables[t]), len(tables[u])])
        new_t, new_u = split if len(split[0]) == len(tables[t]) else split[::-1]
        cost_t, cost_u = table_cost(players, new_t), table_cost(players, new_u)
        after = cost_t[0] + cost_u[0], cost_t[1] + cost_u[1]
        if lower(after, before):
            return after, u, new_t, new_u, cost_t, cost_u
    return None


def lower(a: tuple[int, float], b: tuple[int, float]) -> bool:
    """Lexicographic, with the spread compared to within rounding (scores are sums of shares)."""
    return a[0] < b[0] or (a[0] == b[0] and a[1] < b[1] - 1e-9)


def table_cost(players: Field, table: list[Hashable]) -> tuple[int, float]:
    """(rematches counted once per meeting, squared spread of scores) of one table: squared,
    as the square of score groups apart at two seats, so one long float costs more than two
    short ones."""
    met = players.met
    repeats = sum(met.get(frozenset(pair), 0) for pair in combinations(table, 2))
    scores = [players.score.get(p, 0.0) for p in table]
    return int(repeats), (max(scores) - min(scores)) ** 2


def cost(players: Field, tables: list[list[Hashable]]) -> tuple[int, float]:
    """(rematches, summed squared score spread) of some tables: lower is better."""
    repeats, spread = 0, 0.0
    for table in tables:
        table_repeats, table_spread = table_cost(players, table)
        repeats += table_repeats
        spread += table_spread
    return repeats, round(spread, 9)


def best_split(
    players: Field, group: list[Hashable], sizes: list[int], bound: tuple | None = None
) -> list[list[Hashable]] | None:
    """The lowest-cost way to seat `group` at tables of `sizes`, every split tried (small groups):
    the first player left sits with every choice of companions; a branch stops as soon as its
    tables cost as much as the best found (or `bound`). None when nothing beats `bound`."""
    best: tuple = (bound or (float("inf"), 0.0), None)

    def place(left: list[Hashable], sizes_left: list[int], tables: list[list[Hashable]], so_far) -> None:
        nonlocal best
        if not lower(so_far, best[0]):
            return
        if not left:
            best = (so_far, [list(t) for t in tables])
            return
        first, rest = left[0], left[1:]
        for size in sorted(set(sizes_left)):
            remaining = list(sizes_left)
            remaining.remove(size)
            for others in combinations(rest, size - 1):
                table = [first, *others]
                table_repeats, table_spread = table_cost(players, table)
                place(
                    [p for p in rest if p not in others],
                    remaining,
                    [*tables, table],
                    (so_far[0] + table_repeats, so_far[1] + table_spread),
                )

    place(list(group), list(sizes), [], (0, 0.0))
    tables = best[1]
    if tables is None:
        return None
    return sorted(tables, key=lambda table: min(group.index(p) for p in table))


def balance_seats(players: Field, table: list[Hashable]) -> list[Hashable]:
    """Seat 0 to whoever has sat first least often (then who did not sit first last time)."""
    first = min(table, key=lambda p: (players.first_seats.get(p, 0), players.last_first.get(p, False)))
    return [first] + [p for p in table if p != first]
