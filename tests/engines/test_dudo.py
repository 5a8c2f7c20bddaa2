"""Dudo: every rule and every example of the rule document, through the public interface."""

import json

import pytest

from games.base import IllegalAction
from games.dudo.rules import GAME as DUDO

DOUBT = {"type": "doubt"}


def table(hands, turn=0, **options):
    """A game where seat s holds hands[s] (seats without dice are out) and `turn` opens the round.

    Set up through dump/load, the public way to store and restore a game.
    """
    data = DUDO.dump(DUDO.new_game(len(hands), seed=1, options=options or None))
    out = [seat for seat, d in enumerate(hands) if not d]
    data.update(dice=[sorted(d) for d in hands], turn=turn, out=out)
    return DUDO.load(data)


def with_dice(state, dice):
    """The same game with the dice of this round replaced (to make a doubt's outcome known)."""
    data = DUDO.dump(state)
    data["dice"] = [sorted(d) for d in dice]
    return DUDO.load(data)


def bid(quantity, face):
    return {"type": "bid", "quantity": quantity, "face": face}


def play(state, *moves):
    """Apply (seat, action) pairs in order."""
    for seat, action in moves:
        DUDO.apply(state, seat, action)
    return state


def refused(state, seat, action, message):
    """The action raises exactly `message` and leaves the state as it was."""
    before = DUDO.dump(state)
    with pytest.raises(IllegalAction) as error:
        DUDO.apply(state, seat, action)
    assert str(error.value) == message
    assert DUDO.dump(state) == before
    assert not DUDO.is_legal(state, seat, action)


FOUR_PLAYERS = [[2, 3, 4, 5, 6]] * 4


def after(*bids):
    """Four players with five dice each; the bids are made by seats 0, 1, 2... in turn."""
    state = table(FOUR_PLAYERS)
    return play(state, *[(seat, bid(q, f)) for seat, (q, f) in enumerate(bids)])


# The document's examples -------------------------------------------------------


def test_after_seven_fours_four_ones_is_legal_and_three_ones_is_not():
    state = after((7, 4))
    assert DUDO.is_legal(state, 1, bid(4, 1))
    refused(state, 1, bid(3, 1), "After 7 fours a bid on ones needs at least 4 ones: half of 7 rounded up.")


def test_after_four_ones_five_ones_and_nine_threes_are_legal_and_eight_threes_is_not():
    state = after((7, 4), (4, 1))
    assert DUDO.is_legal(state, 2, bid(5, 1))
    assert DUDO.is_legal(state, 2, bid(9, 3))
    refused(state, 2, bid(8, 3), "After 4 ones a bid on threes needs at least 9 threes: twice 4 plus one.")


def test_after_five_fours_six_twos_seven_fours_and_five_fives_are_raises():
    state = after((5, 4))
    for quantity, face in [(6, 2), (7, 4), (5, 5)]:
        assert DUDO.is_legal(state, 1, bid(quantity, face))


def test_at_least_five_fours_is_a_fine_opening_bid():
    state = after((5, 4))
    assert DUDO.view(state, None)["bid"] == {"quantity": 5, "face": 4, "seat": 0}
    assert DUDO.to_act(state) == [1]


# Raising -------------------------------------------------------------------------


def test_the_same_quantity_of_a_lower_face_is_not_a_raise():
    message = "Your bid must raise 5 fours: more dice of any face, or 5 of a higher face."
    refused(after((5, 4)), 1, bid(5, 3), message)


def test_repeating_the_standing_bid_or_bidding_fewer_dice_is_not_a_raise():
    state = after((5, 4))
    refused(state, 1, bid(5, 4), "Your bid must raise 5 fours: bid more than 5 fours.")
    refused(state, 1, bid(4, 6), "Your bid must raise 5 fours: more dice of any face, or 5 of a higher face.")


def test_going_onto_ones_takes_half_the_quantity_rounded_up():
    assert DUDO.is_legal(after((8, 4)), 1, bid(4, 1))
    message = "After 8 fours a bid on ones needs at least 4 ones: half of 8 rounded up."
    refused(after((8, 4)), 1, bid(3, 1), message)
    refused(after((1, 6)), 1, bid(0, 1), "A bid names 1 to 20 dice: that is how many dice are on the table.")
    assert DUDO.is_legal(after((1, 6)), 1, bid(1, 1))


