"""Every way a table can end is scored: finished, cut short by forfeits, cancelled."""

from hypothesis import given
from hypothesis import strategies as st

from tournaments import scoring
from tournaments.formats import dobble_series


def test_table_points_are_a_share_of_the_opponents_beaten():
    assert scoring.share_points([[1], [0]]) == {1: 1.0, 0: 0.0}
    assert scoring.share_points([[0, 1]]) == {0: 0.5, 1: 0.5}
    assert scoring.share_points([[2], [0, 1], [3]]) == {2: 1.0, 0: 0.5, 1: 0.5, 3: 0.0}


def test_a_table_left_with_one_player_gives_the_stayer_the_win_and_the_leaver_nothing():
    left = {"ranking": [[1], [0]], "scores": {}, "forfeited": [0]}
    assert scoring.share_of_opponents_beaten(left, 2) == {1: 1.0, 0: 0.0}
    assert scoring.kinds(left, 2) == {0: scoring.FORFEITED, 1: scoring.WALKOVER}


def test_a_seat_the_result_leaves_out_counts_last():
    assert scoring.full_ranking({"ranking": [[2]]}, 3) == [[2], [0, 1]]
    assert scoring.share_of_opponents_beaten({"ranking": [[2]]}, 3) == {2: 1.0, 0: 0.25, 1: 0.25}


def test_a_cancelled_match_is_unplayed_and_worth_nothing_to_anyone():
    assert scoring.share_of_opponents_beaten(None, 3) == {0: 0.0, 1: 0.0, 2: 0.0}
    assert scoring.kinds(None, 2) == {0: scoring.UNPLAYED, 1: scoring.UNPLAYED}
    assert scoring.dudab(None, 3, []) is None


def test_a_hot_potato_ended_by_a_forfeit_costs_the_leaver_one_round():
    ended = {"ranking": [[0], [1]], "scores": {}, "forfeited": [1]}
    assert dobble_series.points_by_seat("hot-potato", ended, 2) == {0: 0.0, 1: -5.0}
    assert dobble_series.points_by_seat("towering-inferno", ended, 2) == {0: 5.0, 1: 0.0}
    assert dobble_series.points_by_seat("the-well", ended, 2) == {0: 10.0, 1: -20.0}


def test_a_dudab_game_cut_short_is_scaled_to_a_whole_game_and_the_leaver_gets_the_worst():
    ended = {"ranking": [[0, 2], [1]], "scores": {}, "forfeited": [1]}
    totals = scoring.dudab(ended, 3, [[10, 30, 20]])
    assert totals == {0: 30.0, 1: 90.0, 2: 60.0}
    assert scoring.dudab(ended, 3, [[40, 50, 45]])[1] == 150.0, "the worst scaled total is worse than the floor"
    assert scoring.dudab(ended, 3, []) == {1: 90.0}, "with no round played only the leaver is scored"


def test_a_dudab_player_who_left_gets_the_worst_total_though_the_computer_played_their_seat_to_the_end():
    """An outside tester saw a player who resigned at once keep the 144 the computer then scored
    for him, better than a player who played (178), while ranked below him."""
    played_out = {"ranking": [[0], [2], [1], [3]], "scores": {"0": 21, "1": 178, "2": 126, "3": 144}, "forfeited": [3]}
    assert scoring.dudab(played_out, 4, []) == {0: 21.0, 1: 178.0, 2: 126.0, 3: 178.0}
    low = {"ranking": [[0], [1]], "scores": {"0": 5, "1": 9}, "forfeited": [1]}
    assert scoring.dudab(low, 2, [])[1] == 60.0, "at least 30 a round (a game of two has two rounds)"


@given(st.integers(2, 8), st.data())
def test_every_seat_gets_points_from_any_ranking_a_match_can_report(players, data):
    seats = data.draw(st.permutations(range(players)))
    kept = data.draw(st.integers(0, players))
    forfeited = data.draw(st.lists(st.sampled_from(seats), unique=True, max_size=players))
    result = {"ranking": [[seat] for seat in seats[:kept]], "scores": {}, "forfeited": forfeited}
    for mini_game in ("towering-inferno", "the-well", "poisoned-gift", "hot-potato", "gotta-catch-them-all"):
        assert set(dobble_series.points_by_seat(mini_game, result, players)) == set(range(players))
    points = scoring.share_of_opponents_beaten(result, players)
    assert set(points) == set(range(players)) and all(0 <= p <= 1 for p in points.values())
