"""Bluff and doubt figures of an I Doubt It game, from its public history alone.

Only a doubt turns the played cards face up, so only doubted plays are judged: a
judged play is a bluff when a card in it was not of the rank called, and every such
bluff was caught. A play nobody doubted stays unknown, whatever it was. Counts per
seat: claims (plays made), judged (plays doubted), bluffs, caught, chances (plays of
others answered with a doubt or a pass), doubts and doubts_right (doubts of a bluff).
"""

from collections import Counter


def tally(history: list[dict]) -> dict[int, Counter]:
    counts: dict[int, Counter] = {}

    def of(seat: int) -> Counter:
        return counts.setdefault(seat, Counter())

    for event in history:
        kind = event["type"]
        if kind == "play":
            of(event["seat"])["claims"] += 1
        elif kind == "unchallenged":
            for seat in event["passed"]:
                of(seat)["chances"] += 1
        elif kind == "doubt":
            bluff = not event["honest"]
            player = of(event["player"])
            player["judged"] += 1
            player["bluffs"] += bluff
            player["caught"] += bluff
            for seat in event["passed"]:
                of(seat)["chances"] += 1
            for seat in event["doubters"]:
                doubter = of(seat)
                doubter["chances"] += 1
                doubter["doubts"] += 1
                doubter["doubts_right"] += bluff
    return counts
