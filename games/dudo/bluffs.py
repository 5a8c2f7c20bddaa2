"""Bluff and doubt figures of a Dudo game, from its public history alone.

Every doubt shows all the dice, and nobody rolls again before it, so every bid of a
round that ended in a doubt can be judged against the dice shown: a bid is a bluff
when those dice did not hold it. A round cut short (a forfeit) shows nothing and
counts only as claims. Counts per seat: claims (bids made), judged (bids the dice
showed), bluffs (judged bids that were false), caught (bluffs that were doubted),
chances (turns with a bid standing, when a doubt was allowed), doubts (doubts made)
and doubts_right (doubts that found a false bid).
"""

from collections import Counter


def held(quantity: int, face: int, dice: list[list[int]], ones_wild: bool) -> bool:
    """Do the dice hold the bid? Ones count for every face in a bid on another face while wild."""
    wild = ones_wild and face != 1
    return sum(d == face or (wild and d == 1) for seat_dice in dice for d in seat_dice) >= quantity


def tally(history: list[dict]) -> dict[int, Counter]:
    counts: dict[int, Counter] = {}
    ones_wild = True
    bids: list[dict] = []
    for event in history:
        kind = event["type"]
        if kind == "round":
            ones_wild, bids = event["ones_wild"], []
        elif kind == "bid":
            mine = counts.setdefault(event["seat"], Counter())
            mine["claims"] += 1
            mine["chances"] += bool(bids)
            bids.append(event)
        elif kind == "doubt":
            for bid in bids:
                mine = counts[bid["seat"]]
                mine["judged"] += 1
                if not held(bid["quantity"], bid["face"], event["dice"], ones_wild):
                    mine["bluffs"] += 1
                    mine["caught"] += bid is bids[-1]
            doubter = counts.setdefault(event["seat"], Counter())
            doubter["chances"] += 1
            doubter["doubts"] += 1
            doubter["doubts_right"] += event["loser"] == event["bidder"]
            bids = []
    return counts
