"""Two-seat Swiss by the FIDE Dutch system (tournaments/dutch.py): its rules one by one, against
a brute force on small fields, and over whole simulated events (bench/swiss_audit.py --bbp
compares it round by round with bbpPairings)."""

import random
from collections import Counter
from datetime import timedelta
from itertools import combinations, permutations

import pytest
from django.utils import timezone
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import dutch, dutch_brackets, running, seating, services, swiss_pairing
from tournaments.models import Score, Tournament
from tournaments.pairing import table_sizes

from .test_swiss import all_pairings


@st.composite
def fields(draw, most=9):
    n = draw(st.integers(2, most))
    order = list(range(n))
    points = sorted(draw(st.lists(st.sampled_from([0, 0.5, 1, 1.5, 2, 3]), min_size=n, max_size=n)), reverse=True)
    pairs = [frozenset(p) for p in combinations(order, 2)]
    met = Counter(dict.fromkeys(draw(st.lists(st.sampled_from(pairs), max_size=2 * n)), 1))
    had_bye = set(draw(st.lists(st.sampled_from(order), max_size=n)))
    return swiss_pairing.Field(order, dict(zip(order, points, strict=True)), met, had_bye)


def legal(players, pairs, byes):
    return not any(players.met.get(frozenset(p)) for p in pairs) and not set(byes) & players.had_bye


def top_brackets(players, pairs):
    """C.04.3's first quality rules for the two highest brackets: pairs made in the top bracket,
    then in the next, each followed by how many of its pairs hold a player from each higher group."""
    scores = sorted(set(players.score.values()), reverse=True)
    group = {p: scores.index(players.score[p]) for p in players.order}
    key = []
    for k in (0, 1):
        made = [sorted((group[a], group[b])) for a, b in pairs if max(group[a], group[b]) == k]
        key += [len(made), *(sum(high == h for high, _ in made) for h in range(k + 1))]
    return tuple(key)


@pytest.mark.once  # pure pairing
@settings(max_examples=120, deadline=None)
@given(fields())
def test_a_legal_round_is_found_whenever_one_exists_with_the_lowest_bye_and_the_top_brackets_filled_as_well_as_any(
    players,
):
    """The bye first (the lowest score any legal round gives it: C.04.3 2025, as bbpPairings
    weighs it), then the top brackets as full as any legal round with such a bye."""
    found = dutch.pair_in_one_matching(players)
    candidates = [(p, b) for p, b in all_pairings(list(players.order)) if legal(players, p, b)]
    if not candidates:
        assert found is None
        return
    assert found is not None
    tables, byes = found
    assert sorted([p for t in tables for p in t] + byes) == list(players.order)
    assert len(byes) == len(players.order) % 2
    assert legal(players, tables, byes)
    lowest = min(players.score[b[0]] for _, b in candidates) if byes else None
    assert not byes or players.score[byes[0]] == lowest
    lowest_bye = [p for p, b in candidates if not b or players.score[b[0]] == lowest]
    assert top_brackets(players, tables) == max(top_brackets(players, p) for p in lowest_bye)


def play_event(entrants, rounds, seed):
    """A whole event paired by swiss_pairing.pair_round, results at random; each round's field and tables."""
    rng = random.Random(seed)
    players = list(range(entrants))
    score, met, had_bye, colours = Counter(), Counter(), set(), {p: "" for p in players}
    for round_number in range(1, rounds + 1):
        order = sorted(players, key=lambda p: -score[p])
        field = swiss_pairing.Field(
            order, {p: float(score[p]) for p in players}, met.copy(), set(had_bye), colours=dict(colours),
            numbers={p: p + 1 for p in players}, played=round_number - 1, final_round=round_number == rounds,
        )  # fmt: skip
        tables, byes = swiss_pairing.pair_round(field)
        yield field, tables, byes
        for first, second in tables:
            met[frozenset((first, second))] += 1
            colours[first] += "w"
            colours[second] += "b"
            score[rng.choice((first, second))] += 1
        for p in byes:
            score[p] += 1
            had_bye.add(p)


@pytest.mark.once  # pure pairing
@settings(max_examples=12, deadline=None)
@given(st.integers(10, 24), st.integers(0, 10**6))
def test_over_an_event_nobody_passes_a_difference_of_two_or_moves_first_three_times_running(entrants, seed):
    for field, tables, byes in play_event(entrants, 5, seed):
        assert len(byes) == table_sizes(entrants, 2, 2)[1]
        assert not set(byes) & field.had_bye
        assert not any(field.met.get(frozenset(t)) for t in tables)
        leaders = {p for p in field.order if field.score[p] > field.played / 2} if field.final_round else set()
        for first, second in tables:
            for p, seat in ((first, "w"), (second, "b")):
                seats = field.colours[p] + seat
                if p in leaders:
                    continue
                assert abs(seats.count("w") - seats.count("b")) <= 2, (p, seats)
                assert seat * 3 not in seats[-3:], (p, seats)


