"""Swiss audit: simulated events paired by the previous greedy method and by tournaments/swiss.py.

    .venv/bin/python bench/swiss_audit.py [--events 200] [--seed 1]

Events of 8 to 100 entrants (odd fields included), 5 to 7 rounds, at two seats and at four;
players have a hidden strength and results follow it (10% draws at two seats). Counted per
round:
- avoidable rematch: a pair that met before sits together although a seating without any
  rematch exists (two seats: a perfect matching of the never-met graph, the bye to someone);
- rematch (four seats): any pair at a table had met before;
- needless float (two seats): more pairs across score groups than the fewest any pairing
  with the fewest rematches needs (that fewest is what swiss.py finds by construction, and
  the greedy's rematches are never fewer);
- top half v bottom half: in round 1 (one score group), the seed pairs are 1 v n/2+1, ...
The greedy below is the method tournaments/pairing.py used before issue 16, kept here only
as the baseline of this comparison.
"""

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

import networkx as nx  # noqa: E402

from tournaments import pairing, swiss  # noqa: E402
from tournaments.scoring import share_points  # noqa: E402


def greedy(order, sizes, met, had_bye):
    """The previous method: each table takes the nearest players below that nobody there met."""
    byes_needed = len(order) - sum(sizes)
    byes = [p for p in reversed(order) if p not in had_bye][:byes_needed]
    byes += [p for p in reversed(order) if p not in byes][: byes_needed - len(byes)]
    waiting = [p for p in order if p not in byes]
    tables = []
    for size in sizes:
        table = [waiting.pop(0)]
        while len(table) < size:
            fresh = next((p for p in waiting if all(frozenset((p, q)) not in met for q in table)), waiting[0])
            waiting.remove(fresh)
            table.append(fresh)
        tables.append(table)
    return tables, byes


def rematch_free_exists(players, met, had_bye):
    graph = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from((a, b) for i, a in enumerate(players) for b in players[i + 1 :] if not met[frozenset((a, b))])
    if len(players) % 2:
        graph.add_edges_from(("bye", p) for p in players if p not in had_bye)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == (len(players) + 1) // 2


def play(table, strength, rng):
    """A ranking of the table: performance = strength + noise; two seats draw 10% of the time."""
    if len(table) == 2 and rng.random() < 0.1:
        return [[0, 1]]
    perf = sorted(range(len(table)), key=lambda seat: -(strength[table[seat]] + rng.gauss(0, 1)))
    return [[seat] for seat in perf]


def event(method, n, rounds, size, seed, counts):
    rng = random.Random(seed)
    strength = {p: rng.gauss(0, 1) for p in range(n)}
    seeds = sorted(range(n), key=lambda p: -strength[p])
    score = Counter()
    met: Counter = Counter()
    had_bye: set = set()
    first_seats: Counter = Counter()
    for round_number in range(1, rounds + 1):
        order = sorted(seeds, key=lambda p: -score[p])  # stable: seeds within a score group
        sizes, _ = pairing.table_sizes(n, size, 2 if size == 2 else 3)
        players = swiss.Field(order, dict(score), met.copy(), set(had_bye), first_seats=dict(first_seats))
        if method == "greedy":
            tables, byes = greedy(order, sizes, met, had_bye)
        elif size == 2:
            tables, byes = swiss.pair_round(players)
        else:
            byes = [p for p in reversed(order) if p not in had_bye][: n - sum(sizes)]
            players.order = [p for p in order if p not in byes]
            tables = swiss.seat_tables(players, sizes)
        counts["rounds"] += 1
        repeats = swiss.rematches(tables, met)
        if size == 2:
            if repeats and rematch_free_exists(order, met, had_bye):
                counts["avoidable rematch"] += 1
            cross = sum(score[a] != score[b] for a, b in tables)
            best = swiss.pair_round(players)[0]
            if repeats <= swiss.rematches(best, met) and cross > sum(score[a] != score[b] for a, b in best):
                counts["needless float"] += 1
            if round_number == 1:
                seated = [p for p in seeds if p not in byes]
                half = len(seated) // 2
                ideal = {frozenset((seated[i], seated[i + half])) for i in range(half)}
                counts["round 1 not top v bottom"] += any(frozenset(t) not in ideal for t in tables)
                counts["round-1 events"] += 1
        elif repeats:
            counts["rematch"] += 1
        for table in tables:
            for a in table:
                for b in table:
                    if a != b:
                        met[frozenset((a, b))] += 0.5
            first_seats[table[0]] += 1
            for seat, points in share_points(play(table, strength, rng)).items():
                score[table[seat]] += points
        for p in byes:
            score[p] += 1
            had_bye.add(p)
    first = [first_seats[p] for p in range(n)]
    counts["seat-0 spread"] = max(counts["seat-0 spread"], max(first) - min(first))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    shapes = [(rng.randint(8, 100), rng.randint(5, 7), rng.choice([2, 2, 4]), rng.random()) for _ in range(args.events)]
    for method in ("greedy", "swiss.py"):
        started = time.monotonic()
        by_size = {2: Counter(), 4: Counter()}
        for n, rounds, size, seed in shapes:
            event(method, n, rounds, size, seed, by_size[size])
        two, four = by_size[2], by_size[4]
        print(
            f"{method:9} two seats: {two['rounds']} rounds, avoidable rematches in {two['avoidable rematch']} "
            f"({100 * two['avoidable rematch'] / max(1, two['rounds']):.1f}%), needless floats in "
            f"{two['needless float']} ({100 * two['needless float'] / max(1, two['rounds']):.1f}%), round 1 not "
            f"top v bottom in {two['round 1 not top v bottom']}/{two['round-1 events']} events, widest seat-0 "
            f"spread {two['seat-0 spread']}; four seats: {four['rounds']} rounds, rematches in {four['rematch']} "
            f"({100 * four['rematch'] / max(1, four['rounds']):.1f}%); {time.monotonic() - started:.1f} s"
        )


if __name__ == "__main__":
    main()
