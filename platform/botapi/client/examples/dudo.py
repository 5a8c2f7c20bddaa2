"""Dudo: doubt a bid that needs more dice than a fair share, else raise as little as possible."""


def choose(view, legal):
    bid = view["bid"]
    doubt = next((action for action in legal if action["type"] == "doubt"), None)
    if bid and doubt:
        mine = sum(1 for die in view["dice"] if die == bid["face"] or (view["ones_wild"] and die == 1))
        others = view["total_dice"] - len(view["dice"])
        expected = mine + others * (1 / 3 if view["ones_wild"] and bid["face"] != 1 else 1 / 6)
        if bid["quantity"] > expected + 1:
            return doubt
    bids = [action for action in legal if action["type"] == "bid"]
    return bids[0] if bids else legal[0]
