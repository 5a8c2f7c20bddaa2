"""I Doubt It: the deal, the due ranks, the doubt window, challenges, the end, refusals and views."""

from collections import Counter

import pytest

from games.base import IllegalAction
from games.cards import decks
from games.doubt_it.rules import GAME


def table(hands, dealer=None, **options):
    """A game with chosen hands; by default the dealer sits last, so seat 0 plays first."""
    data = GAME.dump(GAME.new_game(len(hands), seed=1, options=options or None))
    dealer = len(hands) - 1 if dealer is None else dealer
    data.update(hands=[list(hand) for hand in hands], dealer=dealer, turn=(dealer + 1) % len(hands))
    return GAME.load(data)


def play(state, seat, *cards):
    return GAME.apply(state, seat, {"type": "play", "cards": list(cards)})


def doubt(state, seat):
    return GAME.apply(state, seat, {"type": "doubt"})


def pass_(state, *seats):
    for seat in seats:
        GAME.apply(state, seat, {"type": "pass"})
    return state


def refused(state, seat, action, message):
    before = GAME.dump(state)
    with pytest.raises(IllegalAction) as error:
        GAME.apply(state, seat, action)
    assert str(error.value) == message
    assert GAME.dump(state) == before


# The deal -------------------------------------------------------------------