def test_a_bid_on_ones_is_raised_by_more_ones():
    state = after((7, 4), (4, 1))
    refused(state, 2, bid(4, 1), "Your bid must raise 4 ones: bid more than 4 ones.")
    message = "After 1 one a bid on sixes needs at least 3 sixes: twice 1 plus one."
    refused(after((2, 5), (1, 1)), 2, bid(2, 6), message)


def test_the_legal_bids_climb_one_ladder_where_q_ones_sit_just_above_2q_sixes():
    state = after((4, 6))
    bids = [(a["quantity"], a["face"]) for a in DUDO.legal_actions(state, 1) if a["type"] == "bid"]
    assert bids[:8] == [(2, 1), (5, 2), (5, 3), (5, 4), (5, 5), (5, 6), (6, 2), (6, 3)]
    assert bids[bids.index((20, 6)):][:3] == [(20, 6), (10, 1), (11, 1)]
    assert bids[-1] == (20, 1) and len(bids) == len(set(bids))


def test_a_bid_may_not_name_more_dice_than_the_table_holds():
    state = table([[2, 2], [3, 4]])
    refused(state, 0, bid(5, 2), "A bid names 1 to 4 dice: that is how many dice are on the table.")
    assert DUDO.is_legal(state, 0, bid(4, 6))


def test_a_bid_of_every_die_on_the_table_as_sixes_leaves_only_ones_or_a_doubt():
    state = play(table([[2, 2], [3, 4]]), (0, bid(4, 6)))
    assert DUDO.legal_actions(state, 1) == [bid(2, 1), bid(3, 1), bid(4, 1), DOUBT]


# Opening -------------------------------------------------------------------------


def test_doubt_is_not_an_opening_move():
    refused(table(FOUR_PLAYERS), 0, DOUBT, "There is no bid to doubt yet: open the round with a bid.")
    assert DOUBT not in DUDO.legal_actions(table(FOUR_PLAYERS), 0)


def test_the_opening_bid_may_not_be_on_ones_unless_the_table_allows_it():
    refused(table([[1, 2], [3, 4]]), 0, bid(1, 1), "The opening bid may not be on ones: bid another face.")
    assert DUDO.is_legal(table([[1, 2], [3, 4]], opening_ones=True), 0, bid(1, 1))
    assert bid(1, 1) in DUDO.legal_actions(table([[1, 2], [3, 4]], opening_ones=True), 0)


def test_the_first_starter_comes_from_the_seed():
    starters = {DUDO.to_act(DUDO.new_game(4, seed))[0] for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert DUDO.dump(DUDO.new_game(4, 9)) == DUDO.dump(DUDO.new_game(4, 9))


def test_a_drawn_first_starter_is_drawn_as_before_the_choice_existed_so_old_matches_replay():
    """Starters and dice of seeds 0-7 at four players as dealt before the option (main at 684b5fc)."""
    games = [DUDO.new_game(4, seed) for seed in range(8)]
    assert [DUDO.to_act(game)[0] for game in games] == [3, 1, 0, 1, 1, 2, 0, 2]
    assert DUDO.view(games[0], 0)["dice"] == [2, 3, 3, 4, 5]
    assert DUDO.view(games[5], 0)["dice"] == [5, 5, 5, 6, 6]


def test_with_the_first_seat_starting_seat_0_opens_whatever_the_seed():
    for seed in range(8):
        game = DUDO.new_game(4, seed, {"starter": "first_seat"})
        assert DUDO.to_act(game) == [0] and game.history[0]["starter"] == 0


def test_who_starts_is_one_of_two_choices():
    with pytest.raises(IllegalAction, match=r"Option starter must be one of \['drawn', 'first_seat'\]."):
        DUDO.new_game(4, 1, {"starter": "youngest"})


# Turns and malformed actions -----------------------------------------------------


def test_only_the_seat_whose_turn_it_is_may_act():
    state = table(FOUR_PLAYERS, turn=2)
    refused(state, 0, bid(1, 2), "It is not your turn.")
    assert DUDO.legal_actions(state, 0) == []
    play(state, (2, bid(3, 5)))
    assert DUDO.to_act(state) == [3]


BAD_BID = "A bid names a number of dice and a face from one to six."


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, "doubt", 'An action must be a JSON object with a "type".'),
        (0, None, 'An action must be a JSON object with a "type".'),
        (0, {"type": "raise"}, "Unknown action type 'raise'; expected one of bid, doubt."),
        (0, {"type": "bid", "face": 4}, BAD_BID),
        (0, {"type": "bid", "quantity": 3}, BAD_BID),
        (0, bid(3, 7), BAD_BID),
        (0, bid(3, 0), BAD_BID),
        (0, bid("3", 4), BAD_BID),
        (0, bid(3.0, 4), BAD_BID),
        (0, bid(True, 4), BAD_BID),
        (0, bid(-1, 4), "A bid names 1 to 20 dice: that is how many dice are on the table."),
        (4, bid(3, 4), "There is no seat 4 at this table."),
        (-1, bid(3, 4), "There is no seat -1 at this table."),
        (True, bid(3, 4), "There is no seat True at this table."),
    ],
)
def test_malformed_actions_are_refused_with_a_message_and_change_nothing(seat, action, message):
    refused(table(FOUR_PLAYERS), seat, action, message)


