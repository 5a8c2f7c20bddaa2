"""The five mini-games: set-up, play, end and ranking, and the tiebreak duels."""

import pytest

from games.base import IllegalAction
from games.dobble.points import points
from games.dobble.rules import GAME
from tests.engines.test_dobble_helpers import (
    all_cards,
    cards_in,
    claim,
    face_up_cards,
    play_right,
    right_claim,
)


def view(state, seat=None):
    return GAME.view(state, seat)


def message_of(state, seat, action):
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    return str(error.value)


# The towering inferno --------------------------------------------------------


def test_towering_inferno_deals_one_face_up_card_each_and_a_pile_with_its_top_face_up():
    state = GAME.new_game(3, 2)
    seen = view(state)
    assert [seat["cards"] for seat in seen["seats"]] == [1, 1, 1]
    assert seen["pile"]["count"] == 52 and seen["pile"]["top"] is not None
    assert all(seat["top"] is not None for seat in seen["seats"])


def test_towering_inferno_a_right_claim_puts_the_pile_card_on_your_card():
    state = GAME.new_game(2, 2)
    pile_top = view(state)["pile"]["top"]
    play_right(state, 1, "pile")
    seen = view(state)
    assert seen["seats"][1]["top"] == pile_top and seen["seats"][1]["cards"] == 2
    assert seen["pile"]["count"] == 52


def test_towering_inferno_ends_when_the_pile_is_empty_and_the_most_cards_win():
    state = GAME.new_game(2, 2)
    for turn in range(53):
        play_right(state, 0 if turn < 30 else 1, "pile", at_ms=turn)
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result == {
        "ranking": [[0], [1]],
        "scores": {"0": 30, "1": 23},
        "details": {"mini_game": "towering-inferno", "tiebreaks": []},
    }
    assert points("towering-inferno", result) == {"0": 35, "1": 23}


def test_a_tie_for_the_most_cards_is_settled_by_a_duel_between_the_tied_seats():
    state = GAME.new_game(3, 6)
    for turn in range(52):
        play_right(state, turn % 2, "pile", at_ms=turn)
    seen = view(state, 2)
    assert (seen["phase"], seen["tie"], seen["to_act"]) == ("tiebreak", [0, 1], [0, 1])
    assert [seat["score"] for seat in seen["seats"]] == [26, 26, 0]
    assert [seat["cards"] for seat in seen["seats"]] == [1, 1, 0]
    assert message_of(state, 2, claim(0, 0, at_ms=60)) == (
        "Only the tied players play this tiebreak: wait for the next game."
    )
    play_right(state, 1, 0, at_ms=70)
    result = GAME.result(state)
    assert result["ranking"] == [[1], [0], [2]]
    assert result["details"]["tiebreaks"] == [[1, 0]]
    assert points("towering-inferno", result) == {"0": 26, "1": 31, "2": 0}


def test_three_tied_seats_play_a_round_of_hot_potato_and_finish_in_the_order_they_pass_their_cards():
    state = GAME.new_game(4, 6)
    for turn in range(51):
        play_right(state, turn % 3, "pile", at_ms=turn)
    assert view(state)["tie"] == [0, 1, 2]
    assert message_of(state, 1, claim(0, 3, at_ms=99)) == (
        "That card cannot be matched now. "
        "In a tiebreak you match another tied player who still holds a card (target: their seat)."
    )
    play_right(state, 2, 0, at_ms=100)
    seen = view(state)
    assert [seat["cards"] for seat in seen["seats"]] == [2, 1, 0, 0]
    assert message_of(state, 2, claim(0, 1, at_ms=101)) == (
        "You have passed your card on: you are through this tiebreak."
    )
    play_right(state, 1, 0, at_ms=102)
    assert GAME.result(state)["ranking"] == [[2], [1], [0], [3]]


def test_ties_below_the_top_are_settled_too_best_places_first():
    state = GAME.new_game(4, 6)
    for turn in range(51):
        play_right(state, [0, 0, 0, 1, 2][turn % 5] if turn < 45 else 3, "pile", at_ms=turn)
    assert view(state)["result"] is None
    scores = [seat["score"] for seat in view(state)["seats"]]
    assert scores == [27, 9, 9, 6]
    assert view(state)["tie"] == [1, 2]
    play_right(state, 2, 1, at_ms=99)
    assert GAME.result(state)["ranking"] == [[0], [2], [1], [3]]


# The well --------------------------------------------------------------------


