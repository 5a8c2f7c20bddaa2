"""Dudo house bot: bids and doubts from binomial odds over the dice it cannot see.

Each unseen die matches a face other than ones with probability 1/3 while ones
are wild (the face or a one), else 1/6. The bot doubts when the standing bid is
less likely true than its own best raise is false; otherwise it makes the raise
most likely to be true, the smallest one on ties, and now and then bluffs with
another fair raise so that its bids do not spell out its dice.
"""

from __future__ import annotations

from functools import cache

from games.bots import Bot

BLUFF_CHANCE = 0.15
FAIR_BLUFF = 0.5  # a bluff is still a raise at least this likely to be true


@cache
def at_least(unseen: int, p: float) -> tuple[float, ...]:
    """P(at least k of `unseen` dice match) for k = 0..unseen, each die matching with probability p."""
    pmf = [1.0]
    for _ in range(unseen):
        pmf = [a * (1 - p) + b * p for a, b in zip(pmf + [0.0], [0.0] + pmf, strict=True)]
    tails, running = [], 0.0
    for mass in reversed(pmf):
        running += mass
        tails.append(min(running, 1.0))
    return tuple(reversed(tails))


def chance_true(view: dict, quantity: int, face: int) -> float:
    """How likely `quantity` dice show `face` on the table, given the bot's own dice."""
    wild = view["ones_wild"] and face != 1
    mine = sum(1 for die in view["dice"] if die == face or (wild and die == 1))
    unseen = view["total_dice"] - len(view["dice"])
    need = quantity - mine
    if need <= 0:
        return 1.0
    if need > unseen:
        return 0.0
    return at_least(unseen, 1 / 3 if wild else 1 / 6)[need]


def scored_raises(view: dict, legal: list[dict]) -> list[tuple[float, dict]]:
    """The weakest legal bid on each face, with how likely it is to be true."""
    weakest_per_face: dict[int, dict] = {}
    for bid in legal:  # legal bids come weakest first
        if bid["type"] == "bid":
            weakest_per_face.setdefault(bid["face"], bid)
    return [(chance_true(view, bid["quantity"], bid["face"]), bid) for bid in weakest_per_face.values()]


def careful_move(view: dict, legal: list[dict]) -> dict:
    """Doubt when the standing bid is less likely true than the best raise is false, else make that raise.

    With no chance in it, this is also the server's timeout move (`rules.Dudo.default_action`):
    a player whose clock runs out on "1 two" raises, they do not doubt it.
    """
    scored = scored_raises(view, legal)
    best_odds, best = max(scored, key=lambda pair: pair[0], default=(0.0, None))
    standing = view["bid"]
    unlikely = standing is not None and chance_true(view, standing["quantity"], standing["face"]) < 1 - best_odds
    if best is None or unlikely:
        return {"type": "doubt"}
    return dict(best)


class HeuristicBot(Bot):
    name = "heuristic"
    strength = "Strong: plays like a careful player"

    def choose(self, view, legal, rng):
        move = careful_move(view, legal)
        if move["type"] == "bid":  # now and then another fair raise, so its bids do not spell out its dice
            fair = [bid for odds, bid in scored_raises(view, legal) if odds >= FAIR_BLUFF and bid != move]
            if fair and rng.random() < BLUFF_CHANCE:
                return dict(rng.choice(fair))
        return move


BOTS = {"heuristic": HeuristicBot}