# Doubting ------------------------------------------------------------------------


def test_ones_are_wild_so_a_doubt_of_a_true_bid_costs_the_doubter_a_die_and_the_doubter_starts():
    state = play(table([[1, 4, 6], [1, 4, 5]]), (0, bid(4, 4)), (1, DOUBT))
    doubt = DUDO.view(state, None)["history"][-2]
    assert doubt == {
        "type": "doubt", "seat": 1, "bidder": 0, "quantity": 4, "face": 4,
        "count": 4, "loser": 1, "dice": [[1, 4, 6], [1, 4, 5]],
    }
    assert DUDO.view(state, None)["dice_counts"] == [3, 2]
    assert DUDO.to_act(state) == [1]


def test_a_doubt_of_a_false_bid_costs_the_bidder_a_die_and_the_bidder_starts():
    state = play(table([[1, 4, 6], [1, 4, 5]]), (0, bid(5, 4)), (1, DOUBT))
    assert DUDO.view(state, None)["history"][-2]["loser"] == 0
    assert DUDO.view(state, None)["dice_counts"] == [2, 3]
    assert DUDO.to_act(state) == [0]


def test_ones_do_not_count_twice_in_a_bid_on_ones():
    state = play(table([[1, 4, 6], [1, 1, 5]], opening_ones=True), (0, bid(3, 1)), (1, DOUBT))
    assert DUDO.view(state, None)["history"][-2]["count"] == 3
    assert DUDO.view(state, None)["dice_counts"] == [3, 2]


def test_a_doubt_reveals_the_dice_and_a_new_round_is_rolled_from_the_state_generator():
    state = play(table([[2, 2, 2], [3, 3, 3]]), (0, bid(2, 2)), (1, DOUBT))
    events = DUDO.view(state, 0)["history"]
    assert [e["type"] for e in events[-3:]] == ["bid", "doubt", "round"]
    assert events[-1] == {
        "type": "round", "round": 2, "starter": 1,
        "palifico": False, "ones_wild": True, "dice_counts": [3, 2],
    }
    assert DUDO.view(state, 0)["round"] == 2 and DUDO.view(state, 0)["bid"] is None
    again = play(table([[2, 2, 2], [3, 3, 3]]), (0, bid(2, 2)), (1, DOUBT))
    assert DUDO.dump(again) == DUDO.dump(state)


def test_a_player_without_dice_is_out_and_the_next_seat_with_dice_starts():
    state = play(table([[2, 3], [5], [4, 4], [3, 6]], turn=1), (1, bid(3, 6)), (2, DOUBT))
    view = DUDO.view(state, None)
    assert view["out"] == [1] and view["dice_counts"] == [2, 0, 2, 2]
    assert view["history"][-2] == {"type": "out", "seat": 1}
    assert DUDO.to_act(state) == [2]


def test_when_the_eliminated_loser_is_followed_by_a_seat_already_out_the_seat_after_that_starts():
    state = play(table([[2], [], [4, 4], [3, 6]], turn=3), (3, bid(1, 2)), (0, DOUBT))
    assert DUDO.view(state, None)["out"] == [1, 0]
    assert DUDO.to_act(state) == [2]
    assert DUDO.legal_actions(state, 0) == [] and DUDO.legal_actions(state, 1) == []


def test_bids_pass_over_seats_that_are_out():
    state = table([[2], [], [4, 4], [3, 6]])
    assert DUDO.to_act(play(state, (0, bid(1, 4)))) == [2]
    refused(state, 1, bid(2, 4), "It is not your turn.")


