"""Swiss audit: simulated events paired by the previous greedy method and by tournaments/swiss_pairing.py.

    .venv/bin/python bench/swiss_audit.py [--events 200] [--seed 1] [--seats 2 4] [--entrants 8 100]
        [--rounds 5 7] [--methods greedy swiss_pairing.py] [--starts 8]

Events of 8 to 100 entrants (odd fields included), 5 to 7 rounds, at the table sizes given
(--seats, default two and four: each event draws one, two seats twice as often);
players have a hidden strength and results follow it (10% draws at two seats). Counted per
round:
- avoidable rematch: a pair that met before sits together although a seating without any
  rematch exists (two seats: a perfect matching of the never-met graph, the bye to someone);
- rematch (3+ seats): any pair at a table had met before; avoidable when a seating without
  any rematch exists, decided by the complete search of tournaments/rematch_free.py over the
  whole field with a budget of AUDIT_BUDGET placements (it finds one or proves there is none;
  a round it cannot decide within that budget is counted as undecided, never as either);
- spread (3+ seats): the summed squared score spread of the tables (swiss_pairing.cost), against the
  best of the swaps from --starts random seatings (every seating up to 12 players) when both have
  the same rematches (a positive excess: score groups mixed more than needed);
- slowest pairing: the most CPU seconds one round's pairing took (swiss_pairing.py only);
- needless float (two seats): more pairs across score groups than the fewest any pairing
  with the fewest rematches needs (that fewest is what swiss_pairing.py finds by construction, and
  the greedy's rematches are never fewer);
- top half v bottom half: in round 1 (one score group), the seed pairs are 1 v n/2+1, ...
The greedy below is the method tournaments/pairing.py used before issue 16, kept here only
as the baseline of this comparison.
"""

import argparse
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

import networkx as nx  # noqa: E402

from tournaments import dutch, pairing, swiss_pairing  # noqa: E402
from tournaments.rematch_free import OutOfBudget, met_graph, seat_without_rematches  # noqa: E402
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


AUDIT_BUDGET = 10**6  # placements: far beyond what swiss_pairing.seat_tables allows itself


def rematch_free_seating_exists(players, sizes):
    """True or False, proved by the complete search; None when its budget ran out."""
    order = list(players.order)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 2 * len(order) + 100))  # one level per player
    try:
        found = seat_without_rematches(order, sizes, met_graph(players.met, order), budget=AUDIT_BUDGET)
    except OutOfBudget:
        return None
    return found is not None


def best_known(players, sizes, rng, starts):
    """The lowest cost found for a round: every seating up to swiss_pairing.EXACT players, else the
    best of the swaps (`swiss_pairing.descend`, no random restarts) from `starts` random seatings."""
    order = list(players.order)
    if len(order) <= swiss_pairing.EXACT:
        return swiss_pairing.cost(players, swiss_pairing.best_split(players, order, sizes))
    best = None
    for _ in range(starts):
        shuffled = rng.sample(order, len(order))
        tables, start = [], 0
        for size in sizes:
            tables.append(shuffled[start : start + size])
            start += size
        found = swiss_pairing.cost(players, swiss_pairing.descend(players, tables))
        best = found if best is None else min(best, found)
        if best[0] == 0 and len(order) > 40:
            break
    return best


def play(table, strength, rng):
    """A ranking of the table: performance = strength + noise; two seats draw 10% of the time."""
    if len(table) == 2 and rng.random() < 0.1:
        return [[0, 1]]
    perf = sorted(range(len(table)), key=lambda seat: -(strength[table[seat]] + rng.gauss(0, 1)))
    return [[seat] for seat in perf]


