"""Reaction times in a Dobble game, from its public history alone: what the fair-play speed
check compares with people's (platform/fairplay, docs/fair-play.md)."""


def reaction_times(history: list[dict]) -> dict[int, list[int]]:
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