@pytest.mark.parametrize(("players", "cards"), [(3, 52), (5, 52), (6, 104), (11, 104)])
def test_every_card_is_dealt_from_one_deck_up_to_five_players_and_two_decks_from_six(players, cards):
    state = GAME.new_game(players, seed=2)
    assert Counter(card for hand in state.hands for card in hand) == Counter(decks(cards // 52))
    assert GAME.view(state, None)["max_cards"] == 4 * cards // 52


def test_the_deal_starts_on_the_dealers_left_so_those_seats_get_the_extra_cards_and_play_first():
    for seed in range(12):
        state = GAME.new_game(5, seed=seed)
        view = GAME.view(state, None)
        dealer = view["dealer"]
        after_dealer = [(dealer + step) % 5 for step in range(1, 6)]
        assert [view["hand_counts"][seat] for seat in after_dealer] == [11, 11, 10, 10, 10]
        assert view["turn"] == (dealer + 1) % 5 and GAME.to_act(state) == [(dealer + 1) % 5]
        assert view["due"] == "A" and view["pile"] == 0 and view["last_play"] is None


def test_the_dealer_comes_from_the_seed():
    assert {GAME.new_game(4, seed=seed).dealer for seed in range(40)} == {0, 1, 2, 3}
    assert GAME.dump(GAME.new_game(7, seed=9)) == GAME.dump(GAME.new_game(7, seed=9))


def test_a_drawn_dealer_is_drawn_as_before_the_choice_existed_so_old_matches_replay():
    """Dealers and a hand of seeds 0-7 at four players as dealt before the option (main at 684b5fc)."""
    games = [GAME.new_game(4, seed=seed) for seed in range(8)]
    assert [game.dealer for game in games] == [2, 1, 2, 2, 3, 3, 0, 0]
    assert games[0].hands[0][:4] == ["KS", "8S", "JC", "TD"]


def test_with_the_first_seat_starting_the_dealer_sits_last_so_seat_0_gets_an_extra_card_and_plays_first():
    for seed in range(8):
        view = GAME.view(GAME.new_game(5, seed=seed, options={"starter": "first_seat"}), None)
        assert view["dealer"] == 4 and view["turn"] == 0 and view["to_act"] == [0]
        assert view["hand_counts"] == [11, 11, 10, 10, 10]


@pytest.mark.parametrize("players", [2, 12])
def test_the_table_takes_three_to_eleven_players(players):
    with pytest.raises(IllegalAction, match=f"I Doubt It takes 3 to 11 players, not {players}."):
        GAME.new_game(players, seed=1)


# Plays and the doubt window ------------------------------------------------------

def test_ranks_are_due_from_aces_down_to_twos_and_then_aces_again():
    state = table([["2S"] * 8, ["3S"] * 8, ["4S"] * 8])
    claimed = []
    for _ in range(14):
        seat = GAME.to_act(state)[0]
        play(state, seat, state.hands[seat][0])
        claimed.append(GAME.view(state, None)["last_play"]["rank"])
        pass_(state, *GAME.to_act(state))
    assert "".join(claimed) == "AKQJT98765432A"


def test_a_play_opens_a_window_where_every_other_seat_answers_at_once_from_the_players_left():
    state = table([["AS", "2C"], ["KS", "3C"], ["QS", "4C"], ["JS", "5C"]], dealer=1)
    play(state, 2, "QS")
    assert GAME.to_act(state) == [3, 0, 1]
    assert GAME.legal_actions(state, 0) == [{"type": "doubt"}, {"type": "pass"}]
    assert GAME.legal_actions(state, 2) == []
    pass_(state, 0)
    window = GAME.view(state, None)["window"]
    assert window == {"open": True, "waiting": [3, 1], "passed": [0], "doubted": []}
    assert GAME.view(state, None)["turn"] is None


def test_when_everybody_passes_the_next_player_claims_the_next_rank():
    state = table([["AS", "2C"], ["KS", "3C"], ["QS", "4C"]])
    play(state, 0, "AS")
    pass_(state, 2, 1)
    view = GAME.view(state, 1)
    assert GAME.to_act(state) == [1] and view["turn"] == 1 and view["due"] == "K"
    assert view["history"] == [
        {"type": "play", "seat": 0, "count": 1, "rank": "A", "left": 1},
        {"type": "unchallenged", "seat": 0, "passed": [2, 1]},
    ]
    assert view["pile"] == 1 and view["hand_counts"] == [1, 2, 2]


def test_a_doubted_honest_play_sends_the_whole_pile_to_the_doubter():
    state = table([["AS", "2C", "3C"], ["KS", "KH", "5H"], ["QS", "4D"]])
    play(state, 0, "2C")
    pass_(state, 1, 2)
    play(state, 1, "KS", "KH")
    doubt(state, 0)
    assert state.history[-1] == {
        "type": "doubt", "seat": 0, "player": 1, "rank": "K", "cards": ["KS", "KH"], "honest": True,
        "loser": 0, "took": 3, "passed": [], "doubters": [0],
    }
    assert Counter(state.hands[0]) == Counter(["AS", "3C", "2C", "KS", "KH"]) and state.pile == []
    assert GAME.view(state, 2)["last_play"] == {"seat": 1, "count": 2, "rank": "K", "cards": ["KS", "KH"]}


def test_a_caught_bluff_takes_the_pile_back_like_three_fives_with_a_nine_among_them():
    state = table([["5S", "5H", "9D", "2C"], ["KS"], ["QS"]])
    state = GAME.load({**GAME.dump(state), "due": 9})  # fives are due
    play(state, 0, "5S", "5H", "9D")
    pass_(state, 1)
    doubt(state, 2)
    event = state.history[-1]
    assert (event["honest"], event["loser"], event["passed"]) == (False, 0, [1])
    assert event["cards"] == ["5S", "5H", "9D"]
    assert sorted(state.hands[0]) == ["2C", "5H", "5S", "9D"]
    assert GAME.to_act(state) == [1] and GAME.view(state, None)["due"] == "4"


def test_by_default_the_first_doubt_to_arrive_is_the_challenge_and_closes_the_window():
    state = table([["KD", "2C"], ["KS"], ["QS"], ["JS"]])
    play(state, 0, "KD")
    doubt(state, 3)
    assert state.history[-1]["seat"] == 3 and state.history[-1]["doubters"] == [3]
    assert GAME.to_act(state) == [1]
    refused(state, 2, {"type": "doubt"}, "There is no play to doubt or pass on yet: wait for the next play.")


def test_with_the_nearest_rule_the_doubter_nearest_the_dealers_left_challenges():
    state = table([["KD", "2C"], ["KS"], ["QS"], ["JS"]], dealer=1, doubt_rule="nearest")
    play(state, 2, "QS")  # from the dealer's left: 2 (the player), 3, 0, 1
    pass_(state, 3)
    doubt(state, 1)
    assert GAME.to_act(state) == [0] and GAME.view(state, None)["window"]["doubted"] == [1]
    doubt(state, 0)
    assert state.history[-1]["seat"] == 0 and state.history[-1]["doubters"] == [1, 0]


def test_with_the_nearest_rule_the_window_settles_as_soon_as_no_nearer_seat_is_still_to_answer():
    state = table([["KD", "2C"], ["KS"], ["QS"], ["JS"]], dealer=3, doubt_rule="nearest")
    play(state, 0, "KD")  # the order from the dealer's left is 0, 1, 2, 3
    doubt(state, 1)
    assert state.history[-1]["type"] == "doubt" and state.history[-1]["seat"] == 1
    assert state.hands[0] == ["2C", "KD"]


def test_with_the_nearest_rule_a_far_doubt_waits_for_the_nearer_seats():
    state = table([["KD", "2C"], ["KS"], ["QS"], ["JS"]], dealer=3, doubt_rule="nearest")
    play(state, 0, "KD")
    doubt(state, 3)
    assert GAME.to_act(state) == [1, 2]
    pass_(state, 2, 1)
    assert state.history[-1]["seat"] == 3 and state.history[-1]["passed"] == [2, 1]


def test_after_a_challenge_the_turn_passes_on_as_usual_by_default():
    state = table([["KD", "2C"], ["KS"], ["QS"]])
    play(state, 0, "KD")
    doubt(state, 2)
    assert GAME.to_act(state) == [1]


def test_the_loser_of_the_challenge_plays_next_when_the_table_chooses_so():
    state = table([["KD", "2C"], ["KS"], ["QS"]], after_doubt="loser")
    play(state, 0, "KD")
    doubt(state, 2)
    assert GAME.to_act(state) == [0] and GAME.view(state, None)["due"] == "K"


# The end -------------------------------------------------------------------

def test_emptying_the_hand_wins_once_everybody_passes():
    state = table([["AS"], ["KS", "2D"], ["QS", "3D", "4D"]])
    play(state, 0, "AS")
    assert not GAME.is_over(state)
    pass_(state, 1, 2)
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert GAME.result(state) == {"ranking": [[0], [1], [2]], "scores": {"0": 0, "1": 2, "2": 3}}
    assert state.history[-1] == {"type": "end", "winner": 0, "plays": 1}


def test_an_honest_last_play_wins_even_when_doubted_and_the_doubter_takes_the_pile():
    state = table([["AS"], ["KS", "2D"], ["QS", "3D"]])
    play(state, 0, "AS")
    doubt(state, 1)
    assert GAME.is_over(state)
    assert GAME.result(state) == {"ranking": [[0], [2], [1]], "scores": {"0": 0, "1": 3, "2": 2}}


def test_a_caught_last_play_takes_the_pile_and_the_game_goes_on():
    state = table([["KD"], ["KS"], ["QS"]])
    play(state, 0, "KD")
    doubt(state, 1)
    assert not GAME.is_over(state) and state.hands[0] == ["KD"] and GAME.to_act(state) == [1]


def test_players_with_as_many_cards_left_share_a_place():
    state = table([["AS"], ["KS", "2D"], ["QS", "3D"], ["JS", "4D", "5D"]])
    play(state, 0, "AS")
    pass_(state, 1, 2, 3)
    assert GAME.result(state)["ranking"] == [[0], [1, 2], [3]]


def test_the_play_limit_ends_the_game_and_ranks_everybody_by_cards_left():
    state = table([["2S"] * 8, ["3S"] * 8, ["4S"] * 8], max_plays=20)
    for _ in range(20):
        seat = GAME.to_act(state)[0]
        play(state, seat, state.hands[seat][0])
        pass_(state, *GAME.to_act(state))
    assert GAME.is_over(state) and state.winner is None
    assert state.history[-1] == {"type": "end", "winner": None, "plays": 20}
    assert GAME.result(state) == {"ranking": [[0, 1], [2]], "scores": {"0": 1, "1": 1, "2": 2}}
    refused(state, 0, {"type": "play", "cards": ["2S"]}, "The game is over.")


# Refusals ------------------------------------------------------------------

def test_a_play_must_come_from_the_seat_whose_turn_it_is():
    state = table([["AS", "2C"], ["KS"], ["QS"]])
    refused(state, 1, {"type": "play", "cards": ["KS"]}, "It is not your turn to play.")


def test_a_play_needs_a_list_of_at_least_one_card():
    state = table([["AS", "2C"], ["KS"], ["QS"]])
    message = "Choose at least one card to play."
    refused(state, 0, {"type": "play", "cards": []}, message)
    refused(state, 0, {"type": "play"}, message)
    refused(state, 0, {"type": "play", "cards": "AS"}, message)


def test_a_play_may_only_use_cards_the_player_holds():
    state = table([["AS", "AH", "2C"], ["KS"], ["QS"]])
    refused(state, 0, {"type": "play", "cards": ["KH"]}, "You do not hold the king of hearts.")
    refused(state, 0, {"type": "play", "cards": ["AS", "AS"]}, "You hold the ace of spades only once.")
    refused(state, 0, {"type": "play", "cards": ["AS", "1S"]},
            "'1S' is not a card: write rank then suit, e.g. \"7H\" or \"TD\".")
    refused(state, 0, {"type": "play", "cards": [["AS"]]},
            "['AS'] is not a card: write rank then suit, e.g. \"7H\" or \"TD\".")


def test_a_play_holds_at_most_four_cards_per_deck():
    state = table([["AS", "AH", "AD", "AC", "2C"], ["KS"], ["QS"]])
    refused(state, 0, {"type": "play", "cards": ["AS", "AH", "AD", "AC", "2C"]},
            "Play at most 4 cards at once: that is all of one rank in one deck.")
    big = table([["AS", "AH", "AD", "AC", "2C"] * 2] + [["KS"]] * 5)
    refused(big, 0, {"type": "play", "cards": ["AS", "AH", "AD", "AC", "2C"] * 2},
            "Play at most 8 cards at once: that is all of one rank in two decks.")
    play(big, 0, "AS", "AH", "AD", "AC", "AS", "AH", "AD", "AC")
    assert GAME.view(big, None)["last_play"]["count"] == 8


def test_nobody_plays_while_the_window_is_open():
    state = table([["AS", "2C"], ["KS"], ["QS"]])
    play(state, 0, "AS")
    kings, two = {"type": "play", "cards": ["KS"]}, {"type": "play", "cards": ["2C"]}
    refused(state, 1, kings, "The doubt window is open: doubt or pass on the last play.")
    refused(state, 0, two, "Wait for the others to doubt or pass on your play.")
    pass_(state, 1)
    refused(state, 1, kings, "You have already answered; wait for the doubt window to close.")


def test_doubts_and_passes_only_answer_somebody_elses_open_play_once():
    state = table([["AS", "2C"], ["KS"], ["QS"]])
    refused(state, 0, {"type": "pass"}, "There is no play to answer yet: it is your turn to play cards.")
    refused(state, 1, {"type": "doubt"}, "There is no play to doubt or pass on yet: wait for the next play.")
    play(state, 0, "AS")
    refused(state, 0, {"type": "doubt"}, "You cannot doubt or pass on your own play; wait for the others.")
    pass_(state, 2)
    refused(state, 2, {"type": "doubt"}, "You have already answered this play.")


@pytest.mark.parametrize(("seat", "action", "message"), [
    (0, {"type": "bid"}, "Unknown action type 'bid'; expected one of play, doubt, pass."),
    (0, "doubt", 'An action must be a JSON object with a "type".'),
    (3, {"type": "pass"}, "There is no seat 3 at this table."),
    (True, {"type": "pass"}, "There is no seat True at this table."),
])
def test_malformed_actions_are_refused_with_a_message(seat, action, message):
    refused(table([["AS"], ["KS"], ["QS"]]), seat, action, message)


# Timeouts, legal actions, views ---------------------------------------------------

def test_on_timeout_a_seat_in_the_window_passes():
    state = table([["AS", "2C"], ["KS"], ["QS"]])
    play(state, 0, "AS")
    assert GAME.default_action(state, 1) == {"type": "pass"}
    assert GAME.default_action(state, 0) is None


def test_on_timeout_the_player_gives_one_card_of_the_due_rank_or_else_the_card_due_last():
    state = table([["2C", "AH", "AS"], ["KS"], ["QS"]])
    assert GAME.default_action(state, 0) == {"type": "play", "cards": ["AH"]}
    state = table([["QC", "2C", "KS"], ["KS"], ["QS"]])  # aces are due; kings come next, twos last
    assert GAME.default_action(state, 0) == {"type": "play", "cards": ["2C"]}
    assert GAME.default_action(state, 1) is None


def test_legal_plays_list_each_card_held_and_all_cards_held_of_each_rank():
    state = table([["AS", "AH", "AS", "2C", "KD", "KC"]] + [["KS"]] * 5)  # two decks from six players
    plays = [action["cards"] for action in GAME.legal_actions(state, 0)]
    assert plays == [["AS"], ["AH"], ["KD"], ["KC"], ["2C"], ["AS", "AS", "AH"], ["KD", "KC"]]
    assert GAME.legal_actions(state, 1) == []
    play(state, 0, "AH", "KC", "2C")  # a mixed set is legal though not listed
    assert GAME.legal_actions(state, 1) == [{"type": "doubt"}, {"type": "pass"}]


def test_a_seat_sees_its_own_hand_in_due_order_and_only_counts_of_the_others():
    state = table([["2C", "KS", "AH", "AS", "TD"], ["KH", "5D"], ["QS"]])
    play(state, 0, "2C")
    view = GAME.view(state, 0)
    assert view["hand"] == ["AS", "AH", "KS", "TD"]
    assert view["hand_counts"] == [4, 2, 1] and view["pile"] == 1
    assert view["last_play"] == {"seat": 0, "count": 1, "rank": "A", "cards": None}
    assert GAME.view(state, 1)["hand"] == ["KH", "5D"]
    spectator = GAME.view(state, None)
    assert spectator["hand"] is None and "2C" not in str(spectator)
    assert {key for key in view} >= {"game", "seat", "players", "to_act", "is_over", "result", "history"}
    assert (view["game"], view["seat"], view["players"], view["to_act"]) == ("doubt-it", 0, 3, [1, 2])