@pytest.mark.once  # pure pairing
def test_the_two_leaders_meet_and_the_lower_groups_take_the_floats():
    score = {"a": 3, "b": 3, "c": 1, "d": 1, "e": 0, "f": 0, "g": 0, "h": 0}
    met = Counter({frozenset("bf"): 1, frozenset("be"): 1, frozenset("cd"): 1})
    tables, _ = swiss_pairing.pair_round(swiss_pairing.Field(list("abcdefgh"), score, met))
    assert {frozenset(t) for t in tables} == {frozenset(p) for p in ("ab", "ce", "df", "gh")}


@pytest.mark.once  # pure pairing
def test_the_bye_goes_where_it_leaves_every_other_player_in_their_score_group():
    score = {"a": 3, "b": 3, "c": 0, "d": 0, "e": 0}
    met = Counter({frozenset("be"): 1, frozenset("ad"): 1, frozenset("cd"): 1})
    tables, byes = swiss_pairing.pair_round(swiss_pairing.Field(list("abcde"), score, met))
    assert byes == ["d"] and {frozenset(t) for t in tables} == {frozenset("ab"), frozenset("ce")}


@pytest.mark.once  # pure pairing
def test_who_floated_down_last_round_stays_in_their_group_when_another_can_float():
    score = {"a": 2, "b": 2, "c": 2, "d": 1, "e": 1, "f": 1}
    players = swiss_pairing.Field(list("abcdef"), score, floats={"c": "D "})
    tables, _ = swiss_pairing.pair_round(players)
    partner = {p: q for t in tables for p, q in (t, t[::-1])}
    assert score[partner["c"]] == 2 and score[partner["b"]] == 1


@pytest.mark.once  # pure pairing
def test_who_moves_first_follows_the_colour_wishes():
    assert dutch.wish("wbw") == dutch.Wish("b", 2, 1)
    assert dutch.wish("wbb") == dutch.Wish("w", 3, 1)
    assert dutch.wish("wwbw") == dutch.Wish("b", 3, 2)
    players = swiss_pairing.Field(["a", "b"], {"a": 1, "b": 1}, colours={"a": "w", "b": "b"})
    assert swiss_pairing.pair_round(players)[0] == [["b", "a"]]
    players = swiss_pairing.Field(["a", "b"], {"a": 1, "b": 1}, colours={"a": "wb", "b": "wb"})
    assert swiss_pairing.pair_round(players)[0] == [["a", "b"]], "both want to move first: the higher-ranked does"
    colours = {"a": "bw", "b": "wb"}
    players = swiss_pairing.Field(["a", "b"], {"a": 1, "b": 1}, colours=colours, numbers={"a": 2, "b": 1})
    assert swiss_pairing.pair_round(players)[0] == [["b", "a"]]


