"""Two-seat Swiss pairing of a large field, pure (no database): the Dutch system against a floor.

    .venv/bin/python bench/swiss_pairing.py [--entrants 1000] [--rounds 7] [--seed 1]

One simulated event (results follow a hidden strength, 10% draws), each round paired by
swiss_pairing.pair_round (above 128 players the Dutch system bracket by bracket, dutch_brackets.py) and,
as the floor measured in the same run on the same field, by swiss_pairing.pair_in_blocks (the block
pairing that large fields used before: the same rules' priorities without the Dutch details).
Printed per round: CPU seconds of each and their ratio; the event plays the Dutch tables.
"""

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from tournaments import swiss_pairing  # noqa: E402


def cpu(step):
    started = time.process_time()
    result = step()
    return result, time.process_time() - started


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--entrants", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = list(range(1, args.entrants + 1))  # pairing number 1 the strongest
    score, met, had_bye = Counter(), Counter(), set()
    colours, floats = dict.fromkeys(players, ""), dict.fromkeys(players, "  ")
    worst = 0.0
    for round_number in range(1, args.rounds + 1):
        order = sorted(players, key=lambda p: (-score[p], p))
        field = swiss_pairing.Field(
            order, {p: float(score[p]) for p in players}, met.copy(), set(had_bye), colours=dict(colours),
            floats=dict(floats), numbers={p: p for p in players}, played=round_number - 1,
            final_round=round_number == args.rounds,
        )  # fmt: skip
        (tables, byes), dutch_s = cpu(lambda f=field: swiss_pairing.pair_round(f))
        _, floor_s = cpu(lambda f=field: swiss_pairing.pair_in_blocks(f))
        worst = max(worst, dutch_s / floor_s)
        print(f"round {round_number}: Dutch {dutch_s:.2f} s, floor (blocks) {floor_s:.2f} s, {dutch_s / floor_s:.1f} x")
        before = {p: score[p] for p in players}
        for first, second in tables:
            met[frozenset((first, second))] += 1
            colours[first] += "w"
            colours[second] += "b"
            for p, q in ((first, second), (second, first)):
                floats[p] = ("D" if before[p] > before[q] else "U" if before[p] < before[q] else " ") + floats[p][0]
            if rng.random() < 0.1:
                score[first] += 0.5
                score[second] += 0.5
            else:
                won = rng.gauss((second - first) / args.entrants * 3, 1) > 0
                score[first if won else second] += 1
        for p in byes:
            score[p] += 1
            had_bye.add(p)
            floats[p] = "D" + floats[p][0]
    print(f"{args.entrants} entrants, {args.rounds} rounds: the slowest round {worst:.1f} x the floor")


if __name__ == "__main__":
    main()
