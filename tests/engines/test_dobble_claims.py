"""Dobble claims: time order, wrong claims and lockouts, refusals, legal actions, views, options."""

import pytest

from games.base import IllegalAction
from games.dobble.rules import GAME
from tests.engines.test_dobble_helpers import (
    cards_in,
    claim,
    face_up_cards,
    play_right,
    right_claim,
    wrong_claim,
)


def refused(state, seat, action, message):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert str(error.value) == message
    assert GAME.dump(state) == before
    assert not GAME.is_legal(state, seat, action)


def test_the_options_default_to_the_towering_inferno_with_a_one_second_lockout():
    options = GAME.describe()["options"]
    assert options["mini_game"]["default"] == "towering-inferno"
    assert options["mini_game"]["choices"] == [
        "towering-inferno",
        "the-well",
        "hot-potato",
        "gotta-catch-them-all",
        "poisoned-gift",
    ]
    assert options["lockout_ms"]["default"] == 1000
    assert GAME.realtime is True and (GAME.min_players, GAME.max_players) == (2, 8)


def test_last_winner_must_be_a_seat_of_the_table():
    with pytest.raises(IllegalAction, match=r"^Option last_winner must be a seat of this table, 0 to 2\.$"):
        GAME.new_game(3, 1, {"last_winner": 3})


def test_hot_potato_rounds_are_zero_or_five_up_to_what_the_cards_allow():
    with pytest.raises(IllegalAction) as error:
        GAME.new_game(8, 1, {"mini_game": "hot-potato", "hot_potato_rounds": 7})
    assert str(error.value) == (
        "Option hot_potato_rounds must be 0 (until the cards run out) or 5 to 6 with 8 players."
    )
    with pytest.raises(IllegalAction):
        GAME.new_game(2, 1, {"mini_game": "hot-potato", "hot_potato_rounds": 4})


def test_a_right_claim_is_applied_logged_and_changes_the_cards():
    state = GAME.new_game(2, 5)
    action = right_claim(state, 1, "pile", at_ms=1500)
    GAME.apply(state, 1, action)
    view = GAME.view(state, None)
    assert view["history"] == [
        {
            "type": "claim",
            "seat": 1,
            "symbol": action["symbol"],
            "target": "pile",
            "correct": True,
            "at_ms": 1500,
        }
    ]
    assert view["now_ms"] == view["changed_ms"] == 1500
    assert view["seats"][1]["score"] == 1


def test_a_wrong_claim_is_not_refused_but_logged_and_punished_with_a_lockout():
    state = GAME.new_game(2, 5)
    action = wrong_claim(state, 0, "pile", at_ms=200)
    assert GAME.is_legal(state, 0, action)
    GAME.apply(state, 0, action)
    view = GAME.view(state, 1)
    assert view["history"][-1] == {
        "type": "claim",
        "seat": 0,
        "symbol": action["symbol"],
        "target": "pile",
        "correct": False,
        "locked_until": 1200,
        "at_ms": 200,
    }
    assert view["lockouts"] == {"0": 1200}
    assert view["changed_ms"] == 0 and view["seats"][0]["score"] == 0


def test_a_locked_out_seat_is_refused_until_its_lockout_ends():
    state = GAME.new_game(2, 5)
    GAME.apply(state, 0, wrong_claim(state, 0, "pile", at_ms=0))
    refused(
        state,
        0,
        right_claim(state, 0, "pile", at_ms=400),
        "You are locked out for another 0.6 s after a wrong claim.",
    )
    refused(
        state,
        0,
        right_claim(state, 0, "pile", at_ms=999),
        "You are locked out for another 0.1 s after a wrong claim.",
    )
    GAME.apply(state, 0, right_claim(state, 0, "pile", at_ms=1000))
    assert GAME.view(state, 0)["seats"][0]["score"] == 1