@pytest.mark.django_db(transaction=True)
def test_the_database_gives_the_dutch_pairing_each_player_s_seats_and_floats_in_order(olga):
    cup = Tournament.objects.create(
        name="Seats", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=4
    )
    for bot in ["heuristic", "random"] * 2 + ["random"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    order = list(cup.entries.values_list("pk", flat=True))
    field = seating.history(cup, order, dict.fromkeys(order, 0.0))
    for entry in order:
        seats = "".join(
            "wb"[table.seating.index(entry)] for table in cup.tables.order_by("round") if entry in table.seating
        )
        assert field.colours.get(entry, "") == seats
    last_bye = Score.objects.get(tournament=cup, round=4, kind="bye").entry_id
    assert field.floats[last_bye][0] == "D", "a bye is a float down"


@pytest.mark.once  # pure pairing
@settings(max_examples=10, deadline=None)
@given(st.integers(20, 44), st.integers(0, 10**6))
def test_a_field_paired_bracket_by_bracket_keeps_the_absolute_rules_and_matches_the_whole_matching_mostly(
    entrants, seed
):
    """dutch_brackets.py with windows shrunk so that a field of 20-44 is cut as a field of
    hundreds is: every round legal, and most rounds the same as one matching over the field."""
    shrunk = {"BRACKET": 8, "WINDOW": 3, "SPARE": 2, "AHEAD": 4}
    saved = {name: getattr(dutch_brackets, name) for name in shrunk}
    rounds = same = 0
    try:
        for name, value in shrunk.items():
            setattr(dutch_brackets, name, value)
        for field, _, _ in play_event(entrants, 5, seed):
            found = dutch_brackets.pair_bracket_by_bracket(field)
            whole = dutch.pair_in_one_matching(field)
            if found is None:
                assert whole is None or field.played, "the first round always pairs"
                continue
            tables, byes = found
            assert sorted([p for t in tables for p in t] + byes) == sorted(field.order)
            assert len(byes) == entrants % 2
            assert legal(field, tables, byes)
            rounds += 1
            same += whole is not None and {frozenset(t) for t in whole[0]} == {frozenset(t) for t in tables}
    finally:
        for name, value in saved.items():
            setattr(dutch_brackets, name, value)
    assert same >= rounds // 3, f"{same} of {rounds} rounds as the whole matching pairs them"


KINDS = st.sampled_from([(None, False), ("w", False), ("w", True), ("b", False), ("b", True)])


def refused(pairs):
    """The refused wishes of these pairs of (seat, strong) wishes: all, then strong ones."""
    keys = [dutch_brackets.clash(a, b) for a, b in pairs]
    return sum(k[0] for k in keys), sum(k[1] for k in keys)


@pytest.mark.once  # pure pairing
@settings(max_examples=300, deadline=None)
@given(st.lists(KINDS, max_size=7))
def test_the_counted_colour_clashes_of_a_bracket_are_the_fewest_any_pairing_gives(kinds):
    """What a large bracket's moved-down players are settled against (dutch_brackets.settle_moved):
    the fewest refused wishes, then strong ones, of any pairing of the bracket, one floating on."""
    best = min(refused([(kinds[a], kinds[b]) for a, b in pairs]) for pairs, _ in all_pairings(list(range(len(kinds)))))
    assert dutch_brackets.fewest_clashes(Counter(kinds)) == best


@pytest.mark.once  # pure pairing
@settings(max_examples=300, deadline=None)
@given(st.lists(KINDS, min_size=1, max_size=6), st.data())
def test_the_counted_colour_clashes_of_top_half_against_bottom_half_are_the_fewest(top, data):
    """What a large bracket's top half is settled against (dutch_brackets.settle_top): the fewest
    refused wishes, then strong ones, of any pairing of the top half with the bottom half (one more
    player at the bottom when the bracket is odd, who floats on)."""
    bottom = data.draw(st.lists(KINDS, min_size=len(top), max_size=len(top) + 1))
    best = min(refused(zip(top, chosen, strict=False)) for chosen in permutations(bottom, len(top)))
    assert dutch_brackets.halves_clashes(Counter(top), Counter(bottom)) == best


@pytest.mark.once  # pure pairing
@settings(max_examples=150, deadline=None)
@given(fields())
def test_bracket_by_bracket_pairs_every_round_one_matching_pairs(players):
    """When the brackets taken one at a time leave someone at the bottom unpaired (rematches), the
    lowest brackets are paired again together: a round that can be paired legally always is."""
    whole = dutch.pair_in_one_matching(players)
    found = dutch_brackets.pair_bracket_by_bracket(players)
    assert (found is None) == (whole is None)
    if found is not None:
        tables, byes = found
        assert sorted([p for t in tables for p in t] + byes) == list(players.order)
        assert legal(players, tables, byes)


@pytest.mark.once  # pure pairing
def test_the_bracket_above_the_last_floats_whoever_leaves_the_bye_to_the_lowest_score():
    """The bottom of a 227-player event's last round. The bracket on 1.5, weighing only its own
    floater against the next bracket, floated B (whose colours suit the 1.0 players best); then
    only B could take the bye (E, the one on 1.0 without a bye, was needed to pair B). As
    bbpPairings and one matching over the field pair it: C floats and E on 1.0 takes the bye."""
    score = dict.fromkeys("abc", 1.5) | dict.fromkeys("defg", 1.0)
    colours = {"a": "bwbwbww", "b": "bwbwbwbb", "c": "wbbwbwb", "d": "wbwbwbb", "e": "wbwbwbbw", "f": "wbwbwbb",
               "g": "bwbwbwb"}  # fmt: skip
    players = swiss_pairing.Field(
        list("abcdefg"), score, had_bye=set("acdfg"), colours=colours, floats={"a": "D ", "c": " D"},
        played=8, final_round=True,
    )  # fmt: skip
    whole = dutch.pair_in_one_matching(players)
    tables, byes = dutch_brackets.pair_bracket_by_bracket(players)
    assert byes == ["e"] == whole[1]
    expected = {frozenset(p) for p in ("ab", "cd", "fg")}
    assert {frozenset(t) for t in tables} == {frozenset(t) for t in whole[0]} == expected
