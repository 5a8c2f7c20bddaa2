"""Seating and table points: pure functions, checked on every field size."""

from collections import Counter
from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tournaments import pairing


@given(players=st.integers(0, 200), size=st.integers(2, 11), minimum=st.integers(2, 11))
def test_tables_seat_everyone_they_can_within_the_limits_and_as_evenly_as_possible(players, size, minimum):
    minimum = min(minimum, size)
    sizes, byes = pairing.table_sizes(players, size, minimum)
    assert sum(sizes) + byes == players
    assert all(minimum <= seats <= size for seats in sizes)
    assert not sizes or max(sizes) - min(sizes) <= 1
    if players >= minimum and size >= 2 * minimum - 1:
        assert byes < minimum


def test_an_odd_field_at_two_seat_tables_has_one_bye():
    assert pairing.table_sizes(7, 2, 2) == ([2, 2, 2], 1)
    assert pairing.table_sizes(7, 4, 3) == ([4, 3], 0)
    assert pairing.table_sizes(2, 4, 3) == ([], 2)


@given(st.integers(2, 16))
def test_round_robin_pairs_everyone_exactly_once(players):
    field = list(range(players))
    met, byes = [], []
    for round_number in range(1, pairing.round_robin_rounds(players) + 1):
        tables, sitting_out = pairing.round_robin_pairs(field, round_number)
        seated = [player for table in tables for player in table]
        assert sorted(seated + sitting_out) == field
        met += [frozenset(table) for table in tables]
        byes += sitting_out
    assert sorted(met, key=sorted) == sorted((frozenset(pair) for pair in combinations(field, 2)), key=sorted)
    assert sorted(byes) == (field if players % 2 else [])
    first = Counter(table[0] for round_number in range(1, pairing.round_robin_rounds(players) + 1)
                    for table in pairing.round_robin_pairs(field, round_number)[0])  # fmt: skip
    games = players - 1
    assert all(games // 2 <= first[player] <= (games + 1) // 2 for player in field), "each moves first in half"


def test_round_robin_follows_fides_berger_table_for_six_players_colours_included():
    """FIDE C.05 Annex 1, 5 or 6 players; the first of each pair moves first (white). An arbiter
    found a player moving second in rounds 1, 2 and 3 of a round robin."""
    table = [pairing.round_robin_pairs([1, 2, 3, 4, 5, 6], r)[0] for r in range(1, 6)]
    assert table == [
        [[1, 6], [2, 5], [3, 4]],
        [[6, 4], [5, 3], [1, 2]],
        [[2, 6], [3, 1], [4, 5]],
        [[6, 5], [1, 4], [2, 3]],
        [[3, 6], [4, 2], [5, 1]],
    ]
    assert pairing.round_robin_pairs([1, 2, 3, 4, 5], 2) == ([[5, 3], [1, 2]], [4]), "6 is the bye"


@given(st.integers(2, 16))
def test_in_a_round_robin_nobody_moves_first_or_second_three_rounds_in_a_row(players):
    field = list(range(players))
    turns = {player: "" for player in field}
    for round_number in range(1, pairing.round_robin_rounds(players) + 1):
        for first, second in pairing.round_robin_pairs(field, round_number)[0]:
            turns[first] += "F"
            turns[second] += "S"
    assert not [seq for seq in turns.values() if "FFF" in seq or "SSS" in seq]


@given(st.integers(2, 8), st.integers(1, 12))
def test_fixed_tables_rotate_so_each_player_sits_first_in_turn(players, rounds):
    seating = list(range(players))
    firsts = [pairing.rotate(seating, r)[0] for r in range(1, players + 1)]
    assert sorted(firsts) == seating
    assert sorted(pairing.rotate(seating, rounds)) == seating


def test_snake_deals_strength_back_and_forth():
    assert pairing.snake(list(range(9)), [3, 3, 3]) == [[0, 5, 6], [1, 4, 7], [2, 3, 8]]
    assert pairing.snake(list(range(5)), [3, 2]) == [[0, 3, 4], [1, 2]]
