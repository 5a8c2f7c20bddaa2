"""Dubito rules: the deal, the four rows, drawing, dropping out, the end, scoring, views."""

import json
from collections import Counter

import pytest

from games.base import IllegalAction
from games.cards import decks
from games.dubito.bots import HeuristicBot
from games.engine import get_game

DUBITO = get_game("dubito")
EMPTY = [[], [], [], []]


def table(hands, rows=None, pile=None, turn=0, out=(), **options):
    """A game at a chosen position, built through dump/load so it is a state the engine accepts."""
    data = DUBITO.dump(DUBITO.new_game(len(hands), seed=3, options=options or None))
    data.update(
        hands=[list(hand) for hand in hands],
        rows=[[list(row) for row in rows_of_seat] for rows_of_seat in (rows or [EMPTY] * len(hands))],
        pile=list(data["pile"] if pile is None else pile),
        turn=turn,
        out=list(out),
        history=[],
    )
    return DUBITO.load(data)


def play(card, row):
    return {"type": "play", "card": card, "row": row}


def refused(state, seat, action, message):
    before = DUBITO.dump(state)
    with pytest.raises(IllegalAction) as error:
        DUBITO.apply(state, seat, action)
    assert str(error.value) == message
    assert DUBITO.dump(state) == before
    assert not DUBITO.is_legal(state, seat, action)


