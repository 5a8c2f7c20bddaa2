"""Dudab Buba, base game: every rule of the document, through the public interface."""

import pytest

from games.dudab.cards import CARDS, NUMBER_CARDS, full_deck
from games.dudab.placement import Column
from games.engine import IllegalAction, get_game

DUDAB = get_game("dudab")


def table(hands, columns, turn=0, deck=None, **options):
    """A round in progress with chosen hands, columns (cards bottom first) and draw pile (top last)."""
    state = DUDAB.new_game(len(hands), seed=3, options=options or None)
    state.hands = [list(hand) for hand in hands]
    state.columns = [column if isinstance(column, Column) else Column(list(column)) for column in columns]
    used = {c for hand in hands for c in hand} | {c for col in state.columns for c in col.cards}
    state.deck = list(deck) if deck is not None else [c for c in NUMBER_CARDS if c not in used][:20]
    state.discard, state.own, state.turn, state.history = [], [[] for _ in hands], turn, []
    return state


def play(card, column, request=None):
    action = {"type": "play", "card": card, "column": column}
    if request:
        action["request"] = request
    return action


def refused(state, seat, action, message):
    before = DUDAB.dump(state)
    with pytest.raises(IllegalAction) as error:
        DUDAB.apply(state, seat, action)
    assert str(error.value) == message
    assert DUDAB.dump(state) == before


# Set-up ---------------------------------------------------------------------------


def test_the_deck_has_64_numbers_8_dudabs_8_shamans_and_the_expansions_add_8_jungles_and_8_babies():
    assert len(full_deck(False, False)) == 80 and len(set(full_deck(False, False))) == 80
    assert len(full_deck(True, True)) == 96
    assert CARDS["R-hide-3"] == ("number", "R", "hide", 3)
    assert sorted(c for c in CARDS if c.startswith("shaman-R")) == ["shaman-R-1", "shaman-R-2"]


@pytest.mark.parametrize(
    "players, options, columns",
    [
        (2, {}, 2),
        (3, {}, 2),
        (4, {}, 3),
        (4, {"four_player_columns": 2}, 2),
        (5, {}, 3),
        (6, {}, 3),
    ],
)
def test_each_player_gets_three_cards_and_the_table_gets_its_starting_columns(players, options, columns):
    state = DUDAB.new_game(players, seed=5, options=options)
    assert [len(hand) for hand in state.hands] == [3] * players
    assert len(state.columns) == columns and all(len(c.cards) == 1 for c in state.columns)
    assert len(state.deck) == 80 - 3 * players - columns


def test_jungle_and_baby_cards_are_never_dealt_to_hands_or_columns():
    for seed in range(30):
        state = DUDAB.new_game(6, seed=seed, options={"jungle": True, "baby": True})
        dealt = [c for hand in state.hands for c in hand] + [c.cards[0] for c in state.columns]
        assert all(CARDS[c].kind in ("number", "shaman", "dudab") for c in dealt)


def test_a_game_has_as_many_rounds_as_players_and_the_start_moves_left_each_round():
    state = DUDAB.new_game(3, seed=9)
    starters = []
    while not DUDAB.is_over(state):
        if not starters or state.history[-1]["type"] == "round":
            starters.append(state.turn)
        DUDAB.apply(state, DUDAB.to_act(state)[0], DUDAB.default_action(state, DUDAB.to_act(state)[0]))
    rounds = [e for e in state.history if e["type"] == "round"]
    assert [e["starter"] for e in rounds] == [(rounds[0]["starter"] + i) % 3 for i in range(3)]
    assert len(state.round_scores) == 3


def test_a_drawn_first_starter_is_drawn_as_before_the_choice_existed_so_old_matches_replay():
    """Starters and a hand of seeds 0-7 at four players as dealt before the option (main at 684b5fc)."""
    games = [DUDAB.new_game(4, seed=seed) for seed in range(8)]
    assert [DUDAB.to_act(game)[0] for game in games] == [3, 1, 0, 1, 1, 2, 0, 2]
    assert games[0].hands[0] == ["G-mammoth-2", "R-mammoth-2", "Y-hand-2"]


