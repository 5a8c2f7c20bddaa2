"""Bluff and doubt figures of an I Doubt It game, from its public history alone.

Only a doubt turns the played cards face up, so only doubted plays are judged: a
judged play is a bluff when a card in it was not of the rank called, and every such
bluff was caught. A play nobody doubted stays unknown, whatever it was. Counts per
seat: claims (plays made), judged (plays doubted), bluffs, caught, chances (plays of
others answered with a doubt or a pass), doubts and doubts_right (doubts of a bluff).

A move the server made for a seat (the pass or the card played when its clock ran out, a bot
finishing for a player who left) is not the player's: `server_made` names, per history event,
the seats whose part in it the server played, and their part is not counted.
"""

from collections import Counter


def tally(history: list[dict], server_made: list[frozenset[int]] | None = None) -> dict[int, Counter]:
    counts: dict[int, Counter] = {}
    play_by_server = False  # the play a doubt turns up: made by the server?

    def of(seat: int) -> Counter:
        return counts.setdefault(seat, Counter())

    for index, event in enumerate(history):
        kind = event["type"]
        by_server = server_made[index] if server_made else frozenset()
        if kind == "play":
            play_by_server = event["seat"] in by_server
            of(event["seat"])["claims"] += not play_by_server
        elif kind == "unchallenged":
            for seat in event["passed"]:
                of(seat)["chances"] += seat not in by_server
        elif kind == "doubt":
            bluff = not event["honest"]
            player = of(event["player"])
            if not play_by_server:
                player["judged"] += 1
                player["bluffs"] += bluff
                player["caught"] += bluff
            for seat in event["passed"]:
                of(seat)["chances"] += seat not in by_server
            for seat in event["doubters"]:
                if seat in by_server:
                    continue
                doubter = of(seat)
                doubter["chances"] += 1
                doubter["doubts"] += 1
                doubter["doubts_right"] += bluff
    return counts


def doubt_chances(history: list[dict]) -> dict[tuple[int, int], list[int]]:
    """For the collusion check, per (doubter, player): [chances, doubts]. Everyone who passed on
    or doubted a play had a chance against its player."""
    pairs: dict[tuple[int, int], list[int]] = {}
    for event in history:
        if event["type"] not in ("unchallenged", "doubt"):
            continue
        player = event["seat"] if event["type"] == "unchallenged" else event["player"]
        doubters = event.get("doubters", [])
        for seat in [*event.get("passed", []), *doubters]:
            if seat == player:
                continue
            counts = pairs.setdefault((seat, player), [0, 0])
            counts[0] += 1
            counts[1] += seat in doubters
    return pairs