# The deal ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "cards"), [(1, 104), (2, 104), (4, 104), (5, 156), (6, 156)])
def test_the_deal_gives_eight_cards_each_from_two_decks_up_to_four_players_and_three_from_five(
    players, cards
):
    state = DUBITO.new_game(players, seed=1)
    view = DUBITO.view(state, None)
    assert view["hand_counts"] == [8] * players
    assert view["pile"] + 8 * players == cards
    everything = Counter(state.pile) + sum((Counter(hand) for hand in state.hands), Counter())
    assert everything == Counter(decks(cards // 52))


def test_the_seat_left_of_the_dealer_plays_first_and_the_dealer_is_the_last_seat():
    assert DUBITO.to_act(DUBITO.new_game(4, seed=9)) == [0]


def test_the_deal_comes_from_the_seed():
    assert DUBITO.dump(DUBITO.new_game(3, seed=11)) == DUBITO.dump(DUBITO.new_game(3, seed=11))
    assert DUBITO.new_game(3, seed=11).hands != DUBITO.new_game(3, seed=12).hands


def test_the_table_refuses_an_option_value_it_does_not_know():
    with pytest.raises(IllegalAction, match=r"Option ascending must be one of \['strict', 'equal'\]."):
        DUBITO.new_game(2, seed=1, options={"ascending": "loose"})
    with pytest.raises(IllegalAction, match="Dubito takes 1 to 6 players, not 7."):
        DUBITO.new_game(7, seed=1)


# The rows ------------------------------------------------------------------


def test_the_first_card_of_an_empty_row_is_always_allowed():
    hand = ["KS", "AH", "7D", "7D", "QC", "2S", "TH", "5C"]
    state = table([hand, ["AS"] * 8])
    legal = DUBITO.legal_actions(state, 0)
    assert len(legal) == 7 * 4  # the two 7D are one choice
    assert {(a["card"], a["row"]) for a in legal} == {(card, row) for card in hand for row in (1, 2, 3, 4)}


@pytest.mark.parametrize(
    ("row", "last", "fits", "misfits"),
    [
        (1, "5H", ["6C", "KS", "6H"], ["5D", "2H", "AS"]),
        (2, "5H", ["AH", "KH", "5H"], ["5S", "6D"]),
        (3, "5H", ["6H", "QH"], ["4H", "6S", "5H"]),
        (4, "5H", ["5S", "5H", "5C"], ["6H", "4H"]),
    ],
)
def test_each_row_takes_only_the_cards_its_rule_allows(row, last, fits, misfits):
    rows = [[], [], [], []]
    rows[row - 1] = [last]
    state = table([fits + misfits, ["AS"] * 8], [rows, EMPTY])
    for card in fits:
        assert DUBITO.is_legal(state, 0, play(card, row))
    for card in misfits:
        assert not DUBITO.is_legal(state, 0, play(card, row))


def test_aces_are_low_and_kings_high_in_the_rising_rows():
    state = table([["KS", "AS", "KC"], ["AS"] * 8], [[["AD"], [], ["AS"], ["QD"]], EMPTY])
    assert DUBITO.is_legal(state, 0, play("KS", 1)) and DUBITO.is_legal(state, 0, play("KS", 3))
    state = table([["AS", "AD"], ["AS"] * 8], [[["KD"], [], ["KS"], []], EMPTY])
    assert not DUBITO.is_legal(state, 0, play("AS", 1)) and not DUBITO.is_legal(state, 0, play("AS", 3))


def test_the_same_rank_row_holds_all_kings_or_all_eights():
    state = table([["KH", "8H"], ["AS"] * 8], [[[], [], [], ["KS", "KD"]], EMPTY])
    assert DUBITO.is_legal(state, 0, play("KH", 4)) and not DUBITO.is_legal(state, 0, play("8H", 4))
    state = table([["KH", "8H"], ["AS"] * 8], [[[], [], [], ["8C"]], EMPTY])
    assert DUBITO.is_legal(state, 0, play("8H", 4)) and not DUBITO.is_legal(state, 0, play("KH", 4))


def test_a_row_follows_its_last_card():
    state = table([["9H", "3H"], ["AS"] * 8], [[["2C", "8D"], [], ["2H", "8H"], []], EMPTY])
    assert DUBITO.is_legal(state, 0, play("9H", 1)) and DUBITO.is_legal(state, 0, play("9H", 3))
    assert not DUBITO.is_legal(state, 0, play("3H", 1)) and not DUBITO.is_legal(state, 0, play("3H", 3))


SIX_ON_FIVE = "The six of spades cannot follow the five of hearts in row"


@pytest.mark.parametrize(
    ("row", "card", "message"),
    [
        (1, "4H", "The four of hearts cannot follow the five of hearts in row 1: that row needs a higher rank."),
        (2, "6S", f"{SIX_ON_FIVE} 2: that row needs the same suit."),
        (3, "6S", f"{SIX_ON_FIVE} 3: that row needs the same suit and a higher rank."),
        (4, "6S", f"{SIX_ON_FIVE} 4: that row needs the same rank."),
    ],
)
def test_a_refused_card_says_what_the_row_needs(row, card, message):
    state = table([[card, "KH"], ["AS"] * 8], [[["5H"], ["5H"], ["5H"], ["5H"]], EMPTY])
    refused(state, 0, play(card, row), message)


def test_equal_ranks_may_follow_each_other_in_the_rising_rows_only_when_the_table_says_so():
    rows = [[["5H"], [], ["5H"], []], EMPTY]
    strict = table([["5D", "5H"], ["AS"] * 8], rows)
    refused(
        strict,
        0,
        play("5H", 3),
        "The five of hearts cannot follow the five of hearts in row 3: that row needs the same suit and a higher rank.",
    )
    assert not DUBITO.is_legal(strict, 0, play("5D", 1))
    equal = table([["5D", "5H"], ["AS"] * 8], rows, ascending="equal")
    assert DUBITO.is_legal(equal, 0, play("5D", 1)) and DUBITO.is_legal(equal, 0, play("5H", 3))
    refused(
        equal,
        0,
        play("5D", 3),
        "The five of diamonds cannot follow the five of hearts in row 3: "
        "that row needs the same suit and a higher or equal rank.",
    )


# Refused actions -------------------------------------------------------------


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (0, "play", 'An action must be a JSON object with a "type".'),
        (0, {"type": "draw"}, "Unknown action type 'draw'; expected one of play."),
        (2, play("2C", 1), "There is no seat 2 at this table."),
        (1, play("2C", 1), "It is not your turn."),
        (0, {"type": "play", "row": 1}, 'None is not a card: write rank then suit, e.g. "7H" or "TD".'),
        (0, play("10H", 1), '\'10H\' is not a card: write rank then suit, e.g. "7H" or "TD".'),
        (0, play("2c", 1), '\'2c\' is not a card: write rank then suit, e.g. "7H" or "TD".'),
        (0, {"type": "play", "card": "2C"}, "Choose row 1, 2, 3 or 4, not None."),
        (0, play("2C", 5), "Choose row 1, 2, 3 or 4, not 5."),
        (0, play("2C", "1"), "Choose row 1, 2, 3 or 4, not '1'."),
        (0, play("2C", True), "Choose row 1, 2, 3 or 4, not True."),
        (0, play("2C", 1.0), "Choose row 1, 2, 3 or 4, not 1.0."),
        (0, play("KS", 1), "You do not hold the king of spades."),
    ],
)
def test_malformed_or_out_of_turn_actions_are_refused_with_a_message_and_change_nothing(
    seat, action, message
):
    state = table([["2C"] * 8, ["AS"] * 8])
    refused(state, seat, action, message)