def test_the_well_deals_54_cards_from_the_last_winner_and_one_face_up_in_the_middle():
    state = GAME.new_game(4, 3, {"mini_game": "the-well", "last_winner": 2})
    seen = view(state)
    assert [seat["cards"] for seat in seen["seats"]] == [13, 13, 14, 14]
    assert seen["middle"]["count"] == 1 and seen["middle"]["top"] is not None
    assert len(face_up_cards(state)) == 5


def test_the_well_a_right_claim_puts_your_top_card_on_the_middle():
    state = GAME.new_game(2, 3, {"mini_game": "the-well"})
    own_top = view(state)["seats"][0]["top"]
    play_right(state, 0, "middle")
    seen = view(state)
    assert seen["middle"]["top"] == own_top and seen["middle"]["count"] == 2
    assert seen["seats"][0]["cards"] == 26


def test_the_well_ends_when_one_seat_alone_holds_cards_and_seats_rank_in_the_order_they_went_out():
    state = GAME.new_game(3, 3, {"mini_game": "the-well"})
    at_ms = 0
    for seat in (1, 2):
        while view(state)["seats"][seat]["cards"]:
            at_ms += 1
            play_right(state, seat, "middle", at_ms=at_ms)
    assert GAME.is_over(state)
    assert [event["seat"] for event in view(state)["history"] if event["type"] == "out"] == [1, 2]
    result = GAME.result(state)
    assert result["ranking"] == [[1], [2], [0]]
    assert result["details"]["out_order"] == [1, 2, 0]
    assert result["scores"] == {"0": 18, "1": 0, "2": 0}
    assert points("the-well", result) == {"0": -20, "1": 10, "2": 0}


def test_a_seat_out_of_the_well_may_not_claim():
    state = GAME.new_game(3, 3, {"mini_game": "the-well"})
    for at_ms in range(18):
        play_right(state, 1, "middle", at_ms=at_ms)
    assert message_of(state, 1, claim(0, "middle", at_ms=20)) == (
        "You have got rid of all your cards: you are out of the well."
    )
    assert GAME.to_act(state) == [0, 2]


# Hot potato ------------------------------------------------------------------


def test_hot_potato_deals_one_open_card_each_and_keeps_the_rest_face_down():
    state = GAME.new_game(3, 4, {"mini_game": "hot-potato"})
    seen = view(state)
    assert (seen["round"], seen["rounds"]) == (1, 18)
    assert [seat["cards"] for seat in seen["seats"]] == [1, 1, 1]
    assert seen["pile"] == {"count": 52, "top": None}


def test_hot_potato_a_right_claim_puts_all_your_cards_on_the_target():
    state = GAME.new_game(3, 4, {"mini_game": "hot-potato"})
    own_top = view(state)["seats"][0]["top"]
    play_right(state, 0, 2)
    seen = view(state)
    assert [seat["cards"] for seat in seen["seats"]] == [0, 1, 2]
    assert seen["seats"][2]["top"] == own_top
    assert (
        message_of(state, 0, claim(0, 1, at_ms=1)) == "You hold no card in this round: wait for the next one."
    )
    assert message_of(state, 1, claim(0, 0, at_ms=1)) == (
        "That card cannot be matched now. "
        "In hot potato you match the card of another player who still holds cards (target: their seat)."
    )


def test_hot_potato_the_last_holder_loses_the_round_and_a_new_round_is_dealt():
    state = GAME.new_game(3, 4, {"mini_game": "hot-potato"})
    play_right(state, 0, 2)
    play_right(state, 1, 2, at_ms=5)
    seen = view(state)
    assert seen["round"] == 2
    assert [seat["cards"] for seat in seen["seats"]] == [1, 1, 1]
    assert [seat["rounds_lost"] for seat in seen["seats"]] == [0, 0, 1]
    assert [seat["score"] for seat in seen["seats"]] == [0, 0, 3]
    assert seen["history"][-2:] == [
        {"type": "round-lost", "round": 1, "seat": 2, "cards": 3, "at_ms": 5},
        {"type": "round", "round": 2, "at_ms": 5},
    ]


def test_hot_potato_plays_the_rounds_of_the_option_and_the_fewest_cards_win():
    state = GAME.new_game(2, 4, {"mini_game": "hot-potato", "hot_potato_rounds": 5})
    for round_ in range(5):
        play_right(state, 0 if round_ < 4 else 1, 1 if round_ < 4 else 0, at_ms=round_)
    assert GAME.is_over(state)
    result = GAME.result(state)
    assert result["ranking"] == [[0], [1]]
    assert result["scores"] == {"0": 2, "1": 8}
    assert result["details"]["rounds_lost"] == {"0": 1, "1": 4}
    assert points("hot-potato", result) == {"0": -5, "1": -20}


