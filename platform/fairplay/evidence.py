"""What one finished match says about its players, read from its public history alone.

Pure functions (no Django), so the Celery task that stores them and bench/fairplay.py's
simulated population measure exactly the same things.
"""

# Per (doubter seat, target seat): [chances, doubts].
Challenges = dict[tuple[int, int], list[int]]


def dobble_reactions(history: list[dict]) -> dict[int, list[int]]:
    """Each seat's reaction times (ms) of right claims: from when the cards last changed (a
    right claim, a new round, the start) to the claim, in game time."""
    reactions: dict[int, list[int]] = {}
    changed = 0
    for event in history:
        if event["type"] == "claim" and event["correct"]:
            reactions.setdefault(event["seat"], []).append(event["at_ms"] - changed)
            changed = event["at_ms"]
        elif event["type"] == "round" and "at_ms" in event:
            changed = event["at_ms"]
    return reactions


def dudo_challenges(history: list[dict]) -> Challenges:
    """Dudo: after a bid, the next seat to speak could doubt it (a chance against the bidder);
    a doubt is that chance taken."""
    pairs: Challenges = {}
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


def doubt_it_challenges(history: list[dict]) -> Challenges:
    """I Doubt It: everyone who passed on or doubted a play had a chance against its player."""
    pairs: Challenges = {}
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


# The games whose history says who doubted whom; Dubito's and Dudab Buba's do not (docs/fair-play.md).
CHALLENGES = {"dudo": dudo_challenges, "doubt-it": doubt_it_challenges}


def think_times(moves: list[tuple[int, float]]) -> dict[int, list[float]]:
    """Each seat's thinking time (seconds) per move, from (seat, seconds since the match's
    previous move or its start) in log order."""
    times: dict[int, list[float]] = {}
    for seat, seconds in moves:
        times.setdefault(seat, []).append(seconds)
    return times
