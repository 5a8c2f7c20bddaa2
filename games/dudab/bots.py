"""Dudab Buba house bot: sheds costly cards, collects a column only when discarding down pays."""

from __future__ import annotations

from games.bots import Bot
from games.dudab.cards import CARDS, DUDAB, JUNGLE, NUMBER, SHAMAN

HIDDEN_CARD = 2.5  # expected points of a card under a Baby
DRAW_COST = 2.5  # expected points of one more card in hand
REVEAL_COST = 6.0  # the Shaman penalty draws 1-4 cards
DUDAB_NUISANCE = 1.0  # a request often makes the others draw


def hand_points(card: str) -> float:
    """What the card costs if it is still held at the end of the round."""
    info = CARDS[card]
    if info.kind == NUMBER:
        return info.value
    return 5.0 if info.kind in (SHAMAN, DUDAB) else 0.0


def pile_points(card: str) -> float:
    """What the card costs in the own pile (a Dudab there cancels a Shaman or makes a number negative)."""
    info = CARDS[card]
    if info.kind == NUMBER:
        return info.value
    return {SHAMAN: 5.0, DUDAB: -3.0, JUNGLE: -2.0}.get(info.kind, 6.0)


def keep_order(card: str) -> float:
    """Lower keeps first: Dudabs are always playable, low numbers cost little."""
    return -1 if CARDS[card].kind == DUDAB else hand_points(card)


def collects(column: dict) -> bool:
    """Would the next card on this column collect it (see games/dudab/placement.py)?"""
    cards, jungle = column["cards"], column["jungle_at"]
    if jungle is not None:
        return len(cards) - jungle - 1 == jungle
    return len(cards) == 5


def careful_move(view: dict, legal: list[dict]) -> dict:
    """Greedy on the points a move sheds or takes; a Jungle or Baby goes on the first column offered.

    The same choice is the server's timeout move (`rules.DudabBuba.default_action`).
    """
    kind = legal[0]["type"]
    if kind in ("jungle", "baby"):
        return legal[0]
    if kind == "trim":
        return min(legal, key=lambda a: sum(pile_points(c) - hand_points(c) for c in a["cards"]))
    if kind == "discard_down":
        keep = sorted(view["hand"], key=keep_order)[:2]
        shed = [c for c in view["hand"] if c not in keep]
        return {"type": "discard_down", "cards": shed, "to": "discard"}
    return max(legal, key=lambda action: HeuristicBot._worth(view, action))


class HeuristicBot(Bot):
    """Greedy on the points a move sheds or takes; answers a Shaman rather than pay the penalty."""

    name = "heuristic"
    strength = "Strong: plays like a careful player"

    def choose(self, view, legal, rng):
        if legal[0]["type"] in ("jungle", "baby"):
            return rng.choice(legal)
        return careful_move(view, legal)

    @classmethod
    def _worth(cls, view, action):
        if action["type"] == "reveal":
            return -REVEAL_COST
        if action["type"] == "draw":
            own = action.get("own")
            return -DRAW_COST - (pile_points(own) - hand_points(own) if own else 0)
        card, column = action["card"], view["columns"][action["column"]]
        worth = hand_points(card)
        if CARDS[card].kind == DUDAB and "request" in action:
            worth += DUDAB_NUISANCE + cls._request_worth(view, card, action["request"])
        if collects(column):
            hand = [c for c in view["hand"] if c != card]
            shed = sorted(hand, key=keep_order)[2:]
            taken = sum(pile_points(c) for c in column["cards"]) + HIDDEN_CARD * column["hidden"]
            worth += sum(hand_points(c) for c in shed) - taken
        return worth

    @staticmethod
    def _request_worth(view, dudab, request):
        """Ask for what the bot holds most of: it can answer itself and the others likely cannot."""
        (attribute, value), = request.items()
        held = sum(1 for c in view["hand"] if c != dudab and getattr(CARDS[c], attribute) == value)
        return 0.1 * held


BOTS = {"heuristic": HeuristicBot}
