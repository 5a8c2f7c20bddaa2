"""Dubito house bot: greedy on points, but keeps its rows open for the cards still to come.

The same choice is the server's timeout move (`rules.Dubito.default_action`).
"""

from games.bots import Bot
from games.cards import rank_value

ROW_POINTS = {1: 1, 2: 2, 3: 3, 4: 4}


def value(view: dict, action: dict) -> float:
    """Points now, minus the ranks a rising row skips, plus what the rest of the hand can still add."""
    row, card = action["row"], action["card"]
    built = view["rows"][view["seat"]][row - 1]
    last = built[-1] if built else None
    hand = list(view["hand"])
    hand.remove(card)
    worth = float(ROW_POINTS[row])
    if row in (1, 3):
        skipped = rank_value(card) - (rank_value(last) if last else 0) - 1
        worth -= 0.45 * skipped
    if row in (2, 3):
        worth += 0.25 * sum(c[1] == card[1] for c in hand)
    if row == 4:
        worth += 0.6 * sum(c[0] == card[0] for c in hand) - (0.0 if last else 1.5)
    return worth


def best_play(view: dict, legal: list[dict]) -> dict:
    """The legal play of highest value; on a tie the lower row, then the earlier listed play."""
    return max(legal, key=lambda action: (value(view, action), -action["row"]))


class HeuristicBot(Bot):
    name = "heuristic"
    strength = "Strong: plays like a careful player"

    def choose(self, view, legal, rng):
        return best_play(view, legal) if legal else None


BOTS = {"heuristic": HeuristicBot}