def test_with_the_first_seat_starting_round_1_is_the_first_seats_and_the_start_moves_left_each_round():
    state = DUDAB.new_game(3, seed=9, options={"starter": "first_seat"})
    while not DUDAB.is_over(state):
        DUDAB.apply(state, DUDAB.to_act(state)[0], DUDAB.default_action(state, DUDAB.to_act(state)[0]))
    assert [e["starter"] for e in state.history if e["type"] == "round"] == [0, 1, 2]


# Placing number cards and Shamans -------------------------------------------------


def test_a_number_card_goes_on_a_value_one_apart_with_another_colour_and_another_symbol():
    state = table([["B-hand-2", "G-club-4", "B-hide-2"], ["Y-club-1"] * 3], [["R-hide-3"]])
    assert DUDAB.is_legal(state, 0, play("B-hand-2", 0))
    assert DUDAB.is_legal(state, 0, play("G-club-4", 0))
    refused(
        state, 0, play("B-hide-2", 0),
        "On the red hide 3 you can only play a 2 or 4 of another colour and another symbol."
    )


def test_a_one_takes_only_a_two_and_a_four_only_a_three():
    state = table([["B-hand-3", "G-club-2"], ["Y-club-1"] * 3], [["R-hide-1"], ["R-hide-4"]])
    elsewhere = "of another colour and another symbol."
    refused(state, 0, play("B-hand-3", 0), f"On the red hide 1 you can only play a 2 {elsewhere}")
    refused(state, 0, play("G-club-2", 1), f"On the red hide 4 you can only play a 3 {elsewhere}")
    assert DUDAB.is_legal(state, 0, play("G-club-2", 0)) and DUDAB.is_legal(state, 0, play("B-hand-3", 1))


def test_a_number_card_goes_on_a_shaman_of_its_own_colour_only():
    state = table([["Y-club-1", "B-club-1"], ["Y-club-2"] * 3], [["shaman-Y-1"]])
    assert DUDAB.is_legal(state, 0, play("Y-club-1", 0))
    refused(
        state, 0, play("B-club-1", 0), "Only a yellow card or another Shaman may go on the yellow Shaman."
    )


def test_a_shaman_goes_on_a_number_card_of_its_colour_or_on_another_shaman():
    state = table([["shaman-R-1", "shaman-B-1"], ["Y-club-2"] * 3], [["R-hide-3"], ["shaman-G-2"]])
    assert DUDAB.is_legal(state, 0, play("shaman-R-1", 0))
    refused(
        state,
        0,
        play("shaman-B-1", 0),
        "A Shaman goes only on a number card of its own colour, not on the red hide 3.",
    )
    assert DUDAB.is_legal(state, 0, play("shaman-B-1", 1))


def test_anything_goes_on_a_starting_dudab():
    state = table([["B-hand-2", "shaman-R-1", "G-club-4"], ["Y-club-1"] * 3], [["dudab-1"]])
    for card in state.hands[0]:
        assert DUDAB.is_legal(state, 0, play(card, 0))


def test_playing_a_card_passes_the_turn_to_the_left():
    state = table([["B-hand-2", "G-club-4", "Y-club-1"], ["Y-club-2"] * 3, ["Y-club-3"] * 3], [["R-hide-3"]])
    DUDAB.apply(state, 0, play("B-hand-2", 0))
    assert state.columns[0].cards == ["R-hide-3", "B-hand-2"] and DUDAB.to_act(state) == [1]
    assert state.history[-1] == {
        "type": "play",
        "seat": 0,
        "card": "B-hand-2",
        "column": 0,
        "request": None,
        "collected": 0,
    }


def test_playing_out_of_turn_or_an_unknown_card_or_column_is_refused():
    state = table([["B-hand-2", "G-club-4"], ["Y-club-2"] * 3], [["R-hide-3"]])
    refused(state, 1, play("Y-club-2", 0), "It is not your turn: another player is playing.")
    refused(state, 0, play("Y-club-2", 0), "You have no yellow club 2 in your hand.")
    refused(state, 0, play("B-hand-2", 3), "There is no such column: the table has 1.")
    refused(
        state,
        0,
        {"type": "play", "card": ["B-hand-2"], "column": 0},
        "That card is not in your hand.",
    )
    refused(state, 0, {"type": "trim", "cards": []}, "There is nothing to trim now: play a card or draw.")


# The sixth card ---------------------------------------------------------------------

FIVE = ["R-hide-1", "B-hand-2", "G-club-3", "Y-mammoth-4", "R-hand-3"]


