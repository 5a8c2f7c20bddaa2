"""Swiss pairing against a brute-force optimum on small fields, and its rules one by one."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import swiss_pairing


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
    return swiss_pairing.Field(order, dict(zip(order, points, strict=True)), met, had_bye, forbidden)


@settings(max_examples=300, deadline=None)
@given(fields())
def test_the_pairing_in_blocks_is_as_good_as_the_best_of_every_possible_pairing_rule_by_rule(players):
    tables, byes = swiss_pairing.pair_in_blocks(players)
    pairs = [tuple(t) for t in tables]
    assert sorted([p for t in tables for p in t] + byes) == list(players.order)
    assert len(byes) == len(players.order) % 2
    best = min(rules(players, p, b) for p, b in all_pairings(list(players.order)))
    assert rules(players, pairs, byes) == best


def test_a_b_c_d_where_only_c_and_d_met_pairs_a_c_and_b_d():
    players = swiss_pairing.Field(list("abcd"), dict.fromkeys("abcd", 1.0), Counter({frozenset("cd"): 1}))
    tables, byes = swiss_pairing.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [["a", "c"], ["b", "d"]] and byes == []


def test_round_one_pairs_the_top_half_against_the_bottom_half():
    players = swiss_pairing.Field(list(range(8)), dict.fromkeys(range(8), 0.0))
    tables, _ = swiss_pairing.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [[0, 4], [1, 5], [2, 6], [3, 7]]


def test_three_leaders_stay_together_as_far_as_possible():
    score = {"a": 5, "b": 5, "c": 5, "d": 4, "e": 1, "f": 1}
    players = swiss_pairing.Field(list("abcdef"), score)
    tables, _ = swiss_pairing.pair_round(players)
    partner = {a: b for t in tables for a, b in (t, t[::-1])}
    assert partner["c"] == "d", "one leader floats down to the next group, not to a 1-pointer"


def test_the_bye_goes_to_the_lowest_placed_player_without_one():
    players = swiss_pairing.Field(list("abcde"), dict(zip("abcde", [2, 2, 1, 1, 0], strict=True)), had_bye={"e"})
    _, byes = swiss_pairing.pair_round(players)
    assert byes == ["d"]


def test_a_forbidden_pair_is_never_paired_while_anything_else_works():
    forbidden = {frozenset("ac"), frozenset("bd")}
    players = swiss_pairing.Field(list("abcd"), dict.fromkeys("abcd", 0.0), forbidden=forbidden)
    tables, _ = swiss_pairing.pair_round(players)
    assert sorted(sorted(t) for t in tables) == [["a", "d"], ["b", "c"]]


@pytest.mark.parametrize("players,group", [(301, 40), (1001, 1001), (2003, 700)])
def test_a_large_field_is_paired_in_blocks_without_losing_or_repeating_anyone(players, group):
    order = list(range(players))
    field = swiss_pairing.Field(order, {p: (players - p) // group for p in order})
    tables, byes = swiss_pairing.pair_round(field)
    assert sorted([p for t in tables for p in t] + byes) == order and byes == [players - 1]


def test_a_large_field_keeps_score_groups_together_and_avoids_rematches_its_direct_pairing_would_make():
    order = list(range(2003))
    scores = {p: 2 - p // 701 for p in order}  # groups of 701, 701 and 601: one float down, one bye
    met = Counter(frozenset((p, p + 350)) for p in range(0, 350, 7))  # top v bottom of the first group
    met.update(frozenset((p, p + 351)) for p in range(701, 1051, 5))  # ... and of the second
    tables, byes = swiss_pairing.pair_round(swiss_pairing.Field(order, scores, met))
    assert sorted([p for t in tables for p in t] + byes) == order and byes == [2002]
    assert swiss_pairing.rematches(tables, met) == 0
    assert sum(scores[a] != scores[b] for a, b in tables) == 1


def best_seating(players, order, sizes):
    """The lowest (rematches, score spread) any seating at these table sizes has (brute force)."""
    if not sizes:
        return (0, 0.0)
    first, rest = order[0], order[1:]
    best = None
    for size in set(sizes):
        remaining_sizes = list(sizes)
        remaining_sizes.remove(size)
        for others in combinations(rest, size - 1):
            table = [first, *others]
            here = swiss_pairing.table_cost(players, table)
            below = best_seating(players, [p for p in rest if p not in others], remaining_sizes)
            found = (here[0] + below[0], here[1] + below[1])
            best = found if best is None else min(best, found)
    return best


@st.composite
def multi_seat_fields(draw, shapes):
    n, sizes = draw(st.sampled_from(shapes))
    order = list(range(n))
    points = sorted(draw(st.lists(st.sampled_from([0, 1 / 3, 0.5, 2 / 3, 1, 1.5, 2]), min_size=n, max_size=n)))
    pairs = [frozenset(p) for p in combinations(order, 2)]
    met = Counter(draw(st.lists(st.sampled_from(pairs), max_size=2 * n)))
    return swiss_pairing.Field(order, dict(zip(order, reversed(points), strict=True)), met), sizes


SMALL_SHAPES = [(6, [3, 3]), (7, [4, 3]), (8, [4, 4]), (9, [3, 3, 3]), (10, [5, 5]), (10, [4, 3, 3])]


@settings(max_examples=150, deadline=None)
@given(multi_seat_fields(SMALL_SHAPES))
def test_multi_seat_tables_cost_no_more_than_the_best_of_every_seating(field_and_sizes):
    players, sizes = field_and_sizes
    tables = swiss_pairing.seat_tables(players, sizes)
    assert sorted(p for t in tables for p in t) == players.order and sorted(map(len, tables)) == sorted(sizes)
    repeats, spread = swiss_pairing.cost(players, tables)
    fewest, least = best_seating(players, players.order, sizes)
    assert repeats == fewest and spread == pytest.approx(least)


@settings(max_examples=150, deadline=None)
@given(multi_seat_fields([*SMALL_SHAPES, (12, [4, 4, 4]), (12, [3, 3, 3, 3])]))
def test_the_swaps_alone_avoid_every_avoidable_rematch_on_small_fields(field_and_sizes):
    """The local search used above EXACT players, checked where brute force can judge it."""
    players, sizes = field_and_sizes
    tables = swiss_pairing.seat_tables(players, sizes, exact=0)
    assert sorted(p for t in tables for p in t) == players.order
    if best_seating(players, players.order, sizes)[0] == 0:
        assert swiss_pairing.rematches(tables, players.met) == 0


def test_a_large_multi_seat_field_has_no_rematch_where_standings_order_had_many():
    """60 players at tables of 4, each table of the standings order already met: the swaps
    move everyone to fresh opponents while score groups stay as close as they can."""
    order = list(range(60))
    met = Counter(frozenset(p) for start in range(0, 60, 4) for p in combinations(order[start : start + 4], 2))
    players = swiss_pairing.Field(order, {p: (60 - p) // 12 for p in order}, met)
    tables = swiss_pairing.seat_tables(players, [4] * 15)
    assert sorted(p for t in tables for p in t) == order and swiss_pairing.rematches(tables, met) == 0
    assert all(max(players.score[p] for p in t) - min(players.score[p] for p in t) <= 1 for t in tables)


def test_seat_zero_at_a_multi_seat_table_goes_to_whoever_sat_first_least():
    order = list(range(6))
    players = swiss_pairing.Field(order, dict.fromkeys(order, 0.0), first_seats={0: 2, 1: 1, 2: 0, 3: 0, 4: 1, 5: 0})
    tables = swiss_pairing.seat_tables(players, [3, 3])
    assert [players.first_seats[t[0]] for t in tables] == [0, 0]


def test_round_one_deals_the_seeds_across_multi_seat_tables():
    """Seeds 1-8 at two tables of 4: not the four strongest together, but out and back."""
    seeds = list(range(1, 9))
    tables = swiss_pairing.seat_tables(swiss_pairing.Field(seeds, dict.fromkeys(seeds, 0.0)), [4, 4])
    assert sorted(sorted(table) for table in tables) == [[1, 4, 5, 8], [2, 3, 6, 7]]
    leaders = swiss_pairing.Field(seeds, {seed: 1.0 if seed <= 4 else 0.0 for seed in seeds})  # accelerated
    assert sorted(sorted(table) for table in swiss_pairing.seat_tables(leaders, [4, 4])) == [[1, 2, 3, 4], [5, 6, 7, 8]]


def test_at_larger_tables_a_forbidden_pair_is_kept_apart_before_a_rematch_is_avoided():
    """Nine players at tables of three who have met everyone but their table-mates of one split:
    that split is the only rematch-free seating and puts the forbidden pair together, so a
    rematch is taken instead."""
    order = list(range(9))
    free = [[0, 1, 2], [3, 4, 5], [6, 7, 8]]
    together = {frozenset(pair) for table in free for pair in combinations(table, 2)}
    met = Counter(frozenset(pair) for pair in combinations(order, 2) if frozenset(pair) not in together)
    field = swiss_pairing.Field(order=order, score=dict.fromkeys(order, 1.0), met=met)
    assert sorted(map(sorted, swiss_pairing.seat_tables(field, [3, 3, 3]))) == free, "without the rule: rematch-free"
    field.forbidden = {frozenset((0, 1))}
    tables = swiss_pairing.seat_tables(field, [3, 3, 3])
    assert not any(0 in table and 1 in table for table in tables), tables