def test_the_last_player_with_dice_wins_and_the_others_rank_by_elimination():
    state = table([[5], [2], [2]])
    play(state, (0, bid(3, 6)), (1, DOUBT))
    play(state, (1, bid(2, 6)), (2, DOUBT))
    assert DUDO.is_over(state) and DUDO.to_act(state) == []
    assert DUDO.result(state) == {"ranking": [[2], [1], [0]], "scores": {"0": 0, "1": 0, "2": 1}}
    view = DUDO.view(state, 1)
    assert view["is_over"] and view["result"] == DUDO.result(state) and view["to_act"] == []
    refused(state, 2, bid(1, 2), "The game is over.")
    assert DUDO.legal_actions(state, 2) == []


# One-die rounds --------------------------------------------------------------------


def test_first_coming_down_to_one_die_makes_the_next_round_a_palifico_round():
    state = play(table([[5, 5], [2, 3], [2, 2]]), (0, bid(5, 6)), (1, DOUBT))
    view = DUDO.view(state, 0)
    assert view["dice_counts"] == [1, 2, 2] and view["palifico"] is True and view["ones_wild"] is False
    assert view["history"][-1]["palifico"] is True
    assert DUDO.to_act(state) == [0]


def test_in_a_palifico_round_only_single_die_players_may_change_the_face():
    state = play(table([[5, 5], [2, 3], [2, 2], [6]]), (0, bid(5, 6)), (1, DOUBT))
    play(state, (0, bid(1, 3)))
    refused(
        state, 1, bid(2, 4),
        "In a one-die round only players with a single die may change the face: bid more than 1 threes.",
    )
    assert [a for a in DUDO.legal_actions(state, 1) if a["type"] == "bid"][0] == bid(2, 3)
    assert all(a["face"] == 3 for a in DUDO.legal_actions(state, 1) if a["type"] == "bid")
    play(state, (1, bid(2, 3)), (2, bid(3, 3)))
    play(state, (3, bid(3, 5)))
    assert DUDO.view(state, None)["bid"] == {"quantity": 3, "face": 5, "seat": 3}


def test_ones_are_not_wild_in_a_palifico_round_and_are_the_lowest_ordinary_face():
    state = play(table([[5, 5], [1, 1]]), (0, bid(4, 6)), (1, DOUBT))
    assert DUDO.view(state, 0)["palifico"] is True
    state = with_dice(state, [[1], [1, 3]])
    assert DUDO.is_legal(state, 0, bid(1, 1))
    play(state, (0, bid(1, 3)))
    refused(
        state, 1, bid(1, 1),
        "In a one-die round only players with a single die may change the face: bid more than 1 threes.",
    )
    play(state, (1, bid(2, 3)), (0, DOUBT))
    assert DUDO.view(state, None)["history"][-2]["count"] == 1


def test_without_wild_ones_a_bid_on_ones_ranks_below_other_faces_of_the_same_quantity():
    state = play(table([[5, 5], [1], [3]]), (0, bid(4, 6)), (1, DOUBT))
    state = play(with_dice(state, [[4], [1], [3]]), (0, bid(2, 3)))
    message = "Your bid must raise 2 threes: more dice of any face, or 2 of a higher face."
    refused(state, 1, bid(2, 1), message)
    assert DUDO.is_legal(state, 1, bid(3, 1))


def test_the_table_may_keep_ones_wild_in_palifico_rounds():
    state = play(table([[5, 5], [1, 1]], palifico_wild=True), (0, bid(4, 6)), (1, DOUBT))
    assert DUDO.view(state, 0)["ones_wild"] is True
    state = with_dice(state, [[1], [1, 3]])
    refused(state, 0, bid(1, 1), "The opening bid may not be on ones: bid another face.")
    play(state, (0, bid(3, 3)), (1, DOUBT))
    assert DUDO.view(state, None)["history"][-2]["count"] == 3


def test_the_round_after_a_palifico_round_is_ordinary_unless_someone_else_comes_down():
    state = play(table([[5, 5], [2, 3, 3], [2, 2, 2]]), (0, bid(5, 6)), (1, DOUBT))
    state = play(with_dice(state, [[4], [2, 3, 3], [2, 2, 2]]), (0, bid(1, 4)), (1, DOUBT))
    view = DUDO.view(state, None)
    assert view["dice_counts"] == [1, 2, 3] and view["palifico"] is False and view["ones_wild"] is True


def test_a_second_player_coming_down_to_one_die_brings_another_palifico():
    state = table([[5], [2, 3], [2, 2]], turn=1)
    play(state, (1, bid(5, 6)), (2, DOUBT))
    assert DUDO.view(state, None)["dice_counts"] == [1, 1, 2]
    assert DUDO.view(state, None)["palifico"] is True and DUDO.to_act(state) == [1]


