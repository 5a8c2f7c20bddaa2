"""I Doubt It: play honestly when the hand allows (the cards of the rank due), else the fewest cards."""


def choose(view, legal):
    plays = [action for action in legal if action["type"] == "play"]
    due = str(view.get("due") or "")
    honest = [action for action in plays if all(card[:-1] == due for card in action["cards"])]
    if honest:
        return max(honest, key=lambda action: len(action["cards"]))
    if plays:
        return min(plays, key=lambda action: len(action["cards"]))
    return next((action for action in legal if action["type"] != "doubt"), legal[0])
