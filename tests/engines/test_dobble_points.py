"""Tournament points of each mini-game (ties included) and who chooses the next mini-game."""

import pytest

from games.dobble.points import SERIES_OPENER, next_chooser, points


def result(ranking, scores, **details):
    return {
        "ranking": ranking,
        "scores": {str(seat): value for seat, value in scores.items()},
        "details": details,
    }


def test_towering_inferno_gives_one_point_per_card_and_five_to_the_winner():
    assert points("towering-inferno", result([[2], [0], [1]], {0: 20, 1: 13, 2: 20})) == {
        "0": 20,
        "1": 13,
        "2": 25,
    }


def test_towering_inferno_seats_still_tied_for_first_all_get_the_five_points():
    assert points("towering-inferno", result([[0, 1], [2]], {0: 20, 1: 20, 2: 11})) == {
        "0": 25,
        "1": 25,
        "2": 11,
    }


def test_the_well_gives_ten_to_the_first_out_and_takes_twenty_from_the_last():
    scores = {0: 0, 1: 0, 2: 0, 3: 5}
    assert points("the-well", result([[1], [0], [2], [3]], scores)) == {"0": 0, "1": 10, "2": 0, "3": -20}


def test_the_well_with_two_players_is_plus_ten_and_minus_twenty():
    assert points("the-well", result([[1], [0]], {0: 3, 1: 0})) == {"0": -20, "1": 10}


def test_the_poisoned_gift_gives_twenty_to_the_fewest_cards_and_ten_to_the_second():
    scores = {0: 12, 1: 3, 2: 30, 3: 7}
    assert points("poisoned-gift", result([[1], [3], [0], [2]], scores)) == {"0": 0, "1": 20, "2": 0, "3": 10}


def test_the_poisoned_gift_after_a_shared_first_place_nobody_is_second():
    scores = {0: 5, 1: 5, 2: 9}
    assert points("poisoned-gift", result([[0, 1], [2]], scores)) == {"0": 20, "1": 20, "2": 0}


def test_the_poisoned_gift_seats_tied_for_second_all_get_ten():
    scores = {0: 1, 1: 5, 2: 5}
    assert points("poisoned-gift", result([[0], [1, 2]], scores)) == {"0": 20, "1": 10, "2": 10}


def test_hot_potato_takes_five_points_per_lost_round():
    outcome = result([[1], [0], [2]], {0: 6, 1: 3, 2: 9}, rounds_lost={"0": 2, "1": 1, "2": 3})
    assert points("hot-potato", outcome) == {"0": -10, "1": -5, "2": -15}


def test_gotta_catch_them_all_gives_one_point_per_card():
    assert points("gotta-catch-them-all", result([[0], [1]], {0: 30, 1: 24})) == {"0": 30, "1": 24}


def test_an_unknown_mini_game_has_no_points():
    with pytest.raises(ValueError, match="no Dobble mini-game called 'snap'"):
        points("snap", result([[0], [1]], {0: 1, 1: 2}))


def test_the_series_opens_with_the_towering_inferno_and_the_loser_chooses_the_next_mini_game():
    assert SERIES_OPENER == "towering-inferno"
    assert next_chooser(result([[2], [0], [1]], {0: 1, 1: 0, 2: 3})) == 1