def test_hot_potato_without_the_option_plays_until_the_cards_run_out():
    state = GAME.new_game(8, 4, {"mini_game": "hot-potato"})
    assert view(state)["rounds"] == 6
    state = GAME.new_game(2, 4, {"mini_game": "hot-potato"})
    for round_ in range(27):
        play_right(state, 0, 1, at_ms=round_)
    assert GAME.result(state)["scores"] == {"0": 0, "1": 54}


# Gotta catch them all --------------------------------------------------------


def test_gotta_catch_them_all_lays_a_middle_card_and_one_revealed_card_per_seat():
    state = GAME.new_game(3, 5, {"mini_game": "gotta-catch-them-all"})
    seen = view(state)
    assert seen["middle"]["count"] == 1 and len(seen["revealed"]) == 3
    assert seen["pile"] == {"count": 51, "top": None}


def test_gotta_catch_them_all_a_right_claim_wins_the_revealed_card_never_the_middle():
    state = GAME.new_game(3, 5, {"mini_game": "gotta-catch-them-all"})
    assert message_of(state, 0, claim(0, "middle")) == (
        "That card cannot be matched now. In gotta catch them all you match the middle card with one of the "
        "revealed cards still on the table (target: the index of that card)."
    )
    play_right(state, 0, 1)
    seen = view(state)
    assert seen["revealed"][1] is None and seen["seats"][0]["score"] == 1
    assert message_of(state, 1, claim(0, 1, at_ms=1)).startswith("That card cannot be matched now.")


def test_gotta_catch_them_all_puts_the_middle_card_under_the_pile_and_starts_a_new_round():
    state = GAME.new_game(2, 5, {"mini_game": "gotta-catch-them-all"})
    middle = view(state)["middle"]["top"]["card"]
    play_right(state, 0, 0)
    play_right(state, 1, 1)
    seen = view(state)
    assert seen["round"] == 2 and seen["pile"]["count"] == 50
    assert seen["middle"]["top"]["card"] != middle
    assert GAME.dump(state)["pile"][0] == middle


def test_gotta_catch_them_all_ends_when_no_round_can_be_laid_out_and_the_most_cards_win():
    state = GAME.new_game(3, 5, {"mini_game": "gotta-catch-them-all"})
    at_ms = 0
    while not GAME.is_over(state):
        at_ms += 1
        targets = [index for index, card in enumerate(view(state)["revealed"]) if card is not None]
        play_right(state, 2 if at_ms % 4 else 0, targets[0], at_ms=at_ms)
    result = GAME.result(state)
    assert sum(result["scores"].values()) == 54
    assert result["scores"] == {"0": 13, "1": 0, "2": 41}
    assert result["ranking"] == [[2], [0], [1]]
    assert GAME.dump(state)["pile"] != [] and len(GAME.dump(state)["pile"]) == 1
    assert points("gotta-catch-them-all", result) == {"0": 13, "1": 0, "2": 41}


# The poisoned gift -------------------------------------------------------------


def test_the_poisoned_gift_gives_the_pile_card_to_another_player_never_to_yourself():
    state = GAME.new_game(3, 7, {"mini_game": "poisoned-gift"})
    assert message_of(state, 0, claim(0, 0)) == (
        "That card cannot be matched now. "
        "In the poisoned gift you give the pile card to another player (target: their seat)."
    )
    pile_top = view(state)["pile"]["top"]
    play_right(state, 0, 2)
    seen = view(state)
    assert seen["seats"][2]["top"] == pile_top and seen["seats"][2]["score"] == 1


def test_the_poisoned_gift_ends_when_the_pile_is_empty_and_the_fewest_cards_win():
    state = GAME.new_game(3, 7, {"mini_game": "poisoned-gift"})
    for turn in range(52):
        play_right(state, 0, 1 if turn < 40 else 2, at_ms=turn)
    result = GAME.result(state)
    assert result["scores"] == {"0": 0, "1": 40, "2": 12}
    assert result["ranking"] == [[0], [2], [1]]
    assert points("poisoned-gift", result) == {"0": 20, "1": 0, "2": 10}


@pytest.mark.parametrize(
    "mini_game", ["towering-inferno", "the-well", "hot-potato", "gotta-catch-them-all", "poisoned-gift"]
)
@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_set_up_holds_all_55_cards_and_shows_only_face_up_ones(mini_game, players):
    state = GAME.new_game(players, 11, {"mini_game": mini_game})
    assert all_cards(state) == list(range(55))
    assert cards_in(view(state)) == face_up_cards(state)
    assert right_claim(state, 0, GAME.legal_actions(state, 0)[0]["target"]) in GAME.legal_actions(state, 0)