# A turn ----------------------------------------------------------------------


def test_a_play_lays_the_card_draws_the_top_of_the_pile_and_passes_the_turn():
    state = table([["2C", "3C"], ["AS", "AS"]], pile=["9D", "JH"])
    DUBITO.apply(state, 0, play("2C", 4))
    view = DUBITO.view(state, 0)
    assert view["hand"] == ["JH", "3C"] and view["rows"][0] == [[], [], [], ["2C"]]
    assert view["pile"] == 1 and view["to_act"] == [1]
    assert view["history"] == [{"type": "play", "seat": 0, "card": "2C", "row": 4, "pile": 1}]


def test_a_player_who_cannot_play_is_out_and_skipped_for_the_rest_of_the_game():
    stuck = [["KH"], ["KS"], ["KS"], ["KS"]]
    state = table([["3C", "4C"], ["2H"], ["5D", "6D"]], [EMPTY, stuck, EMPTY], pile=["9C", "9C", "9C"])
    DUBITO.apply(state, 0, play("3C", 1))
    assert DUBITO.to_act(state) == [2] and DUBITO.view(state, None)["out"] == [1]
    assert state.history[-1] == {"type": "out", "seat": 1, "score": 1 + 2 + 3 + 4}
    assert DUBITO.legal_actions(state, 1) == []
    DUBITO.apply(state, 2, play("5D", 1))
    assert DUBITO.to_act(state) == [0]
    DUBITO.apply(state, 0, play("4C", 1))
    assert DUBITO.to_act(state) == [2]


def test_the_game_ends_when_nobody_can_play_any_more():
    stuck = [["KH"], ["KS"], ["KS"], ["KS"]]
    state = table([["QH", "2D"], ["2H"]], [[["JD"], ["KH"], ["KS"], ["KS"]], stuck], pile=["2C"])
    DUBITO.apply(state, 0, play("QH", 1))
    assert DUBITO.is_over(state) and DUBITO.to_act(state) == []
    assert state.history[1:] == [
        {"type": "out", "seat": 1, "score": 10},
        {"type": "out", "seat": 0, "score": 11},
        {"type": "end", "reason": "nobody can play", "scores": [11, 10]},
    ]
    assert DUBITO.legal_actions(state, 0) == [] and DUBITO.default_action(state, 0) is None
    refused(state, 0, play("2C", 1), "The game is over.")


def test_with_the_pile_empty_players_play_on_from_the_hand_without_drawing_until_it_runs_out():
    state = table([["2C", "3C"]], pile=["4C"])
    DUBITO.apply(state, 0, play("2C", 1))
    DUBITO.apply(state, 0, play("3C", 1))
    assert DUBITO.view(state, 0)["hand"] == ["4C"] and DUBITO.view(state, 0)["pile"] == 0
    DUBITO.apply(state, 0, play("4C", 1))
    assert DUBITO.is_over(state)
    assert state.history[-2:] == [
        {"type": "out", "seat": 0, "score": 3},
        {"type": "end", "reason": "nobody can play", "scores": [3]},
    ]


