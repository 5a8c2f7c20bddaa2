"""French playing cards shared by Dubito and I Doubt It."""

from collections import Counter

import pytest

from games.base import IllegalAction
from games.cards import FULL_DECK, RANK_NAMES, RANKS, SUITS, check_card, decks, rank_value


def test_a_deck_has_every_rank_in_every_suit_once():
    assert RANKS == "A23456789TJQK" and SUITS == "SHDC"
    assert len(FULL_DECK) == 52 and len(set(FULL_DECK)) == 52
    assert {card[0] for card in FULL_DECK} == set(RANKS) and {card[1] for card in FULL_DECK} == set(SUITS)
    assert set(RANK_NAMES) == set(RANKS)


def test_decks_gives_that_many_copies_of_each_card_as_a_fresh_list():
    two = decks(2)
    assert len(two) == 104 and set(Counter(two).values()) == {2}
    two.pop()
    assert len(decks(2)) == 104


def test_rank_value_counts_the_ace_as_one_and_the_king_as_thirteen():
    assert [rank_value(rank + "S") for rank in RANKS] == list(range(1, 14))
    assert rank_value("TD") == 10 and rank_value("KH") == 13 and rank_value("AC") == 1


def test_check_card_accepts_rank_then_suit():
    assert check_card("7H") == "7H" and check_card("TD") == "TD"


@pytest.mark.parametrize("bad", ["10H", "H7", "7h", "1S", "ZZ", "", None, 7, ["AS"]])
def test_check_card_refuses_anything_else_and_shows_how_to_write_a_card(bad):
    with pytest.raises(IllegalAction) as refused:
        check_card(bad)
    assert str(refused.value) == f"{bad!r} is not a card: write rank then suit, e.g. \"7H\" or \"TD\"."