def test_the_sixth_card_collects_the_first_five_and_starts_the_column_then_the_player_discards_down_to_two():
    state = table([["B-club-2", "Y-hide-4", "G-hand-1", "R-club-1"], ["Y-club-2"] * 3], [FIVE])
    DUDAB.apply(state, 0, play("B-club-2", 0))
    assert state.columns[0].cards == ["B-club-2"] and state.own[0] == FIVE
    assert DUDAB.to_act(state) == [0]
    assert DUDAB.view(state, 1)["tasks"] == [{"kind": "discard_down", "seat": 0, "card": None, "count": 1}]
    refused(
        state,
        0,
        play("Y-hide-4", 0),
        "First discard down to two cards.",
    )
    refused(
        state,
        0,
        {"type": "discard_down", "cards": ["Y-hide-4", "G-hand-1"], "to": "discard"},
        "Choose exactly 1 different cards from your hand, so that 2 remain.",
    )
    refused(
        state,
        0,
        {"type": "discard_down", "cards": ["Y-hide-4"], "to": "bin"},
        "Say where the cards go: the common discard pile or your own pile.",
    )
    DUDAB.apply(state, 0, {"type": "discard_down", "cards": ["Y-hide-4"], "to": "discard"})
    assert (
        state.hands[0] == ["G-hand-1", "R-club-1"]
        and state.discard == ["Y-hide-4"]
        and DUDAB.to_act(state) == [1]
    )


def test_cards_discarded_down_may_all_go_to_the_own_pile_and_stay_secret():
    state = table([["B-club-2", "Y-hide-4", "G-hand-1", "R-club-1"], ["Y-club-2"] * 3], [FIVE])
    DUDAB.apply(state, 0, play("B-club-2", 0))
    DUDAB.apply(state, 0, {"type": "discard_down", "cards": ["Y-hide-4"], "to": "own"})
    assert state.own[0] == [*FIVE, "Y-hide-4"] and state.discard == []
    assert state.history[-1] == {"type": "discard_down", "seat": 0, "to": "own", "count": 1, "cards": None}


def test_a_collector_left_with_two_cards_or_fewer_has_nothing_to_discard():
    state = table([["B-club-2", "Y-hide-4"], ["Y-club-2"] * 3], [FIVE], deck=["G-hand-1", "Y-hand-1"])
    DUDAB.apply(state, 0, play("B-club-2", 0))
    assert state.hands[0] == ["Y-hide-4", "Y-hand-1"] and DUDAB.to_act(state) == [1]


# Hand limits and drawing ------------------------------------------------------------


def test_a_player_left_with_one_card_draws_at_the_end_of_the_turn():
    state = table([["B-hand-2", "G-club-1"], ["Y-club-2"] * 3], [["R-hide-3"]], deck=["Y-hand-1", "Y-hand-4"])
    DUDAB.apply(state, 0, play("B-hand-2", 0))
    assert state.hands[0] == ["G-club-1", "Y-hand-4"]
    assert state.history[-1] == {"type": "draw", "seat": 0, "forced": True, "shown": None, "special": None}


def test_drawing_adds_the_top_card_to_the_hand_and_tells_the_others_nothing_about_it():
    state = table([["B-hand-2", "G-club-1"], ["Y-club-2"] * 3], [["R-hide-3"]], deck=["Y-hand-1", "Y-hand-4"])
    DUDAB.apply(state, 0, {"type": "draw"})
    assert state.hands[0] == ["B-hand-2", "G-club-1", "Y-hand-4"]
    assert "Y-hand-4" not in str(DUDAB.view(state, 1))


def test_with_five_cards_a_player_who_can_play_may_not_draw():
    state = table(
        [["B-hand-2", "G-club-1", "G-club-2", "Y-club-1", "Y-hide-1"], ["Y-club-2"] * 3], [["R-hide-3"]]
    )
    refused(
        state,
        0,
        {"type": "draw", "own": "G-club-1"},
        "With five cards you may draw only when nothing can be played: your blue hand 2 fits column 1.",
    )


