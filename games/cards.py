"""French playing cards for Dubito and I Doubt It: "AS", "TD", "7H" (rank then suit)."""

from games.base import IllegalAction

RANKS = "A23456789TJQK"
SUITS = "SHDC"
RANK_NAMES = {
    "A": "aces", "2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
    "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings",
}
RANK_WORDS = {
    "A": "ace", "2": "two", "3": "three", "4": "four", "5": "five", "6": "six", "7": "seven",
    "8": "eight", "9": "nine", "T": "ten", "J": "jack", "Q": "queen", "K": "king",
}
SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
FULL_DECK = tuple(rank + suit for suit in SUITS for rank in RANKS)


def decks(count: int) -> list[str]:
    """`count` full decks, unshuffled; duplicates are the same string (backs do not matter)."""
    return list(FULL_DECK) * count


def rank_value(card: str) -> int:
    """Ace 1 up to king 13."""
    return RANKS.index(card[0]) + 1


def card_name(card: str) -> str:
    """A card as players say it: "ace of spades", "ten of diamonds"."""
    return f"{RANK_WORDS[card[0]]} of {SUIT_NAMES[card[1]]}"


def check_card(card) -> str:
    """The card itself when it names a real card; otherwise an IllegalAction that says how to write one."""
    if not (isinstance(card, str) and len(card) == 2 and card[0] in RANKS and card[1] in SUITS):
        raise IllegalAction(f"{card!r} is not a card: write rank then suit, e.g. \"7H\" or \"TD\".")
    return card
