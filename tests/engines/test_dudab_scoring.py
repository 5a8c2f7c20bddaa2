"""Dudab Buba scoring: round_score and totals, worked out by hand."""

import pytest

from games.dudab.scoring import round_score, totals


def test_number_cards_score_their_face_value_and_the_hand_joins_the_own_pile():
    assert round_score(["G-hide-3"], ["R-hand-1", "B-club-4"]) == 8  # 3 + 1 + 4


def test_each_dudab_left_in_the_hand_scores_five():
    assert round_score(["dudab-1", "dudab-2"], []) == 10


def test_a_dudab_in_the_hand_does_not_cancel_a_shaman_of_the_own_pile():
    assert round_score(["dudab-1"], ["shaman-R-1"]) == 10  # 5 for the Dudab + 5 for the lone Shaman


def test_a_dudab_and_a_shaman_of_the_own_pile_cancel_each_other():
    assert round_score([], ["dudab-1", "shaman-R-1", "R-hand-2"]) == 2


def test_a_shaman_from_the_hand_pairs_with_a_dudab_of_the_own_pile():
    assert round_score(["shaman-R-1"], ["dudab-2"]) == 0


def test_a_spare_dudab_makes_the_highest_number_card_negative():
    assert round_score([], ["dudab-1", "R-hand-1", "B-club-4"]) == -3  # -4 + 1


def test_spare_dudabs_beyond_the_number_cards_are_worth_nothing():
    assert round_score([], ["dudab-1", "dudab-2", "dudab-3", "R-hand-2"]) == -2


def test_each_unpaired_shaman_scores_five():
    assert round_score([], ["shaman-R-1", "shaman-B-1", "dudab-1"]) == 5


def test_a_jungle_takes_away_every_number_card_of_the_lowest_value():
    assert round_score([], ["jungle-1", "R-hand-1", "B-hand-1", "G-club-3"]) == 3


def test_a_second_jungle_takes_away_the_next_lowest_value():
    assert round_score([], ["jungle-1", "jungle-2", "R-hand-1", "B-hand-1", "G-club-3", "Y-club-4"]) == 4


def test_a_jungle_left_once_no_values_remain_takes_away_the_lone_shamans():
    assert round_score([], ["jungle-1", "jungle-2", "shaman-R-1", "R-club-2", "B-club-2"]) == 0
    assert round_score([], ["jungle-1", "shaman-R-1", "shaman-B-2"]) == 0


def test_jungles_beyond_values_and_shamans_are_worth_nothing():
    assert round_score([], ["jungle-1", "jungle-2", "jungle-3", "R-club-2"]) == 0


def test_the_dudabs_pick_the_cards_that_leave_the_lowest_score_once_jungles_have_taken_theirs():
    # Making the 1 negative leaves two 4s for the Jungle: -1. Making a 4 negative would leave 4 + (-4) = 0.
    assert round_score([], ["dudab-1", "jungle-1", "R-hand-4", "B-hand-4", "G-hand-1"]) == -1


@pytest.mark.parametrize(
    "babies, penalty", [(1, 1), (2, 3), (3, 6), (4, 11), (5, 19), (6, 32), (7, 51), (8, 81)]
)
def test_babies_add_their_penalty_to_the_score(babies, penalty):
    assert round_score([], [f"baby-{i}" for i in range(1, babies + 1)]) == penalty


def test_a_full_pile_adds_up_as_worked_by_hand():
    hand = ["dudab-1", "R-hand-3"]
    own = ["shaman-R-1", "dudab-2", "B-hand-4", "B-club-4", "Y-hand-1", "jungle-1", "baby-1", "baby-2"]
    # 5 (Dudab in hand) + 0 (Dudab-Shaman) + 4 + 4 + 3 (the Jungle takes the 1) + 3 (two Babies)
    assert round_score(hand, own) == 19


def test_totals_add_the_rounds_and_the_lowest_total_ranks_first_with_ties_sharing():
    assert totals([[3, 5, 3], [1, 0, 1]], 3) == {"totals": [4, 5, 4], "ranking": [[0, 2], [1]]}
    assert totals([], 2) == {"totals": [0, 0], "ranking": [[0, 1]]}