def test_with_five_unplayable_cards_the_player_shows_them_puts_one_on_the_own_pile_and_draws():
    hand = ["G-club-1", "G-hide-1", "Y-club-1", "Y-hide-1", "B-hide-1"]
    state = table([hand, ["Y-club-2"] * 3], [["R-hide-4"]], deck=["R-hand-1", "B-hand-3"])
    refused(
        state,
        0,
        {"type": "draw"},
        "With five cards in hand, choose a card for your own pile before you draw.",
    )
    DUDAB.apply(state, 0, {"type": "draw", "own": "Y-club-1"})
    assert state.own[0] == ["Y-club-1"] and state.hands[0] == [
        "G-club-1",
        "G-hide-1",
        "Y-hide-1",
        "B-hide-1",
        "B-hand-3",
    ]
    assert state.history[-1] == {"type": "draw", "seat": 0, "forced": False, "shown": hand, "special": None}


def test_with_fewer_than_five_cards_nothing_goes_to_the_own_pile_before_drawing():
    state = table([["G-club-1", "G-club-2"], ["Y-club-2"] * 3], [["R-hide-4"]])
    refused(
        state,
        0,
        {"type": "draw", "own": "G-club-1"},
        "A card goes to your own pile before drawing only when you hold five cards.",
    )


# Shaman -----------------------------------------------------------------------------


def shaman_played(hand1, deck=None, hand2=None):
    state = table(
        [["shaman-R-1", "B-hand-2", "Y-club-1"], hand1, hand2 or ["G-hand-1", "G-hand-2"]],
        [["R-hide-3"], ["B-club-1"]],
        deck=deck,
    )
    DUDAB.apply(state, 0, play("shaman-R-1", 0))
    return state


def test_after_a_shaman_the_next_player_may_not_play_a_number_card_or_draw():
    state = shaman_played(["G-hand-2", "shaman-B-2", "dudab-1"])
    assert DUDAB.view(state, 2)["shaman_pending"] is True
    message = "Answer the Shaman with a Shaman or a Dudab, or take the penalty."
    refused(state, 1, play("G-hand-2", 1), message)
    refused(state, 1, {"type": "draw"}, message)


def test_a_shaman_answered_with_a_shaman_passes_the_duty_on():
    state = shaman_played(["G-hand-2", "shaman-B-2", "dudab-1"])
    DUDAB.apply(state, 1, play("shaman-B-2", 0))
    assert state.shaman_pending and DUDAB.to_act(state) == [2]


def test_a_shaman_answered_with_a_dudab_ends_the_duty_and_the_dudab_makes_a_request():
    state = shaman_played(["G-hand-2", "shaman-B-2", "dudab-1"])
    DUDAB.apply(state, 1, play("dudab-1", 1, {"value": 2}))
    assert not state.shaman_pending
    assert DUDAB.view(state, 2)["request"] == {"column": 1, "request": {"value": 2}}


def test_the_shaman_penalty_reveals_until_a_number_card_and_draws_its_value():
    state = shaman_played(
        ["G-hand-2", "Y-hide-4"],
        deck=["B-club-4", "R-club-3", "B-hide-2", "Y-hand-2", "dudab-2", "shaman-G-1"],
    )
    DUDAB.apply(state, 1, {"type": "reveal"})
    assert state.discard == ["shaman-G-1", "dudab-2", "Y-hand-2"]
    assert state.hands[1] == ["G-hand-2", "Y-hide-4", "B-hide-2", "R-club-3"]
    assert state.history[-1] == {
        "type": "reveal",
        "seat": 1,
        "revealed": ["shaman-G-1", "dudab-2", "Y-hand-2"],
        "draws": 2,
        "skipped": [],
    }
    assert not state.shaman_pending and DUDAB.to_act(state) == [2]


def test_a_penalty_past_five_cards_makes_the_player_put_the_excess_on_the_own_pile():
    hand = ["G-hand-2", "Y-hide-4", "Y-hide-3", "B-mammoth-1"]
    state = shaman_played(hand, deck=["B-club-4", "R-club-3", "B-hide-2", "Y-hand-2", "Y-club-3"])
    DUDAB.apply(state, 1, {"type": "reveal"})
    assert len(state.hands[1]) == 7 and DUDAB.to_act(state) == [1]
    refused(
        state,
        1,
        {"type": "trim", "cards": ["G-hand-2"]},
        "Choose exactly 2 different cards from your hand, so that 5 remain.",
    )
    DUDAB.apply(state, 1, {"type": "trim", "cards": ["G-hand-2", "Y-hide-4"]})
    assert (
        state.own[1] == ["G-hand-2", "Y-hide-4"] and len(state.hands[1]) == 5 and DUDAB.to_act(state) == [2]
    )
    assert state.history[-1] == {"type": "trim", "seat": 1, "to": "own", "count": 2, "cards": None}