def test_the_lockout_length_is_an_option_with_a_floor_so_claiming_every_symbol_never_pays():
    state = GAME.new_game(2, 5, {"lockout_ms": 250})
    GAME.apply(state, 0, wrong_claim(state, 0, "pile", at_ms=10))
    assert GAME.view(state, 0)["lockouts"] == {"0": 260}
    with pytest.raises(IllegalAction) as error:
        GAME.new_game(2, 5, {"lockout_ms": 0})
    assert str(error.value) == "Option lockout_ms must be one of [250, 500, 1000, 2000, 3000, 5000]."


def test_a_claim_stays_current_until_a_right_claim_moves_the_cards():
    state = GAME.new_game(3, 5)
    assert GAME.still_current(state, 0)
    GAME.apply(state, 1, wrong_claim(state, 1, "pile", at_ms=10))
    GAME.apply(state, 2, wrong_claim(state, 2, "pile", at_ms=20))
    assert GAME.still_current(state, 2)  # two wrong claims since: the cards are the same
    GAME.apply(state, 0, right_claim(state, 0, "pile", at_ms=30))
    assert not GAME.still_current(state, 1)
    assert not GAME.still_current(state, 3)


def test_claims_must_arrive_in_time_order():
    state = GAME.new_game(2, 5)
    GAME.apply(state, 0, wrong_claim(state, 0, "pile", at_ms=700))
    refused(
        state,
        1,
        right_claim(state, 1, "pile", at_ms=699),
        "This claim is stamped 699 ms, before the last claim (700 ms): claims must arrive in time order.",
    )
    GAME.apply(state, 1, right_claim(state, 1, "pile", at_ms=700))


def test_the_first_right_claim_wins_and_a_late_claim_is_judged_on_the_new_cards():
    state = GAME.new_game(2, 0)
    late = right_claim(state, 1, "pile", at_ms=50)
    play_right(state, 0, "pile", at_ms=50)
    assert late["symbol"] != right_claim(state, 1, "pile")["symbol"]
    GAME.apply(state, 1, late)
    assert GAME.view(state, 1)["history"][-1]["correct"] is False


@pytest.mark.parametrize(
    "seat, action, message",
    [
        (
            0,
            {"type": "claim", "symbol": 3, "target": "pile"},
            "A claim needs its game time at_ms, a whole number of milliseconds (the server stamps it).",
        ),
        (
            0,
            claim(3, "pile", at_ms=-1),
            "A claim needs its game time at_ms, a whole number of milliseconds (the server stamps it).",
        ),
        (
            0,
            claim(3, "pile", at_ms=1.5),
            "A claim needs its game time at_ms, a whole number of milliseconds (the server stamps it).",
        ),
        (0, claim(57, "pile"), "A claim names a symbol by its id, a whole number from 0 to 56."),
        (0, claim(True, "pile"), "A claim names a symbol by its id, a whole number from 0 to 56."),
        (
            0,
            claim(3, "middle"),
            "That card cannot be matched now. "
            'In the towering inferno you match the top card of the draw pile (target: "pile").',
        ),
        (2, claim(3, "pile"), "There is no seat 2 at this table."),
        (0, {"type": "shout"}, "Unknown action type 'shout'; expected one of claim."),
        (0, ["claim"], 'An action must be a JSON object with a "type".'),
    ],
)
def test_malformed_claims_are_refused_with_a_message_and_change_nothing(seat, action, message):
    refused(GAME.new_game(2, 5), seat, action, message)


def test_legal_actions_are_the_symbols_of_your_card_each_accepted_as_listed():
    state = GAME.new_game(3, 8)
    legal = GAME.legal_actions(state, 2)
    own = GAME.view(state, 2)["seats"][2]["top"]["symbols"]
    assert legal == [{"type": "claim", "symbol": symbol, "target": "pile", "at_ms": 0} for symbol in own]
    assert all(GAME.is_legal(state, 2, action) for action in legal)
    outcomes = [GAME.view(GAME.apply(GAME.clone(state), 2, a), None)["history"][-1]["correct"] for a in legal]
    assert outcomes.count(True) == 1


