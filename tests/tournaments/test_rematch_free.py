"""The complete search for multi-seat tables without rematches, against brute force on small
fields, and multi-seat Swiss on fields past brute force's reach."""

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.test_swiss import SMALL_SHAPES, best_seating, multi_seat_fields
from tournaments import pairing, swiss_pairing
from tournaments.rematch_free import PREFERENCES, OutOfBudget, met_graph, seat_without_rematches

pytestmark = pytest.mark.once  # pure pairing
SHAPES = [*SMALL_SHAPES, (11, [4, 4, 3]), (12, [4, 4, 4]), (12, [3, 3, 3, 3]), (12, [6, 6])]


@settings(max_examples=300, deadline=None)
@given(multi_seat_fields(SHAPES), st.randoms(use_true_random=False), st.sampled_from(PREFERENCES))
def test_the_search_finds_tables_without_a_rematch_exactly_when_brute_force_does(field_and_sizes, rng, prefer):
    players, sizes = field_and_sizes
    home = {p: rng.randrange(len(sizes)) for p in players.order}  # any preference: still complete
    found = seat_without_rematches(players.order, sizes, met_graph(players.met, players.order), home, prefer=prefer)
    possible = best_seating(players, players.order, sizes)[0] == 0
    assert (found is not None) == possible
    if found is not None:
        assert [len(table) for table in found] == sizes
        assert sorted(p for table in found for p in table) == players.order
        assert swiss_pairing.rematches(found, players.met) == 0


def test_the_search_proves_there_is_no_table_of_four_from_three_earlier_tables():
    """Seven players who sat at tables of 4 and 3: a new table of 4 must take two from one of them."""
    met = Counter(frozenset(p) for table in ([0, 1, 2, 3], [4, 5, 6]) for p in combinations(table, 2))
    order = list(range(7))
    assert seat_without_rematches(order, [4, 3], met_graph(met, order)) is None


def test_a_search_out_of_budget_says_so_instead_of_answering():
    met = Counter(frozenset(p) for table in ([0, 1, 2, 3], [4, 5, 6]) for p in combinations(table, 2))
    order = list(range(7))
    with pytest.raises(OutOfBudget):
        seat_without_rematches(order, [4, 3], met_graph(met, order), budget=1)


@st.composite
def swiss_histories(draw):
    """13 to 30 players at tables of 3 to 6, after 2 to 5 earlier rounds seated at random."""
    sizes, _ = pairing.table_sizes(draw(st.integers(13, 30)), draw(st.integers(3, 6)), 3)
    n = sum(sizes)  # the byes already left
    met: Counter = Counter()
    for _ in range(draw(st.integers(2, 5))):
        seated = draw(st.permutations(range(n)))
        start = 0
        for size in sizes:
            met.update(frozenset(p) for p in combinations(seated[start : start + size], 2))
            start += size
    points = sorted(draw(st.lists(st.sampled_from([0, 1, 2, 3]), min_size=n, max_size=n)), reverse=True)
    return swiss_pairing.Field(list(range(n)), dict(enumerate(points)), met), sizes


@settings(max_examples=60, deadline=None)
@given(swiss_histories())
def test_multi_seat_tables_keep_a_rematch_only_when_the_complete_search_proves_it_unavoidable(field_and_sizes):
    players, sizes = field_and_sizes
    tables = swiss_pairing.seat_tables(players, sizes)
    assert sorted(p for table in tables for p in table) == players.order
    if swiss_pairing.rematches(tables, players.met):
        assert seat_without_rematches(players.order, sizes, met_graph(players.met, players.order)) is None


def test_a_field_whose_search_runs_out_of_budget_keeps_the_local_search_tables():
    """The documented fallback: everyone still seated, at the tables' sizes."""
    order = list(range(25))
    met = Counter(frozenset(p) for start in (0, 7, 13, 19) for p in combinations(order[start : start + 6], 2))
    players = swiss_pairing.Field(order, dict.fromkeys(order, 0.0), met)
    tables = swiss_pairing.seat_tables(players, [7, 6, 6, 6], budget=0)
    assert sorted(p for table in tables for p in table) == order
    assert sorted(map(len, tables)) == [6, 6, 6, 7]


def rematch_free_by_brute_force(order, sizes, met):
    """Whether any seating of `order` at `sizes` has no two players who met at one table: the
    first player left sits with every choice of companions none of whom they or each other met."""
    if not order:
        return True
    first, rest = order[0], order[1:]
    for size in set(sizes):
        remaining = list(sizes)
        remaining.remove(size)
        for others in combinations(rest, size - 1):
            table = [first, *others]
            if any(met[frozenset(pair)] for pair in combinations(table, 2)):
                continue
            if rematch_free_by_brute_force([p for p in rest if p not in others], remaining, met):
                return True
    return False


@st.composite
def small_multi_seat_fields(draw):
    """6 to 12 players at tables of 3 or 4 (sizes from pairing.table_sizes), after 1 to 3 earlier
    rounds seated at random and a few extra meetings, with scores in standings order."""
    sizes, _ = pairing.table_sizes(draw(st.integers(6, 12)), draw(st.sampled_from([3, 4])), 3)
    n = sum(sizes)  # the byes (7 players at tables of 3: one) already left
    met: Counter = Counter()
    for _ in range(draw(st.integers(1, 3))):
        seated, start = draw(st.permutations(range(n))), 0
        for size in sizes:
            met.update(frozenset(p) for p in combinations(seated[start : start + size], 2))
            start += size
    met.update(draw(st.lists(st.sampled_from([frozenset(p) for p in combinations(range(n), 2)]), max_size=n)))
    points = sorted(draw(st.lists(st.sampled_from([0, 0.5, 1, 2, 3]), min_size=n, max_size=n)), reverse=True)
    return swiss_pairing.Field(list(range(n)), dict(enumerate(points)), met), sizes


@pytest.mark.parametrize("exact", [swiss_pairing.EXACT, 0], ids=["every seating weighed", "local and complete search"])
@settings(max_examples=80, deadline=None)
@given(field_and_sizes=small_multi_seat_fields())
def test_small_multi_seat_fields_get_tables_without_a_rematch_whenever_brute_force_finds_some(field_and_sizes, exact):
    """Everyone seated once, at tables whose sizes differ by at most one; no rematch whenever
    some seating has none (exact=0: the path of fields over 12 players)."""
    players, sizes = field_and_sizes
    tables = swiss_pairing.seat_tables(players, sizes, exact=exact)
    assert sorted(p for table in tables for p in table) == players.order
    assert sorted(map(len, tables)) == sorted(sizes) and max(sizes) - min(sizes) <= 1
    if rematch_free_by_brute_force(players.order, sizes, players.met):
        assert swiss_pairing.rematches(tables, players.met) == 0