def test_the_stop_option_ends_the_game_as_soon_as_the_last_card_is_drawn():
    state = table([["2C", "3C"], ["5D", "6D"]], pile=["4C"], empty_pile="stop")
    DUBITO.apply(state, 0, play("2C", 4))
    assert DUBITO.is_over(state)
    assert state.history[-1] == {"type": "end", "reason": "the draw pile is empty", "scores": [4, 0]}


# Scoring ---------------------------------------------------------------------


def test_rows_score_one_to_four_points_a_card_and_the_highest_score_wins():
    rows = [[["AS", "2S"], ["3H"], [], ["4C", "4D"]], [["AS"], [], ["2D", "3D"], []]]
    result = DUBITO.result(table([["5C"], ["5C"]], rows))
    assert result == {"ranking": [[0], [1]], "scores": {"0": 1 * 2 + 2 * 1 + 4 * 2, "1": 1 + 3 * 2}}


def test_tied_scores_share_a_place():
    rows = [[["AS"], ["3H"], [], []], [[], [], ["2D"], []], [["AS"], [], [], []]]
    assert DUBITO.result(table([["5C"]] * 3, rows))["ranking"] == [[0, 1], [2]]


def test_a_solo_game_ranks_the_lone_player_first_with_the_score_as_the_result():
    result = DUBITO.result(table([["5C"]], [[["AS"], ["3H", "4H"], [], ["9C"]]]))
    assert result == {"ranking": [[0]], "scores": {"0": 1 + 4 + 4}}


# Timeouts, views, copies -------------------------------------------------------


def test_the_timeout_move_is_the_heuristic_bots_choice():
    state = table(
        [["5C", "9D", "KS", "TH", "8C", "2H", "JD", "6H"], ["AS"] * 8], [[["4S"], [], ["4C"], []], EMPTY]
    )
    expected = HeuristicBot().choose(DUBITO.view(state, 0), DUBITO.legal_actions(state, 0), None)
    assert DUBITO.default_action(state, 0) == expected == play("5C", 3)


def test_a_seat_sees_its_own_hand_and_everything_public_but_no_other_hand():
    state = table([["2C", "KD"], ["AS", "QH"]], [[["AH"], [], [], []], EMPTY], pile=["9D", "JH"])
    DUBITO.apply(state, 0, play("2C", 1))
    assert DUBITO.view(state, 1) == {
        "game": "dubito",
        "seat": 1,
        "players": 2,
        "to_act": [1],
        "is_over": False,
        "result": None,
        "history": [{"type": "play", "seat": 0, "card": "2C", "row": 1, "pile": 1}],
        "options": {"ascending": "strict", "empty_pile": "play-on"},
        "hand": ["AS", "QH"],
        "hand_counts": [2, 2],
        "rows": [[["AH", "2C"], [], [], []], EMPTY],
        "scores": [2, 0],
        "pile": 1,
        "out": [],
    }
    spectator = DUBITO.view(state, None)
    assert spectator["hand"] is None
    for hidden in ("KD", "JH", "QH", "9D"):
        assert hidden not in json.dumps(spectator)


def test_dump_load_and_clone_give_equal_but_independent_states():
    state = DUBITO.new_game(3, seed=5)
    data = DUBITO.dump(state)
    assert json.loads(json.dumps(data)) == data and DUBITO.dump(DUBITO.load(data)) == data
    copy = DUBITO.clone(state)
    DUBITO.apply(copy, 0, DUBITO.legal_actions(copy, 0)[0])
    assert DUBITO.dump(state) == data and DUBITO.dump(copy) != data


def test_a_hand_is_shown_suit_by_suit_black_and_red_in_turn_ranks_rising():
    state = table([["5C", "9D", "KS", "TH", "8C", "2H", "JD", "AS"], ["AS"] * 8])
    assert DUBITO.view(state, 0)["hand"] == ["AS", "KS", "2H", "TH", "5C", "8C", "9D", "JD"]