def test_a_locked_out_seat_gets_claims_stamped_at_its_lockout_end_while_another_seat_is_free():
    state = GAME.new_game(2, 5)
    GAME.apply(state, 0, wrong_claim(state, 0, "pile", at_ms=300))
    assert GAME.to_act(state) == [0, 1]
    assert {action["at_ms"] for action in GAME.legal_actions(state, 0)} == {1300}
    assert all(GAME.is_legal(state, 0, action) for action in GAME.legal_actions(state, 0))
    assert {action["at_ms"] for action in GAME.legal_actions(state, 1)} == {300}


def test_when_everyone_is_locked_out_the_first_freed_seats_get_claims_stamped_at_their_lockout_end():
    state = GAME.new_game(3, 5)
    for seat, at_ms in ((0, 100), (1, 100), (2, 250)):
        GAME.apply(state, seat, wrong_claim(state, seat, "pile", at_ms=at_ms))
    assert GAME.to_act(state) == [0, 1, 2]
    assert {action["at_ms"] for action in GAME.legal_actions(state, 2)} == {1250}
    legal = GAME.legal_actions(state, 0)
    assert {action["at_ms"] for action in legal} == {1100}
    assert all(GAME.is_legal(state, 0, action) for action in legal)


def test_every_view_shows_only_face_up_cards_and_the_same_for_everyone():
    state = GAME.new_game(4, 9, {"mini_game": "the-well"})
    views = [GAME.view(state, seat) for seat in (None, 0, 1, 2, 3)]
    for view in views:
        assert cards_in(view) == face_up_cards(state)
        assert {**view, "seat": None} == views[0]
    assert views[0]["pile"] == {"count": 0, "top": None}


def test_the_view_carries_the_contract_keys_and_default_action_is_none():
    state = GAME.new_game(2, 1)
    view = GAME.view(state, 0)
    for key in ("game", "seat", "players", "to_act", "is_over", "result", "history"):
        assert key in view
    assert (view["game"], view["seat"], view["to_act"], view["result"]) == ("dobble", 0, [0, 1], None)
    assert GAME.default_action(state, 0) is None


def test_dump_load_and_clone_are_independent_copies():
    state = GAME.new_game(3, 4, {"mini_game": "gotta-catch-them-all"})
    copy = GAME.clone(state)
    play_right(state, 0, 0, at_ms=10)
    assert GAME.dump(copy) != GAME.dump(state)
    assert GAME.dump(GAME.load(GAME.dump(state))) == GAME.dump(state)


def test_a_claim_the_server_marks_as_a_false_start_never_wins_and_locks_out():
    state = GAME.new_game(2, seed=5)
    right = right_claim(state, 0, "pile", at_ms=120)
    state = GAME.apply(state, 0, {**right, "false_start": True})
    assert state.history[-1] == {**right, "type": "claim", "seat": 0, "correct": False, "false_start": True,
                                 "locked_until": 1120}  # fmt: skip
    assert len(state.pile) == 53 and state.lockout_until[0] == 1120
    refused(state, 1, {**right_claim(state, 1, "pile", at_ms=200), "false_start": False},
            'Only the server marks a claim "false_start": true.')  # fmt: skip


@pytest.mark.parametrize("mini_game", ["towering-inferno", "the-well", "hot-potato", "gotta-catch-them-all",
                                       "poisoned-gift"])  # fmt: skip
def test_the_countdown_view_shows_every_pile_and_no_card(mini_game):
    state = GAME.new_game(3, seed=2, options={"mini_game": mini_game})
    view = GAME.view(state, 0)
    hidden = GAME.countdown_view(view)
    assert "symbols" in repr(view) and "symbols" not in repr(hidden)
    assert hidden["face_down"] is True and hidden["pile"]["top"] is hidden["middle"]["top"] is None
    assert [seat["cards"] for seat in hidden["seats"]] == [seat["cards"] for seat in view["seats"]]
    assert hidden["pile"]["count"] == view["pile"]["count"] and len(hidden["revealed"]) == len(view["revealed"])
