"""The detectors alone: what they flag and what they leave, from figures."""

import random

import pytest

from fairplay import detectors
from games.registry import registered

pytestmark = pytest.mark.once  # pure Python


def test_right_claims_in_a_third_of_a_second_are_flagged_and_a_quick_person_is_not():
    rng = random.Random(1)
    script = [rng.randint(250, 350) for _ in range(10)]
    quick_person = [round(900 * rng.lognormvariate(0, 0.35)) for _ in range(300)]
    assert detectors.reactions(script, 0.01, 1500, 700).flagged
    assert not detectors.reactions(quick_person, 0.01, 1500, 700).flagged
    assert not detectors.reactions(script[:5], 0.01, 1500, 700).flagged  # too few to say


def test_a_pair_that_never_doubts_each_other_is_flagged_and_a_pair_with_its_habits_is_not():
    habits = {1: (400, 80), 2: (400, 80)}
    spared = {(1, 2): (80, 0), (2, 1): (80, 0)}
    usual = {(1, 2): (80, 15), (2, 1): (80, 17)}
    assert detectors.pair_sparing(spared, habits, habits, 0.2).flagged
    assert not detectors.pair_sparing(usual, habits, habits, 0.2).flagged


def test_a_pair_whose_target_is_seldom_doubted_by_anyone_is_not_taken_for_colluders():
    """A careful bidder is doubted by everybody less: sparing is measured against that."""
    doubting = {1: (400, 80), 2: (400, 80)}
    doubted = {1: (400, 8), 2: (400, 8)}
    pair = {(1, 2): (80, 2), (2, 1): (80, 1)}
    assert not detectors.pair_sparing(pair, doubting, doubted, 0.2).flagged
    assert detectors.pair_sparing(pair, doubting, {1: (400, 80), 2: (400, 80)}, 0.2).flagged


def test_one_sided_and_alternating_results_within_a_pair_are_farming_and_a_fair_series_is_not():
    even = [0.5] * 12
    assert detectors.farming([1.0] * 20, even[:1] * 20, (160, -160), (160, -40), False).flagged
    assert detectors.farming([1.0, 0.0] * 6, even, (10, -10), (10, 30), False).flagged
    fair = [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0]
    assert not detectors.farming(fair, even, (20, -20), (50, 30), False).flagged


def test_a_shared_browser_makes_a_shorter_one_sided_series_enough():
    results, expected = [1.0] * 12, [0.5] * 12
    assert not detectors.farming(results, expected, (40, -40), (400, 0), False).flagged
    assert detectors.farming(results, expected, (40, -40), (400, 0), True).flagged


def test_thinking_times_as_regular_as_a_clock_are_flagged_and_a_persons_are_not():
    rng = random.Random(2)
    assert detectors.regularity([2.0 + rng.uniform(-0.1, 0.1) for _ in range(50)]).flagged
    assert not detectors.regularity([4 * rng.lognormvariate(0, 0.5) for _ in range(50)]).flagged


def test_reaction_times_run_from_when_the_cards_last_changed():
    history = [
        {"type": "claim", "seat": 0, "correct": False, "at_ms": 500},
        {"type": "claim", "seat": 1, "correct": True, "at_ms": 1200},
        {"type": "claim", "seat": 0, "correct": True, "at_ms": 2000},
    ]
    assert registered("dobble").reaction_times(history) == {1: [1200], 0: [800]}


def test_in_dudo_the_next_seat_has_a_chance_against_the_bidder_and_in_i_doubt_it_everyone_else():
    dudo = [
        {"type": "round"}, {"type": "bid", "seat": 0}, {"type": "bid", "seat": 1}, {"type": "doubt", "seat": 2},
    ]  # fmt: skip
    assert registered("dudo").doubt_chances(dudo) == {(1, 0): [1, 0], (2, 1): [1, 1]}
    doubt_it = [
        {"type": "unchallenged", "seat": 0, "passed": [1, 2]},
        {"type": "doubt", "seat": 2, "player": 1, "passed": [0], "doubters": [2]},
    ]
    expected = {(1, 0): [1, 0], (2, 0): [1, 0], (0, 1): [1, 0], (2, 1): [1, 1]}
    assert registered("doubt-it").doubt_chances(doubt_it) == expected