def event(method, n, rounds, size, seed, counts, starts=8):
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
        players = swiss_pairing.Field(order, dict(score), met.copy(), set(had_bye), first_seats=dict(first_seats))
        started = time.process_time()
        if method == "greedy":
            tables, byes = greedy(order, sizes, met, had_bye)
        elif size == 2:
            tables, byes = swiss_pairing.pair_round(players)
        else:
            byes = [p for p in reversed(order) if p not in had_bye][: n - sum(sizes)]
            byes += [p for p in reversed(order) if p not in byes][: n - sum(sizes) - len(byes)]  # a second bye
            players.order = [p for p in order if p not in byes]
            tables = swiss_pairing.seat_tables(players, sizes)
        counts["slowest pairing"] = max(counts["slowest pairing"], time.process_time() - started)
        counts["rounds"] += 1
        repeats = swiss_pairing.rematches(tables, met)
        if size > 2:
            players.order = [p for p in order if p not in byes]
            found = swiss_pairing.cost(players, tables)
            witness = best_known(players, sizes, random.Random(seed + round_number), starts) if starts else found
            if repeats:
                avoidable = rematch_free_seating_exists(players, sizes)
                counts["avoidable rematch"] += avoidable is True
                counts["undecided"] += avoidable is None
            if found[0] == witness[0]:
                counts["spread excess"] += max(0.0, found[1] - witness[1])
                counts["spread"] += found[1]
        if size == 2:
            if repeats and rematch_free_exists(order, met, had_bye):
                counts["avoidable rematch"] += 1
            cross = sum(score[a] != score[b] for a, b in tables)
            best = swiss_pairing.pair_round(players)[0]
            if repeats <= swiss_pairing.rematches(best, met) and cross > sum(score[a] != score[b] for a, b in best):
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


# Against bbpPairings (--bbp PATH: a binary built elsewhere; nothing here builds or fetches it).


def trf(numbers, rounds, games, strength_order):
    """A TRF(x) file of the history so far: one line per player (pairing number, rating, points,
    then each round's opponent, colour and result; 'U' a pairing bye), and the number of rounds."""
    lines = ["012 Dubium audit"]
    for number in numbers:
        line = [" "] * (91 + 10 * len(games[number]))
        head = f"001 {number:4d}"
        line[: len(head)] = head
        rating = f"{2800 - strength_order.index(number):4d}"
        line[48:52] = rating
        points = sum({"1": 1.0, "=": 0.5, "U": 1.0}.get(result, 0.0) for _, _, result in games[number])
        line[80:84] = f"{points:4.1f}"
        for r, (opponent, colour, result) in enumerate(games[number]):
            start = 91 + 10 * r
            line[start : start + 8] = f"{opponent:4d} {colour} {result}" if opponent else f"0000 - {result}"
        lines.append("".join(line).rstrip())
    lines += [f"XXR {rounds}", "XXC white1"]
    return "\n".join(lines) + "\n"


def bbp_round(binary, text, workdir):
    """bbpPairings' tables (first mover first) and bye for the next round of `text`."""
    source, target = Path(workdir) / "in.trf", Path(workdir) / "out.txt"
    source.write_text(text)
    subprocess.run([binary, "--dutch", str(source), "-p", str(target)], check=True, capture_output=True)
    tables, byes = [], []
    numbers = [int(x) for x in target.read_text().split()[1:]]
    for white, black in zip(numbers[::2], numbers[1::2], strict=True):
        (byes.append(white) if black == 0 else tables.append([white, black]))
    return tables, byes


def field_of(numbers, games, score_before, round_number, rounds):
    """What swiss_pairing.pair_round is given for the next round of this history."""
    score = {p: score_before[-1][p] for p in numbers}
    order = sorted(numbers, key=lambda p: (-score[p], p))
    met, had_bye, colours, floats = Counter(), set(), {}, {}
    for p in numbers:
        colours[p] = "".join(colour for opponent, colour, _ in games[p] if opponent)
        marks = []
        for r, (opponent, _, _) in enumerate(games[p]):
            if not opponent:
                had_bye.add(p)
                marks.append("D")
            else:
                met[frozenset((p, opponent))] += 0.5
                mine, theirs = score_before[r][p], score_before[r][opponent]
                marks.append("D" if mine > theirs else "U" if mine < theirs else " ")
        floats[p] = "".join(reversed(marks[-2:])).ljust(2)
    return swiss_pairing.Field(
        order, score, met, had_bye, colours=colours, floats=floats, numbers={p: p for p in numbers},
        played=round_number - 1, final_round=round_number == rounds,
    )  # fmt: skip


