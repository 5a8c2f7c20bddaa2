"""Dudab Buba expansions: the Jungle card (mirrored columns) and the Baby card (hidden stacks)."""

from games.dudab.placement import Column
from tests.engines import test_dudab as base

DUDAB, table, play, refused = base.DUDAB, base.table, base.play, base.refused
FIVE = base.FIVE
MIRROR = "Below the Jungle card this card must share a colour, symbol or value with the {} opposite it."
FILLER2 = ["G-hand-2", "Y-club-4", "B-mammoth-1", "R-hide-4"]
FILLER = ["Y-hide-2", "G-hide-4", "B-mammoth-3", "R-mammoth-2", "G-mammoth-4", "B-club-3", "Y-mammoth-1"]


def jungle_column(cards, below=()):
    """A column whose last card before `below` carries the Jungle card."""
    return Column([*cards, "jungle-8", *below], jungle_at=len(cards))


# Jungle -------------------------------------------------------------------------------


def test_a_drawn_jungle_is_laid_on_a_chosen_column_and_a_full_column_is_not_collected():
    state = table(
        [["Y-hand-3", "B-hand-1", "G-mammoth-1"], ["R-club-2", "G-club-2"]],
        [FIVE, ["B-club-1"]],
        deck=[*FILLER, "jungle-1"],
        jungle=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    assert state.hands[0] == ["Y-hand-3", "B-hand-1", "G-mammoth-1"]
    assert DUDAB.view(state, 1)["tasks"] == [{"kind": "jungle", "seat": 0, "card": "jungle-1", "count": None}]
    refused(
        state,
        0,
        play("Y-hand-3", 0),
        "First place the Jungle card you drew on a column.",
    )
    DUDAB.apply(state, 0, {"type": "jungle", "column": 0})
    assert state.columns[0].cards == [*FIVE, "jungle-1"] and state.own[0] == [] and DUDAB.to_act(state) == [1]
    assert DUDAB.view(state, 1)["columns"][0]["jungle_at"] == 5


def test_eric_s_jungle_on_five_cards_takes_five_mirror_cards_and_monica_s_next_card_collects_eleven():
    eric = ["Y-hand-3", "B-hand-1", "G-mammoth-1"]
    monica = ["R-club-2", "G-club-2", "R-hide-2", "Y-club-3", "B-mammoth-4"]
    state = table([eric, monica], [FIVE, ["B-club-1"]], deck=[*FILLER, "jungle-1"], jungle=True)
    DUDAB.apply(state, 0, {"type": "draw"})
    DUDAB.apply(state, 0, {"type": "jungle", "column": 0})
    # Each card below mirrors the card as far above:
    # red hand 3, yellow mammoth 4, green club 3, blue hand 2, red hide 1.
    for seat, card in [(1, "R-club-2"), (0, "Y-hand-3"), (1, "G-club-2"), (0, "B-hand-1"), (1, "R-hide-2")]:
        DUDAB.apply(state, seat, play(card, 0))
    assert len(state.columns[0].cards) == 11 and state.own == [[], []]
    DUDAB.apply(state, 0, {"type": "draw"})
    DUDAB.apply(state, 1, play("Y-club-3", 0))
    assert len(state.own[1]) == 11 and "jungle-1" in state.own[1]
    assert state.columns[0].cards == ["Y-club-3"] and state.columns[0].jungle_at == -1
    assert [e for e in state.history if e["type"] == "play"][-1]["collected"] == 11


def test_the_card_two_below_a_jungle_shares_an_attribute_with_the_red_hide_3_two_above_it():
    column = jungle_column(["R-hide-3", "B-hand-2"], below=["B-club-2"])
    hand = ["G-hand-1", "R-hand-1", "G-hide-1", "Y-mammoth-3"]
    state = table([hand, ["Y-club-1", "Y-club-2"]], [column], jungle=True)
    refused(
        state,
        0,
        play("G-hand-1", 0),
        MIRROR.format("red hide 3"),
    )
    for card in ["R-hand-1", "G-hide-1", "Y-mammoth-3"]:
        assert DUDAB.is_legal(state, 0, play(card, 0)), card


def test_below_a_jungle_the_usual_rule_against_the_card_above_still_applies():
    state = table(
        [["R-club-2", "R-hand-4"], ["Y-club-1", "Y-club-2"]],
        [jungle_column(["R-hide-3", "B-hand-2"], below=["B-club-3"])],
        jungle=True,
    )
    refused(
        state,
        0,
        play("R-club-2", 0),
        "On the blue club 3 you can only play a 2 or 4 of another colour and another symbol.",
    )
    assert DUDAB.is_legal(state, 0, play("R-hand-4", 0))


def test_the_first_card_below_a_jungle_lies_on_the_jungle_and_only_mirrors():
    state = table(
        [["B-hand-4", "G-club-1"], ["Y-club-1", "Y-club-2"]],
        [jungle_column(["R-hide-3", "B-hand-2"])],
        jungle=True,
    )
    assert DUDAB.is_legal(state, 0, play("B-hand-4", 0))
    refused(
        state,
        0,
        play("G-club-1", 0),
        MIRROR.format("blue hand 2"),
    )


def test_opposite_a_shaman_only_a_shaman_of_any_colour_or_a_dudab_may_go():
    state = table(
        [["R-hide-3", "shaman-B-1", "dudab-2"], ["Y-club-1", "Y-club-2"]],
        [jungle_column(["R-hide-2", "shaman-R-1"])],
        jungle=True,
    )
    refused(
        state,
        0,
        play("R-hide-3", 0),
        "Opposite a Shaman above the Jungle card only a Shaman or a Dudab may be played.",
    )
    assert DUDAB.is_legal(state, 0, play("shaman-B-1", 0))
    assert DUDAB.is_legal(state, 0, play("dudab-2", 0))


def test_opposite_a_dudab_only_a_dudab_may_go_and_below_a_jungle_a_dudab_requests_nothing():
    state = table(
        [["R-hide-3", "shaman-B-1", "dudab-2"], ["Y-club-1", "Y-club-2"]],
        [jungle_column(["R-hide-2", "dudab-1"])],
        jungle=True,
    )
    for card in ["R-hide-3", "shaman-B-1"]:
        refused(state, 0, play(card, 0), "Opposite a Dudab above the Jungle card only a Dudab may be played.")
    refused(
        state,
        0,
        play("dudab-2", 0, {"value": 1}),
        "A Dudab played below a Jungle card asks for nothing.",
    )
    DUDAB.apply(state, 0, play("dudab-2", 0))
    assert state.binding == -1 and state.columns[0].request is None


def test_any_card_that_mirrors_goes_on_a_dudab_below_a_jungle():
    state = table(
        [["G-club-1", "Y-hand-4"], ["Y-club-1", "Y-club-2"]],
        [jungle_column(["R-hide-1", "B-hand-2", "G-club-3"], below=["dudab-1"])],
        jungle=True,
    )
    assert DUDAB.is_legal(state, 0, play("Y-hand-4", 0))  # shares hand with the blue hand 2
    refused(
        state,
        0,
        play("G-club-1", 0),
        MIRROR.format("blue hand 2"),
    )


def test_a_jungle_goes_only_to_a_column_without_one_and_is_discarded_when_every_column_has_one():
    state = table(
        [["Y-hand-3", "B-hand-1"], ["R-club-2", "G-club-2"]],
        [jungle_column(["R-hide-2"]), ["B-club-1"]],
        deck=[*FILLER, "jungle-1"],
        jungle=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    refused(
        state,
        0,
        {"type": "jungle", "column": 0},
        "Column 1 already has a Jungle card: choose a column without one.",
    )
    assert DUDAB.legal_actions(state, 0) == [{"type": "jungle", "column": 1}]
    state = table(
        [["Y-hand-3", "B-hand-1"], ["R-club-2", "G-club-2"]],
        [jungle_column(["R-hide-2"])],
        deck=[*FILLER, "jungle-1"],
        jungle=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    assert (
        state.discard == ["jungle-1"]
        and state.hands[0] == ["Y-hand-3", "B-hand-1"]
        and DUDAB.to_act(state) == [1]
    )
    assert state.history[-1] == {"type": "jungle_discarded", "seat": 0, "card": "jungle-1"}


def test_a_discarded_jungle_still_leaves_a_one_card_hand_to_draw_again():
    state = table(
        [["B-club-4", "G-club-1"], ["R-club-2", "G-club-2"]],
        [jungle_column(["R-hide-3", "B-hand-2"])],
        deck=[*FILLER, "jungle-1"],
        jungle=True,
    )
    DUDAB.apply(
        state, 0, play("B-club-4", 0)
    )  # one card left: the end-of-turn draw is a Jungle with nowhere to go
    assert state.discard == ["jungle-1"] and state.hands[0] == ["G-club-1", FILLER[-1]]


def test_a_jungle_laid_on_a_requesting_dudab_ends_the_request():
    state = table(
        [["dudab-1", "B-hand-1", "G-mammoth-1"], ["R-club-2", "G-club-2"]],
        [FIVE[:2], ["B-club-1"]],
        deck=[*FILLER, "jungle-1"],
        jungle=True,
    )
    DUDAB.apply(state, 0, play("dudab-1", 0, {"value": 4}))
    DUDAB.apply(state, 1, {"type": "draw"})
    DUDAB.apply(state, 1, {"type": "jungle", "column": 0})
    assert DUDAB.view(state, 0)["request"] is None


def test_cards_met_during_a_penalty_draw_that_are_jungles_or_babies_go_to_the_discard_pile():
    state = table(
        [["shaman-R-1", "B-hand-2", "Y-club-1"], ["G-hand-2", "Y-hide-4"]],
        [["R-hide-3"]],
        deck=[*FILLER, "B-club-4", "R-club-3", "baby-2", "jungle-2", "Y-hand-2"],
        jungle=True,
        baby=True,
    )
    DUDAB.apply(state, 0, play("shaman-R-1", 0))
    DUDAB.apply(state, 1, {"type": "reveal"})
    assert state.hands[1] == ["G-hand-2", "Y-hide-4", "R-club-3", "B-club-4"]
    assert state.discard == ["Y-hand-2", "jungle-2", "baby-2"] and state.history[-1]["skipped"] == [
        "jungle-2",
        "baby-2",
    ]


# Baby ---------------------------------------------------------------------------------


def test_a_drawn_baby_hides_the_chosen_column_and_its_number_cover_makes_everyone_draw_its_value():
    state = table(
        [["Y-hand-3", "B-hand-1"], ["R-club-2", "G-club-2"]],
        [FIVE, ["B-club-1"]],
        deck=[*FILLER, "Y-club-2", "baby-1"],
        baby=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    assert DUDAB.view(state, 1)["tasks"] == [{"kind": "baby", "seat": 0, "card": "baby-1", "count": None}]
    DUDAB.apply(state, 0, {"type": "baby", "column": 0})
    assert DUDAB.view(state, 1)["columns"][0] == {
        "cards": ["Y-club-2"],
        "hidden": 6,
        "jungle_at": None,
        "request": None,
    }
    assert state.hands == [
        ["Y-hand-3", "B-hand-1", FILLER[-1], FILLER[-2]],
        ["R-club-2", "G-club-2", FILLER[-3], FILLER[-4]],
    ]
    assert state.history[-1]["each_draws"] == 2 and DUDAB.to_act(state) == [1]


def test_a_baby_covered_by_a_shaman_or_dudab_makes_nobody_draw():
    state = table(
        [["Y-hand-3", "B-hand-1"], ["R-club-2", "G-club-2"]],
        [FIVE],
        deck=[*FILLER, "shaman-G-1", "baby-1"],
        baby=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    DUDAB.apply(state, 0, {"type": "baby", "column": 0})
    assert state.hands == [["Y-hand-3", "B-hand-1"], ["R-club-2", "G-club-2"]]
    assert state.columns[0].cards[-2:] == ["baby-1", "shaman-G-1"]


def test_baby_draws_past_five_cards_send_each_player_s_excess_to_the_own_pile_in_turn_order():
    state = table(
        [["Y-hand-3", "B-hand-1", "G-hand-3", "R-hand-4"], ["R-club-2", "G-club-2", "B-hide-1"]],
        [FIVE],
        deck=[*FILLER, *FILLER2, "R-club-4", "baby-1"],
        baby=True,
    )
    DUDAB.apply(state, 0, {"type": "draw"})
    DUDAB.apply(state, 0, {"type": "baby", "column": 0})
    assert [len(h) for h in state.hands] == [8, 7]
    assert DUDAB.view(state, 1)["tasks"] == [
        {"kind": "trim", "seat": 0, "card": None, "count": 3},
        {"kind": "trim", "seat": 1, "card": None, "count": 2},
    ]
    refused(
        state,
        1,
        {"type": "trim", "cards": ["R-club-2", "G-club-2"]},
        "It is not your turn: another player has a follow-up to finish.",
    )
    DUDAB.apply(state, 0, {"type": "trim", "cards": state.hands[0][:3]})
    DUDAB.apply(state, 1, {"type": "trim", "cards": state.hands[1][:2]})
    assert [len(h) for h in state.hands] == [5, 5] and DUDAB.to_act(state) == [1]


def test_invisible_cards_do_not_count_and_the_sixth_visible_card_collects_the_whole_pile():
    hidden = ["R-hide-1", "B-hand-2", "G-club-3", "baby-1"]
    visible = ["B-hand-2", "G-club-3", "Y-mammoth-4", "R-hand-3", "B-hide-2"]
    column = Column([*hidden[:3], "baby-1", *visible], visible_from=4)
    state = table([["R-club-1", "Y-hand-3", "G-hand-1"], ["R-club-2", "G-club-2"]], [column], baby=True)
    assert DUDAB.view(state, None)["columns"][0]["hidden"] == 4
    DUDAB.apply(state, 0, play("R-club-1", 0))
    assert len(state.own[0]) == 9 and "baby-1" in state.own[0] and state.columns[0].cards == ["R-club-1"]
