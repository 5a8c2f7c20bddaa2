"""Uploaded bots: what one sandboxed move costs, from process start to parsed answer.

    .venv/bin/python bench/sandbox.py [--moves 200]

Runs a trivial bot and a Dudo bot that reads its view on a real Dudo position, --moves times
each, through botapi.sandbox.run with the default limits, and prints the median, 95th
percentile and worst time per move (figures in docs/performance.md).
"""

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

from botapi import sandbox  # noqa: E402
from games.engine import get_game  # noqa: E402

BOTS = {
    "first legal action": "def choose(view, legal):\n    return legal[0]\n",
    "dudo odds": (
        "from math import comb\n"
        "def choose(view, legal):\n"
        "    unseen = sum(view['dice_counts']) - len(view['dice'])\n"
        "    def chance(bid):\n"
        "        need = bid['quantity'] - sum(d in (1, bid['face']) for d in view['dice'])\n"
        "        p = 1 / 6 if bid['face'] == 1 else 1 / 3\n"
        "        ks = range(max(need, 0), unseen + 1)\n"
        "        return sum(comb(unseen, k) * p**k * (1 - p) ** (unseen - k) for k in ks)\n"
        "    bids = [a for a in legal if a['type'] == 'bid']\n"
        "    return max(bids, key=chance) if bids else legal[0]\n"
    ),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=200)
    args = parser.parse_args()
    engine = get_game("dudo")
    state = engine.new_game(4, seed=7)
    seat = engine.to_act(state)[0]
    request = {"view": engine.view(state, seat), "legal": engine.legal_actions(state, seat)}
    print(f"{len(request['legal'])} legal actions in the request; {args.moves} moves per bot")
    print("| bot | median ms | p95 ms | worst ms |\n|---|---:|---:|---:|")
    for name, source in BOTS.items():
        times = []
        for _ in range(args.moves):
            started = time.perf_counter()
            sandbox.run(source, request)
            times.append((time.perf_counter() - started) * 1000)
        times.sort()
        p95 = times[int(len(times) * 0.95) - 1]
        print(f"| {name} | {statistics.median(times):.1f} | {p95:.1f} | {times[-1]:.1f} |")


if __name__ == "__main__":
    main()