def dutch_quality(players, tables, byes):
    """The Dutch criteria of a round as one tuple, lower better, in FIDE's order: absolute
    (rematches, second byes, two players bound to one seat), the score differences of the pairs
    largest first (C.04.3 C5-C7), colours (wishes not granted: all, strong ones, absolute ones),
    floats repeated from the last round and the one before (down, up)."""
    score = players.score
    absolute = sum(players.met.get(frozenset(t), 0) > 0 for t in tables) + sum(p in players.had_bye for p in byes)
    differences = sorted((abs(score[a] - score[b]) for a, b in tables), reverse=True)
    lowest = min(score.values())
    differences = sorted(differences + [score[p] - lowest + 1 for p in byes], reverse=True)
    missed = [0, 0, 0]
    for table in tables:
        for seat, p in enumerate(table):
            w = dutch.wish(players.colours.get(p, ""))
            if w.seat is not None and w.seat != "wb"[seat]:
                missed[0] += 1
                missed[1] += w.strength >= 2
                missed[2] += w.absolute
    absolute += sum(1 for t in tables if all(dutch.wish(players.colours.get(p, "")).absolute for p in t)
                    and dutch.wish(players.colours.get(t[0], "")).seat == dutch.wish(players.colours.get(t[1], "")).seat
                    and not players.final_round)  # fmt: skip
    repeats = [0, 0, 0, 0]
    for a, b in tables:
        for back in (0, 1):
            for p, q in ((a, b), (b, a)):
                mark = players.floats.get(p, "  ")[back]
                if mark == "D" and score[p] > score[q]:
                    repeats[2 * back] += 1
                if mark == "U" and score[p] < score[q]:
                    repeats[2 * back + 1] += 1
    for p in byes:
        repeats[0] += players.floats.get(p, "  ")[0] == "D"
    return (absolute, tuple(differences), tuple(reversed(missed)), tuple(repeats))


def versus_bbp(binary, n, rounds, seed, counts, follow="bbp"):
    """One event whose history follows bbpPairings' tables (or, with follow="dubium", Dubium's),
    both pairing that same history each round."""
    rng = random.Random(seed)
    numbers = list(range(1, n + 1))
    strength = {p: rng.gauss(0, 1) for p in numbers}
    strength_order = sorted(numbers, key=lambda p: -strength[p])
    strength = {p: strength[strength_order[p - 1]] for p in numbers}  # pairing number 1 the strongest
    games = {p: [] for p in numbers}
    score_before = [dict.fromkeys(numbers, 0.0)]
    with tempfile.TemporaryDirectory() as workdir:
        for round_number in range(1, rounds + 1):
            tables, byes = bbp_round(binary, trf(numbers, rounds, games, numbers), workdir)
            players = field_of(numbers, games, score_before, round_number, rounds)
            started = time.process_time()
            ours, our_byes = swiss_pairing.pair_round(players)
            counts["slowest pairing"] = max(counts["slowest pairing"], time.process_time() - started)
            if round_number > 1:
                counts["rounds"] += 1
                same = {frozenset(t) for t in ours} == {frozenset(t) for t in tables} and our_byes == byes
                counts["identical"] += same
                counts["identical with seats"] += same and sorted(ours) == sorted(tables)
                mine, theirs = dutch_quality(players, ours, our_byes), dutch_quality(players, tables, byes)
                counts["worse"] += mine > theirs
                counts["better"] += mine < theirs
            if follow == "dubium":
                tables, byes = ours, our_byes
            score = dict(score_before[-1])
            for white, black in tables:
                won = strength[white] + rng.gauss(0, 1) > strength[black] + rng.gauss(0, 1)
                outcome = "=" if rng.random() < 0.1 else "1" if won else "0"
                other = {"1": "0", "0": "1", "=": "="}[outcome]
                games[white].append((black, "w", outcome))
                games[black].append((white, "b", other))
                score[white] += {"1": 1, "=": 0.5, "0": 0}[outcome]
                score[black] += {"1": 0, "=": 0.5, "0": 1}[outcome]
            for p in byes:
                games[p].append((0, "-", "U"))
                score[p] += 1
            score_before.append(score)
    for p in numbers:
        colours = "".join(c for o, c, _ in games[p] if o)
        counts["difference above 2"] += abs(colours.count("w") - colours.count("b")) > 2
        counts["three in a row"] += "www" in colours or "bbb" in colours


