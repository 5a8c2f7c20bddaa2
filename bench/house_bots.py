"""House bots: how often "Strong" (the heuristic bot) wins against simple fixed strategies.

    .venv/bin/python bench/house_bots.py [--games 400] [--seed 1]

Each line is one turn-based game and one simple strategy: Strong plays `--games` games against
it, in every seat in turn (I Doubt It needs three seats: Strong against two copies of the
simple strategy). A game counts as won when Strong alone ranks first. The goal (issue 35) is at
least 70% in every line. The strategies, the "equivalents per game" of the issue:

  dudo raise-by-one        raises the standing bid by the smallest step; doubts only when it cannot raise
  dudo doubt-above-mean    doubts a bid above the count it expects (its own dice + the unseen ones' mean),
                           else raises by the smallest step
  dubito lowest-card       plays its lowest card, on the lowest row that takes it
  doubt-it lowest-card     plays its single lowest card as the due rank; never doubts
  doubt-it doubt-above-mean  the same play; doubts a claim of more cards than the player could hold on average
  dudab lowest-card        plays its lowest-scoring card on the first column offered; else the first choice listed

Pure Python (the engines and bots only, no Django): figures in docs/house-bots.md.
"""

import argparse
import random
import sys
import time
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]

from games.bots import Bot, get_bot  # noqa: E402
from games.cards import rank_value  # noqa: E402
from games.dudab.bots import hand_points  # noqa: E402
from games.engine import get_game  # noqa: E402
from games.simulate import play  # noqa: E402

GOAL = 0.70


class Simple(Bot):
    """A fixed strategy given as a function of (view, legal)."""

    def __init__(self, rule):
        self.rule = rule

    def choose(self, view, legal, rng):
        return self.rule(view, legal) if legal else None


def dudo_raise_by_one(view, legal):
    bids = [a for a in legal if a["type"] == "bid"]
    return bids[0] if bids else {"type": "doubt"}  # legal bids come weakest first


def dudo_doubt_above_mean(view, legal):
    bid = view["bid"]
    if bid is not None:
        wild = view["ones_wild"] and bid["face"] != 1
        mine = sum(1 for d in view["dice"] if d == bid["face"] or (wild and d == 1))
        unseen = view["total_dice"] - len(view["dice"])
        if bid["quantity"] > mine + unseen * (1 / 3 if wild else 1 / 6):
            return {"type": "doubt"}
    return dudo_raise_by_one(view, legal)


def dubito_lowest_card(view, legal):
    return min(legal, key=lambda a: (rank_value(a["card"]), a["row"]))


def doubt_it_lowest_card(view, legal):
    if view["window"]["open"]:
        return {"type": "pass"}
    return {"type": "play", "cards": [min(view["hand"], key=rank_value)]}


def doubt_it_doubt_above_mean(view, legal):
    if view["window"]["open"]:
        last = view["last_play"]
        # Cards of one rank are a thirteenth of a deck: a hand holds that share of them on average.
        held_before = view["hand_counts"][last["seat"]] + last["count"]
        return {"type": "doubt"} if last["count"] > held_before / 13 else {"type": "pass"}
    return doubt_it_lowest_card(view, legal)


def dudab_lowest_card(view, legal):
    plays = [a for a in legal if a["type"] == "play"]
    return min(plays, key=lambda a: hand_points(a["card"])) if plays else legal[0]


LINES = [
    ("dudo", "raise-by-one", dudo_raise_by_one, 2),
    ("dudo", "doubt-above-mean", dudo_doubt_above_mean, 2),
    ("dubito", "lowest-card", dubito_lowest_card, 2),
    ("doubt-it", "lowest-card", doubt_it_lowest_card, 3),
    ("doubt-it", "doubt-above-mean", doubt_it_doubt_above_mean, 3),
    ("dudab", "lowest-card", dudab_lowest_card, 2),
]


def strong_wins(slug, rule, players, games, seed):
    game = get_game(slug)
    wins = 0
    for n in range(games):
        strong_seat = n % players
        bots = [get_bot(slug, "heuristic") if seat == strong_seat else Simple(rule) for seat in range(players)]
        playout = play(game, bots, seed * 100_003 + n)
        wins += game.result(playout.state)["ranking"][0] == [strong_seat]
    return wins


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    random.seed(args.seed)
    print(f"{'game':<9} {'simple strategy':<17} {'seats':>5} {'Strong wins':>12}  goal {GOAL:.0%}")
    missed = 0
    for slug, name, rule, players in LINES:
        started = time.perf_counter()
        wins = strong_wins(slug, rule, players, args.games, args.seed)
        share = wins / args.games
        missed += share < GOAL
        print(f"{slug:<9} {name:<17} {players:>5} {wins:>5}/{args.games} {share:>5.0%}  "
              f"{'met' if share >= GOAL else 'MISSED'} ({time.perf_counter() - started:.1f} s)")
    sys.exit(1 if missed else 0)


if __name__ == "__main__":
    main()