def test_a_player_who_starts_with_a_single_die_never_comes_down_to_one():
    state = play(table([[5], [2], [3]], dice=1), (0, bid(2, 6)), (1, DOUBT))
    assert DUDO.view(state, None)["palifico"] is False and DUDO.view(state, None)["out"] == [0]


# Timeouts, views, copies ------------------------------------------------------------


def test_on_timeout_a_likely_bid_is_raised_not_doubted_and_an_unlikely_one_is_doubted():
    """Issue 35: a timeout used to call "Dudo!" on "1 two" with twenty dice on the table."""
    state = table(FOUR_PLAYERS)
    opening = DUDO.default_action(state, 0)
    assert opening["type"] == "bid" and DUDO.is_legal(state, 0, opening)
    assert DUDO.default_action(state, 1) is None
    play(state, (0, bid(1, 2)))
    raised = DUDO.default_action(state, 1)
    assert raised["type"] == "bid" and DUDO.is_legal(state, 1, raised)
    play(state, (1, bid(20, 6)))  # twenty sixes: seat 2 holds one six and no ones
    assert DUDO.default_action(state, 2) == DOUBT
    one_die = play(table([[5, 5], [2, 3]]), (0, bid(4, 6)), (1, DOUBT))
    assert DUDO.default_action(one_die, 0)["type"] == "bid"


def test_a_seat_sees_its_own_dice_and_only_the_counts_of_the_others():
    state = play(table([[1, 4, 6], [2, 5, 5]], turn=1), (1, bid(2, 5)))
    view = DUDO.view(state, 0)
    assert view == {
        "game": "dudo", "seat": 0, "players": 2, "to_act": [0], "is_over": False, "result": None,
        "history": view["history"], "dice": [1, 4, 6], "dice_counts": [3, 3], "total_dice": 6,
        "bid": {"quantity": 2, "face": 5, "seat": 1}, "round": 1, "palifico": False, "ones_wild": True,
        "out": [], "options": {"opening_ones": False, "palifico_wild": False, "dice": 5, "starter": "drawn"},
    }
    assert view["history"][-1] == {"type": "bid", "seat": 1, "quantity": 2, "face": 5}
    assert DUDO.view(state, 1)["dice"] == [2, 5, 5]
    spectator = DUDO.view(state, None)
    assert spectator["dice"] is None and spectator["seat"] is None
    assert "2, 5, 5" not in json.dumps(DUDO.view(state, 0)) and "1, 4, 6" not in json.dumps(spectator)


def test_legal_actions_are_shared_read_only_dicts_that_still_serialise_and_compare():
    actions = DUDO.legal_actions(after((3, 4)), 1)
    assert json.loads(json.dumps(actions))[-1] == DOUBT
    with pytest.raises(TypeError, match="read-only"):
        actions[0]["quantity"] = 99
    assert {**actions[0], "note": 1} == {"type": "bid", "quantity": 3, "face": 5, "note": 1}
    assert DUDO.legal_actions(after((3, 4)), 1)[0] == bid(3, 5)


def test_a_clone_is_independent_and_rolls_what_the_original_would_roll():
    state = play(table([[2, 2, 2], [3, 3, 3]]), (0, bid(2, 6)))
    copy = DUDO.clone(state)
    assert DUDO.dump(copy) == DUDO.dump(state)
    play(copy, (1, DOUBT))
    assert DUDO.view(state, None)["bid"] == {"quantity": 2, "face": 6, "seat": 0}
    play(state, (1, DOUBT))
    assert DUDO.dump(copy) == DUDO.dump(state)
    play(copy, (0, bid(1, 2)), (1, DOUBT))
    assert DUDO.dump(copy) != DUDO.dump(state)


def test_dump_and_load_round_trip_through_json():
    state = play(table(FOUR_PLAYERS), (0, bid(3, 4)), (1, DOUBT))
    dumped = DUDO.dump(state)
    assert DUDO.dump(DUDO.load(json.loads(json.dumps(dumped)))) == dumped


def test_the_options_are_described_and_checked():
    assert DUDO.describe()["options"]["dice"]["default"] == 5
    with pytest.raises(IllegalAction, match="Option dice must be at least 1."):
        DUDO.new_game(2, seed=1, options={"dice": 0})
    assert DUDO.view(DUDO.new_game(3, seed=1, options={"dice": 2}), 0)["dice_counts"] == [2, 2, 2]