# Dudab ------------------------------------------------------------------------------


def dudab_played(request, hand1, hand2=None, columns=None, deck=None):
    state = table(
        [["dudab-1", "B-hand-2", "Y-club-1"], hand1, hand2 or ["G-hand-1", "G-hand-2"]],
        columns or [["R-hide-3"], ["B-club-1"]],
        deck=deck,
    )
    DUDAB.apply(state, 0, play("dudab-1", 0, request))
    return state


def test_a_dudab_needs_a_well_formed_request():
    state = table([["dudab-1", "B-hand-2"], ["Y-club-1"] * 3], [["R-hide-3"]])
    refused(
        state,
        0,
        play("dudab-1", 0),
        "A Dudab must ask for a colour, a symbol or a value.",
    )
    refused(
        state,
        0,
        play("dudab-1", 0, {"colour": "purple"}),
        "A Dudab asks for one thing: a colour (red, blue, yellow or green), "
        "a symbol (hand, mammoth, club or hide) or a value (1 to 4).",
    )
    refused(state, 0, play("B-hand-2", 0, {"value": 2}), "Only a Dudab makes a request.")


def test_a_dudab_goes_on_any_column_top():
    state = table([["dudab-1", "B-hand-2"], ["Y-club-1"] * 3], [["R-hide-3"], ["shaman-Y-1"], ["dudab-2"]])
    for column in range(3):
        assert DUDAB.is_legal(state, 0, play("dudab-1", column, {"symbol": "club"}))


def test_a_request_binds_the_next_player_who_must_play_the_requested_card_onto_the_dudab():
    state = dudab_played({"symbol": "hide"}, ["G-hide-2", "Y-club-2"])
    refused(
        state,
        1,
        play("Y-club-2", 1),
        "The Dudab on column 1 asks for a hide card: play it there, play a Dudab, or draw.",
    )
    refused(
        state, 1, {"type": "draw"}, "You can meet the request with your green hide 2: play it (or a Dudab)."
    )
    DUDAB.apply(state, 1, play("G-hide-2", 0))
    assert (
        state.columns[0].cards == ["R-hide-3", "dudab-1", "G-hide-2"]
        and DUDAB.view(state, 2)["request"] is None
    )


def test_a_player_who_cannot_meet_the_request_shows_the_hand_and_draws_and_the_request_still_binds():
    state = dudab_played({"colour": "R"}, ["G-hide-2", "Y-club-2"])
    DUDAB.apply(state, 1, {"type": "draw"})
    assert state.history[-1]["shown"] == ["G-hide-2", "Y-club-2"]
    assert DUDAB.view(state, 2)["request"] == {"column": 0, "request": {"colour": "R"}}


def test_a_shaman_of_the_requested_colour_meets_the_request():
    state = dudab_played({"colour": "R"}, ["shaman-R-2", "Y-club-2"])
    DUDAB.apply(state, 1, play("shaman-R-2", 0))
    assert state.binding == -1 and state.shaman_pending


def test_the_request_binds_the_player_who_made_it_too():
    state = dudab_played({"value": 4}, ["G-hide-2", "Y-club-2"], ["G-hand-1", "G-hand-2"])
    DUDAB.apply(state, 1, {"type": "draw"})
    DUDAB.apply(state, 2, {"type": "draw"})
    refused(
        state,
        0,
        play("Y-club-1", 1),
        "The Dudab on column 1 asks for a 4: play it there, play a Dudab, or draw.",
    )


def test_a_dudab_may_be_played_over_a_binding_request_and_its_own_request_then_binds():
    state = dudab_played({"value": 4}, ["dudab-2", "Y-club-2"])
    DUDAB.apply(state, 1, play("dudab-2", 1, {"colour": "G"}))
    assert DUDAB.view(state, 2)["request"] == {"column": 1, "request": {"colour": "G"}}
    assert DUDAB.is_legal(state, 2, play("G-hand-2", 1))


