"""Knockout brackets and series: pure rules."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments import knockout


def test_seeds_are_placed_so_the_top_two_can_only_meet_in_the_final():
    assert knockout.bracket_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert knockout.first_round(list("abcdef")) == [["a"], ["d", "e"], ["b"], ["c", "f"]]


@given(st.integers(2, 70))
def test_every_player_is_in_round_one_once_and_byes_go_to_the_top_seeds(players):
    pairs = knockout.first_round(list(range(players)))
    assert sorted(p for pair in pairs for p in pair) == list(range(players))
    byes = sorted(pair[0] for pair in pairs if len(pair) == 1)
    assert byes == list(range(len(byes))), "the byes are seeds 1, 2, 3, ..."
    assert len(pairs) & (len(pairs) - 1) == 0, "a power of two of pairings"


def test_a_best_of_three_goes_to_the_first_with_two_wins_and_a_drawn_game_is_replayed():
    seed = {"a": 1, "b": 2}
    assert knockout.series_winner(["a", "b"], ["b"], 3, seed) is None
    assert knockout.series_winner(["a", "b"], ["b", None, "a"], 3, seed) is None
    assert knockout.series_winner(["a", "b"], ["b", None, "a", "b"], 3, seed) == "b"
    assert knockout.series_winner(["a", "b"], [None] * 5, 3, seed) == "a", "still level after N + 2: higher seed"
    assert knockout.series_winner(["a"], [], 3, seed) == "a"


def test_the_top_k_of_a_free_for_all_table_go_through_with_ties_across_the_cut():
    assert knockout.advancing([[3], [1], [0], [2]], 2) == [3, 1]
    assert knockout.advancing([[3], [1, 0], [2]], 2) == [3, 1, 0]


def test_rounds_needed():
    assert knockout.rounds_needed(16, 2, 1) == 4 and knockout.rounds_needed(5, 2, 1) == 3
    assert knockout.rounds_needed(16, 4, 2) == 3  # 16 -> 8 -> 4 -> final table
