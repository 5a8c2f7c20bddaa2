"""Swiss pairing against a brute-force optimum on small fields, and its rules one by one."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import swiss


def all_pairings(players):
    """Every way to pair the players (one left over when odd): brute force for small fields."""
    if len(players) < 2:
        yield [], list(players)
        return
    if len(players) % 2:
        for bye in players:
            rest = [p for p in players if p != bye]
            for pairs, _ in all_pairings(rest):
                yield pairs, [bye]
        return
    first, rest = players[0], players[1:]
    for partner in rest:
        others = [p for p in rest if p != partner]
        for pairs, left in all_pairings(others):
            yield [(first, partner), *pairs], left


def rules(players, pairs, byes):
    """The rules in order as a tuple to compare: forbidden, rematches, bye, score groups apart."""
    scores = sorted(set(players.score.values()), reverse=True)
    group = {p: scores.index(players.score[p]) for p in players.order}
    rank = {p: i for i, p in enumerate(players.order)}
    keys = [frozenset(pair) for pair in pairs]
    return (
        sum(key in players.forbidden for key in keys),
        sum(players.met[key] for key in keys) + sum(p in players.had_bye for p in byes),
        sum(len(rank) - 1 - rank[p] for p in byes),
        sum((group[a] - group[b]) ** 2 for a, b in pairs),
    )


@st.composite
def fields(draw, most=9):
    n = draw(st.integers(2, most))
    order = list(range(n))
    points = sorted(draw(st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2, 3]), min_size=n, max_size=n)), reverse=True)
    pairs = [frozenset(p) for p in combinations(order, 2)]
    met = Counter(draw(st.lists(st.sampled_from(pairs), max_size=2 * n)))
    forbidden = set(draw(st.lists(st.sampled_from(pairs), max_size=2)))
    had_bye = set(draw(st.lists(st.sampled_from(order), max_size=n)))
    return swiss.Field(order, dict(zip(order, points, strict=True)), met, had_bye, forbidden)


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_pairing_is_as_good_as_the_best_of_every_possible_pairing_rule_by_rule(players):
    tables, byes = swiss.pair_round(players)
    pairs = [tuple(t) for t in tables]
    assert sorted([p for t in tables for p in t] + byes) == list(players.order)
    assert len(byes) == len(players.order) % 2
    best = min(rules(players, p, b) for p, b in all_pairings(list(players.order)))
    assert rules(players, pairs, byes) == best


def test_a_b_c_d_where_only_c_and_d_met_pairs_a_c_and_b_d():
    players = swiss.Field(list("abcd"), dict.fromkeys("abcd", 1.0), Counter({frozenset("cd"): 1}))
    tables, byes = swiss.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [["a", "c"], ["b", "d"]] and byes == []


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    players = swiss.Field(list(range(8)), dict.fromkeys(range(8), 0.0))
    tables, _ = swiss.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [[0, 4], [1, 5], [2, 6], [3, 7]]


def test_three_leaders_stay_together_as_far_as_possible():
    score = {"a": 5, "b": 5, "c": 5, "d": 4, "e": 1, "f": 1}
    players = swiss.Field(list("abcdef"), score)
    tables, _ = swiss.pair_round(players)
    partner = {a: b for t in tables for a, b in (t, t[::-1])}
    assert partner["c"] == "d", "one leader floats down to the next group, not to a 1-pointer"


def test_the_bye_goes_to_the_lowest_placed_player_without_one():
    players = swiss.Field(list("abcde"), dict(zip("abcde", [2, 2, 1, 1, 0], strict=True)), had_bye={"e"})
    _, byes = swiss.pair_round(players)
    assert byes == ["d"]


def test_a_forbidden_pair_is_never_paired_while_anything_else_works():
    players = swiss.Field(list("abcd"), dict.fromkeys("abcd", 0.0), forbidden={frozenset("ac"), frozenset("bd")})
    tables, _ = swiss.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [["a", "d"], ["b", "c"]]


def test_seat_zero_goes_to_whoever_has_moved_first_less_often():
    players = swiss.Field(["a", "b"], {"a": 1, "b": 1}, first_seats={"a": 1, "b": -1})
    assert swiss.pair_round(players)[0] == [["b", "a"]]
    players = swiss.Field(["a", "b"], {"a": 1, "b": 1}, last_first={"a": True})
    assert swiss.pair_round(players)[0] == [["b", "a"]]


@pytest.mark.parametrize("players,group", [(301, 40), (1001, 1001), (2003, 700)])
def test_a_large_field_is_paired_in_blocks_without_losing_or_repeating_anyone(players, group):
    order = list(range(players))
    field = swiss.Field(order, {p: (players - p) // group for p in order})
    tables, byes = swiss.pair_round(field)
    assert sorted([p for t in tables for p in t] + byes) == order and byes == [players - 1]


def best_rematches(order, sizes, met):
    """The fewest rematches any seating at these table sizes can have (brute force)."""
    if not sizes:
        return 0
    first, rest = order[0], order[1:]
    best = None
    for others in combinations(rest, sizes[0] - 1):
        table = [first, *others]
        remaining = [p for p in rest if p not in others]
        cost = swiss.rematches([table], met) + best_rematches(remaining, sizes[1:], met)
        best = cost if best is None else min(best, cost)
    return best


@settings(max_examples=150, deadline=None)
@given(st.sampled_from([(6, [3, 3]), (8, [4, 4]), (9, [3, 3, 3]), (7, [4, 3]), (10, [5, 5])]), st.data())
def test_multi_seat_tables_have_no_rematch_when_a_seating_without_one_exists(shape, data):
    n, sizes = shape
    order = list(range(n))
    pairs = [frozenset(p) for p in combinations(order, 2)]
    met = Counter(data.draw(st.lists(st.sampled_from(pairs), max_size=n)))
    players = swiss.Field(order, dict.fromkeys(order, 0.0), met)
    tables = swiss.seat_tables(players, sizes)
    assert sorted(p for t in tables for p in t) == order and sorted(map(len, tables)) == sorted(sizes)
    if best_rematches(order, sizes, met) == 0:
        assert swiss.rematches(tables, met) == 0