def compare_with_bbp(args, shapes):
    """--bbp: two-seat events only, the figures docs/tournaments.md quotes."""
    started = time.monotonic()
    counts = Counter()
    for n, rounds, _, seed in shapes:
        versus_bbp(args.bbp, n, rounds, int(seed * 2**32), counts, args.follow)
    rounds = max(1, counts["rounds"])
    print(
        f"{len(shapes)} events, {counts['rounds']} rounds after round 1 (history follows {args.follow}): "
        f"identical pairings in {counts['identical']} ({100 * counts['identical'] / rounds:.1f}%), "
        f"seats too in {counts['identical with seats']} ({100 * counts['identical with seats'] / rounds:.1f}%); "
        f"Dubium worse by the Dutch criteria in {counts['worse']} ({100 * counts['worse'] / rounds:.1f}%), "
        f"better in {counts['better']}; players of the followed pairing with a difference above 2: "
        f"{counts['difference above 2']}, the same seat three times in a row: {counts['three in a row']}; "
        f"slowest Dubium round {counts['slowest pairing']:.2f} s; {time.monotonic() - started:.0f} s"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--seats", type=int, nargs="+", default=[2, 4], help="table sizes, 2 to 8")
    parser.add_argument("--entrants", type=int, nargs=2, default=[8, 100], help="fewest and most entrants")
    methods = ["greedy", "swiss_pairing.py"]
    parser.add_argument("--methods", nargs="+", default=methods, choices=methods)
    parser.add_argument(
        "--starts", type=int, default=8, help="random seatings of the spread witness above 12 players (0: none)"
    )
    parser.add_argument("--rounds", type=int, nargs=2, default=[5, 7], help="fewest and most rounds")
    parser.add_argument("--bbp", help="a bbpPairings binary: compare two-seat rounds with it instead")
    parser.add_argument("--follow", choices=["bbp", "dubium"], default="bbp", help="whose tables the events play")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    choices = [s for s in args.seats for _ in range(2 if s == 2 else 1)]
    low, high = args.entrants
    shapes = [
        (rng.randint(low, high), rng.randint(*args.rounds), rng.choice(choices), rng.random())
        for _ in range(args.events)
    ]
    if args.bbp:
        return compare_with_bbp(args, [(n, rounds, 2, seed) for n, rounds, _, seed in shapes])
    for method in args.methods:
        started = time.monotonic()
        by_size = {size: Counter() for size in args.seats}
        for n, rounds, size, seed in shapes:
            event(method, n, rounds, size, seed, by_size[size], args.starts)
        parts = []
        for size, c in by_size.items():
            rounds = max(1, c["rounds"])
            if size == 2:
                parts.append(
                    f"two seats: {c['rounds']} rounds, avoidable rematches in {c['avoidable rematch']} "
                    f"({100 * c['avoidable rematch'] / rounds:.1f}%), needless floats in {c['needless float']} "
                    f"({100 * c['needless float'] / rounds:.1f}%), round 1 not top v bottom in "
                    f"{c['round 1 not top v bottom']}/{c['round-1 events']} events, widest seat-0 spread "
                    f"{c['seat-0 spread']}"
                )
            else:
                parts.append(
                    f"{size} seats: {c['rounds']} rounds, rematches in {c['rematch']} "
                    f"({100 * c['rematch'] / rounds:.1f}%), "
                    f"avoidable in {c['avoidable rematch']} ({100 * c['avoidable rematch'] / rounds:.1f}%), "
                    f"undecided {c['undecided']}, spread above the best known {c['spread excess']:.1f} of "
                    f"{c['spread']:.1f}, widest seat-0 spread {c['seat-0 spread']}, slowest pairing "
                    f"{c['slowest pairing']:.2f} s"
                )
        print(f"{method:9} " + "; ".join(parts) + f"; {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
