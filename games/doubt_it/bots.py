"""I Doubt It house bot: honest when it can, one-card bluffs when it must, doubts what looks unlikely."""

from math import comb

from games.bots import Bot
from games.doubt_it.rules import bluff_card


def chance_of_any(drawn: int, copies: int, unseen: int) -> float:
    """P(at least one of `copies` cards among `drawn` cards taken at random from `unseen`)."""
    if drawn > unseen - copies:
        return 1.0
    return 1 - comb(unseen - copies, drawn) / comb(unseen, drawn)


class HeuristicBot(Bot):
    """Plays every due card it holds; otherwise gives up the card it will need last.

    It always doubts a claim its own hand proves false and a last play (left
    alone, it wins the game). Any other claim it doubts at random, with chance
    (1 - p) ** doubt_power where p is the chance that the player's hand, dealt
    at random from the cards the bot cannot see, held a card of the claimed
    rank at all: seldom against big hands, often against hands of two or three.
    A high power won head-to-head tests: doubting an honest play costs the pile.
    """

    name = "heuristic"
    strength = "Strong: plays like a careful player"
    doubt_power = 8.0

    def choose(self, view, legal, rng):
        if not legal:
            return None
        if view["window"]["open"]:
            return {"type": "doubt"} if self.doubts(view, rng) else {"type": "pass"}
        hand, due = view["hand"], view["due"]
        honest = [card for card in hand if card[0] == due]
        return {"type": "play", "cards": honest or [bluff_card(hand, due)]}

    def doubts(self, view, rng) -> bool:
        last = view["last_play"]
        player, count = last["seat"], last["count"]
        copies = view["max_cards"]  # four of each rank per deck, as many as a play may hold
        mine = sum(card[0] == last["rank"] for card in view["hand"])
        if mine + count > copies:
            return True  # the claim is impossible
        if view["hand_counts"][player] == 0:
            return True  # an unchecked last play wins the game
        unseen = sum(view["hand_counts"]) + view["pile"] - len(view["hand"])
        held_before = view["hand_counts"][player] + count
        could_hold = chance_of_any(held_before, copies - mine, unseen)
        return rng.random() < (1 - could_hold) ** self.doubt_power


BOTS = {"heuristic": HeuristicBot}
