"""Bluff and doubt figures of a Dudo game, from its public history alone.

Every doubt shows all the dice, and nobody rolls again before it, so every bid of a
round that ended in a doubt can be judged against the dice shown: a bid is a bluff
when those dice did not hold it. A round cut short (a forfeit) shows nothing and
counts only as claims. Counts per seat: claims (bids made), judged (bids the dice
showed), bluffs (judged bids that were false), caught (bluffs that were doubted),
chances (turns with a bid standing, when a doubt was allowed), doubts (doubts made)
and doubts_right (doubts that found a false bid).

A move the server made for a seat (the default move when its clock ran out, a bot finishing
for a player who left) is not the player's: `server_made` names, per history event, the seats
whose part in it the server played, and their part is not counted (the dice it shows still are).
"""

from collections import Counter


def held(quantity: int, face: int, dice: list[list[int]], ones_wild: bool) -> bool:
    """Do the dice hold the bid? Ones count for every face in a bid on another face while wild."""
    wild = ones_wild and face != 1
    return sum(d == face or (wild and d == 1) for seat_dice in dice for d in seat_dice) >= quantity


def tally(history: list[dict], server_made: list[frozenset[int]] | None = None) -> dict[int, Counter]:
    counts: dict[int, Counter] = {}
    ones_wild = True
    bids: list[dict] = []
    automatic: list[bool] = []  # per bid of the round: made by the server?
    for index, event in enumerate(history):
        kind = event["type"]
        by_server = server_made[index] if server_made else frozenset()
        if kind == "round":
            ones_wild, bids, automatic = event["ones_wild"], [], []
        elif kind == "bid":
            mine = counts.setdefault(event["seat"], Counter())
            if event["seat"] not in by_server:
                mine["claims"] += 1
                mine["chances"] += bool(bids)
            bids.append(event)
            automatic.append(event["seat"] in by_server)
        elif kind == "doubt":
            for bid, made_by_server in zip(bids, automatic, strict=True):
                if made_by_server:
                    continue
                mine = counts[bid["seat"]]
                mine["judged"] += 1
                if not held(bid["quantity"], bid["face"], event["dice"], ones_wild):
                    mine["bluffs"] += 1
                    mine["caught"] += bid is bids[-1]
            doubter = counts.setdefault(event["seat"], Counter())
            if event["seat"] not in by_server:
                doubter["chances"] += 1
                doubter["doubts"] += 1
                doubter["doubts_right"] += event["loser"] == event["bidder"]
            bids, automatic = [], []
    return counts


def doubt_chances(history: list[dict]) -> dict[tuple[int, int], list[int]]:
    """For the collusion check, per (doubter, bidder): [chances, doubts]. After a bid, the next
    seat to speak could doubt it (a chance against the bidder); a doubt is that chance taken."""
    pairs: dict[tuple[int, int], list[int]] = {}
    last_bidder = None
    for event in history:
        if event["type"] == "round":
            last_bidder = None
        elif event["type"] in ("bid", "doubt"):
            if last_bidder is not None and event["seat"] != last_bidder:
                counts = pairs.setdefault((event["seat"], last_bidder), [0, 0])
                counts[0] += 1
                counts[1] += event["type"] == "doubt"
            last_bidder = event["seat"] if event["type"] == "bid" else None
    return pairs
