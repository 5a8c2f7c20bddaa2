"""The pure rating functions against numbers worked out by hand (docs/ratings.md)."""

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import elo, skill
from ratings.table import Standing, places_from_ranking, rate_table


def test_equals_expect_half_and_400_points_ahead_expects_ten_to_one():
    assert elo.expected(1500, 1500) == 0.5
    assert round(elo.expected(1900, 1500), 4) == 0.9091


def test_a_two_player_win_of_the_favourite_moves_4_8_points_at_k_20():
    # E = 1 / (1 + 10^(-200/400)) = 0.759747; 20 * (1 - 0.759747) = 4.805
    assert [round(d, 3) for d in elo.deltas([1600, 1400], [40, 40], [0, 1])] == [4.805, -4.805]


def test_an_upset_moves_15_2_points_at_k_20():
    assert [round(d, 3) for d in elo.deltas([1600, 1400], [40, 40], [1, 0])] == [-15.195, 15.195]


def test_a_draw_moves_points_towards_the_weaker_player():
    assert [round(d, 3) for d in elo.deltas([1600, 1400], [40, 40], [0, 0])] == [-5.195, 5.195]
    assert elo.deltas([1500, 1500], [0, 30], [0, 0]) == [0.0, 0.0]


def test_two_new_players_move_20_points_at_k_40():
    assert elo.deltas([1500, 1500], [0, 0], [0, 1]) == [20.0, -20.0]


def test_k_is_40_while_provisional_then_20_then_10_from_2400():
    assert elo.k_factor(2500, 29) == 40
    assert elo.k_factor(1500, 30) == 20
    assert elo.k_factor(2399.9, 100) == 20
    assert elo.k_factor(2400, 30) == 10
    assert elo.is_provisional(29) and not elo.is_provisional(30)


def test_k_belongs_to_each_player_so_a_master_and_a_regular_move_differently():
    # E(2450 vs 2000) = 0.930242: the master gains 10 * 0.069758, the other loses 20 * 0.069758
    assert [round(d, 4) for d in elo.deltas([2450, 2000], [100, 100], [0, 1])] == [0.6976, -1.3952]


def test_a_free_for_all_is_every_pair_with_k_divided_by_n_minus_1():
    # docs/ratings.md: A 1700 (50 games, K 20), B 1500 (10 games, K 40), C 1400 (40 games, K 20); B, C, A.
    a, b, c = elo.deltas([1700, 1500, 1400], [50, 10, 40], [2, 0, 1])
    assert round(a, 3) == -16.088  # 20/2 * (0 - 0.759747 - 0.849010)
    assert round(b, 3) == 22.394  # 40/2 * (2 - 0.240253 - 0.640065)
    assert round(c, 3) == 4.891  # 20/2 * (1 - 0.150990 - 0.359935)


def test_four_equal_players_with_a_tie_for_second():
    assert elo.deltas([1500] * 4, [0] * 4, [1, 1, 0, 2]) == [0.0, 0.0, 20.0, -20.0]


def test_a_free_for_all_of_two_is_the_two_player_formula():
    assert elo.deltas([1600, 1400], [40, 40], [0, 1]) == elo.deltas([1600, 1400], [40, 40], [0, 1])
    assert elo.deltas([1550], [3], [0]) == [0.0]


@pytest.mark.parametrize("n", [3, 5, 11])
def test_winning_among_equals_gains_the_same_whatever_the_table_size(n):
    assert round(elo.deltas([1500] * n, [30] * n, [0] + [1] * (n - 1))[0], 9) == 10.0


def test_places_come_from_the_ranking_and_missing_seats_are_last():
    assert places_from_ranking([[1], [0, 2]], 3) == [1, 0, 1]
    assert places_from_ranking([[2], [0]], 3) == [1, 2, 0]


def test_a_table_updates_games_wins_peak_and_openskill_together():
    after = rate_table([Standing(), Standing()], [0, 1])
    assert (after[0].elo, after[0].peak, after[0].games, after[0].wins) == (1520.0, 1520.0, 1, 1)
    assert (after[1].elo, after[1].peak, after[1].games, after[1].wins) == (1480.0, 1500.0, 1, 0)
    assert after[0].mu > 25 > after[1].mu and after[0].sigma < 25 / 3


def test_a_shared_first_place_is_not_a_win():
    after = rate_table([Standing(), Standing(), Standing()], [0, 0, 1])
    assert [s.wins for s in after] == [0, 0, 0]
    assert [s.games for s in after] == [1, 1, 1]


def test_openskill_win_probability_is_plackett_luces_duel_and_predict_win_is_the_packages():
    a, b = (30.0, 2.0), (25.0, 2.0)
    c = math.sqrt(2 * (25 / 6) ** 2 + 8)
    assert math.isclose(skill.win_probability(a, b), math.exp(30 / c) / (math.exp(30 / c) + math.exp(25 / c)))
    assert round(skill.win_probability(a, b), 4) == 0.6824
    packaged = skill.MODEL.predict_win([[skill.MODEL.rating(mu=30, sigma=2)], [skill.MODEL.rating(mu=25, sigma=2)]])
    assert math.isclose(skill.predict_win(a, b), packaged[0], rel_tol=1e-12)
    assert skill.win_probability(a, a) == 0.5


def test_openskill_on_the_elo_scale_starts_at_1500_and_predicts_like_elo():
    assert skill.elo_scale(25.0) == 1500.0
    assert round(skill.ELO_PER_MU, 2) == 29.48
    # at settled sigmas (~0) one mu point is worth 29.5 Elo points: the two win chances agree
    settled = skill.win_probability((27.0, 0.0), (25.0, 0.0))
    assert math.isclose(settled, elo.expected(skill.elo_scale(27.0), 1500.0), rel_tol=1e-12)


@given(
    ratings=st.lists(st.floats(min_value=800, max_value=2399), min_size=2, max_size=11),
    data=st.data(),
)
def test_with_one_k_for_everyone_a_table_moves_no_points_in_or_out(ratings, data):
    place = data.draw(st.lists(st.integers(0, 3), min_size=len(ratings), max_size=len(ratings)))
    changes = elo.deltas(ratings, [40] * len(ratings), place)
    assert abs(sum(changes)) < 1e-9
    best = min(place)
    # a player alone in first place beat everyone, so gains whatever the ratings
    if place.count(best) == 1:
        assert changes[place.index(best)] > 0