def test_a_dudab_as_the_fifth_card_lets_the_player_who_meets_the_request_collect_the_first_five():
    four = FIVE[:4]
    state = dudab_played(
        {"value": 1}, ["G-hide-1", "Y-club-2", "R-club-4", "B-hand-1"], columns=[four, ["B-club-1"]]
    )
    DUDAB.apply(state, 1, play("G-hide-1", 0))
    assert state.own[1] == [*four, "dudab-1"] and state.columns[0].cards == ["G-hide-1"]
    assert DUDAB.to_act(state) == [1] and state.tasks[0]["kind"] == "discard_down"


# Round end, scores and the view -------------------------------------------------------


def test_drawing_the_last_card_ends_the_round_and_scores_it():
    state = table([["G-club-1", "dudab-3"], ["Y-club-2", "Y-club-3"]], [["R-hide-4"]], deck=["B-hand-3"])
    state.own = [["shaman-B-1", "R-hand-4"], []]
    DUDAB.apply(state, 0, {"type": "draw"})
    end = [e for e in state.history if e["type"] == "round_end"][0]
    assert end["hands"][0] == ["G-club-1", "dudab-3", "B-hand-3"]
    # 5 for the Dudab in hand; the Shaman scores 5 alone; 1 + 3 + 4 at face value.
    assert end["scores"] == [18, 5]
    assert state.round == 2 and state.round_scores == [[18, 5]]
    assert DUDAB.view(state, None)["totals"] == [18, 5]


def test_the_lowest_total_wins_and_equal_totals_share_the_place():
    state = DUDAB.new_game(3, seed=1)
    state.round_scores, state.over = [[10, 4, 7], [0, 6, 3]], True
    assert DUDAB.result(state) == {"ranking": [[0, 1, 2]], "scores": {"0": 10, "1": 10, "2": 10}}
    state.round_scores = [[10, 4, 7], [0, 6, 2]]
    assert DUDAB.result(state) == {"ranking": [[2], [0, 1]], "scores": {"0": 10, "1": 10, "2": 9}}


def test_a_seat_sees_its_own_hand_and_pile_and_only_counts_of_the_others():
    state = table([["G-club-1", "dudab-3"], ["Y-club-2", "Y-club-3", "B-hide-1"]], [["R-hide-4"]])
    state.own = [["shaman-B-1"], ["R-hand-4", "B-hand-4"]]
    view = DUDAB.view(state, 0)
    assert view["hand"] == ["G-club-1", "dudab-3"] and view["own"] == ["shaman-B-1"]
    assert view["hand_counts"] == [2, 3] and view["own_counts"] == [1, 2]
    assert "Y-club-2" not in str(view) and "R-hand-4" not in str(view)
    spectator = DUDAB.view(state, None)
    assert spectator["hand"] is None and spectator["own"] is None
    assert view["columns"] == [{"cards": ["R-hide-4"], "hidden": 0, "jungle_at": None, "request": None}]


def test_a_seat_sees_what_its_own_cards_would_score_if_the_round_ended_now_and_nobody_elses():
    state = table([["G-club-1", "dudab-3"], ["Y-club-2", "Y-club-3", "B-hide-1"]], [["R-hide-4"]])
    state.own = [["shaman-B-1"], ["R-hand-4", "B-hand-4"]]
    # 5 for the Dudab in hand, 5 for the lone Shaman, 1 for the green club.
    assert DUDAB.view(state, 0)["round_points"] == 11
    assert DUDAB.view(state, 1)["round_points"] == 2 + 3 + 1 + 4 + 4
    assert DUDAB.view(state, None)["round_points"] is None


def test_the_timeout_action_is_a_careful_players_move_not_the_first_one_listed():
    """Issue 35: a timeout took the Shaman penalty or drew whenever it could; it now plays as the strong bot does."""
    state = shaman_played(["G-hand-2", "shaman-B-2"])
    assert DUDAB.default_action(state, 1) == play("shaman-B-2", 0)  # answers the Shaman, no penalty
    state = table([["B-hand-2", "G-club-1"], ["Y-club-2"] * 3], [["R-hide-3"]])
    assert DUDAB.default_action(state, 1) is None
    move = DUDAB.default_action(state, 0)
    assert move != {"type": "draw"} and DUDAB.is_legal(state, 0, move)  # sheds a card rather than draw one
