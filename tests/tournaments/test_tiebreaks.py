"""Tiebreaks by FIDE's conventions, on small hand-made events."""

import pytest

from tournaments import tiebreaks
from tournaments.tiebreaks import Game


def two_seat(rounds):
    """Games per player from (round, winner, loser) / (round, a, b, 'draw') / (round, player, 'bye')."""
    games = {}
    for item in rounds:
        if item[2] == "bye":
            games.setdefault(item[1], []).append(Game(item[0], 1.0, played=False))
            continue
        a, b = item[1], item[2]
        draw = len(item) == 4
        games.setdefault(a, []).append(Game(item[0], 0.5 if draw else 1.0, True, {b: 0.5 if draw else 1.0}, 1))
        games.setdefault(b, []).append(
            Game(item[0], 0.5 if draw else 0.0, True, {a: 0.5 if draw else 0.0}, 1 if draw else 2)
        )
    score = {p: sum(g.points for g in own) for p, own in games.items()}
    return games, score


def test_direct_encounter_separates_two_players_level_on_points_and_buchholz():
    games, score = two_seat(
        [(1, "a", "b"), (1, "c", "d", "draw"), (2, "b", "c"), (2, "a", "d"), (3, "b", "d"), (3, "c", "a")]
    )
    assert score == {"a": 2.0, "b": 2.0, "c": 1.5, "d": 0.5}
    ranked = tiebreaks.rank(list(score), score, [tiebreaks.DIRECT_ENCOUNTER], games)
    assert ranked[:2] == [("a", (2.0, 1.0)), ("b", (2.0, 0.0))], "a beat b, so a is first alone"


def test_buchholz_counts_a_rematched_opponent_twice_and_a_bye_as_the_players_own_score():
    games, score = two_seat([(1, "a", "b"), (2, "a", "b"), (3, "a", "bye"), (3, "b", "c")])
    buchholz = tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score)
    assert score == {"a": 3.0, "b": 1.0, "c": 0.0}
    assert buchholz["a"] == 1.0 + 1.0 + 3.0, "b twice, then the bye as a virtual opponent with a's own 3"


def test_an_opponents_bye_counts_the_point_it_gave_in_what_they_contribute():
    games, score = two_seat([(1, "a", "b"), (2, "b", "bye")])
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score)["a"] == 1.0, "FIDE C.07 16.3: a bye as scored"


def test_a_withdrawn_opponents_rounds_missed_at_the_end_count_as_draws_and_the_page_says_so():
    games, score = two_seat([(1, "a", "b"), (2, "a", "c"), (2, "b", "d"), (3, "c", "d")])
    games["c"] += [Game(3, 0.0, False, kind=tiebreaks.MISSED), Game(4, 0.0, False, kind=tiebreaks.MISSED)]
    score["c"] = 0.0
    assert tiebreaks.adjusted_scores(games, score)["c"] == 1.0, "two rounds after withdrawing, each a draw"
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=4)["a"] == 1.0 + 1.0, "b's 1 and c's 1"
    words = tiebreaks.unplayed_words("c", games, score, rounds=4)
    assert words == (
        "counts 1 in opponents' tiebreaks: rounds 3 and 4, missed at the end, count as draws, not as the 0 scored; "
        "round 3 (missed) counts against a stand-in with 0 (their own points); "
        "round 4 (missed) counts against a stand-in with 0 (their own points)"
    )


def test_a_missed_round_followed_by_a_game_counts_as_scored_for_the_opponents():
    games = {
        "a": [Game(1, 1.0, True, {"b": 1.0}), Game(3, 1.0, True, {"c": 1.0})],
        "b": [
            Game(1, 0.0, True, {"a": 0.0}),
            Game(2, 0.0, False, kind=tiebreaks.MISSED),
            Game(3, 1.0, True, {"c": 1.0}),
        ],
    }
    assert tiebreaks.adjusted_scores(games, {"a": 2.0, "b": 1.0})["b"] == 1.0


def test_a_bye_counts_a_stand_in_with_the_players_own_score_at_most_half_a_point_a_round():
    games, score = two_seat([(1, "a", "b"), (2, "a", "c"), (3, "a", "d"), (4, "a", "bye")])
    assert score["a"] == 4.0
    buchholz = tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=4)["a"]
    assert buchholz == 0 + 0 + 0 + 2.0, "the stand-in has a's 4 points, bounded by 4 rounds x 0.5"
    assert tiebreaks.compute(tiebreaks.SONNEBORN_BERGER, games, score, rounds=4)["a"] == 1.0 * 2.0


def test_a_forfeit_counts_a_stand_in_no_stronger_than_the_scheduled_opponent():
    games, score = two_seat([(1, "a", "b"), (2, "c", "b")])
    games["a"].append(Game(2, 1.0, False, kind=tiebreaks.FORFEIT_WIN, scheduled=("d",)))
    games["d"] = [Game(2, 0.0, False, kind=tiebreaks.FORFEIT_LOSS, scheduled=("a",))]
    score.update(a=2.0, d=0.0)
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=2)["a"] == 0.0 + 0.0, "b's 0, d's 0"
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=2)["d"] == 0.0, "its own 0 points"


def test_cut_1_drops_a_round_missed_before_the_weakest_opponent():
    games = {
        "a": [
            Game(1, 1.0, True, {"b": 1.0}),
            Game(2, 0.0, False, kind=tiebreaks.MISSED),
            Game(3, 1.0, True, {"c": 1.0}),
        ],
        "b": [Game(1, 0.0, True, {"a": 0.0})],
        "c": [Game(3, 0.0, True, {"a": 0.0}), Game(1, 1.0, True, {"d": 1.0}), Game(2, 1.0, True, {"d": 1.0})],
        "d": [Game(1, 0.0, True, {"c": 0.0}), Game(2, 0.0, True, {"c": 0.0})],
    }
    score = {"a": 2.0, "b": 0.0, "c": 2.0, "d": 0.0}
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=3)["a"] == 0.0 + 1.5 + 2.0
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ_CUT_1, games, score, rounds=3)["a"] == 0.0 + 2.0, "not b's 0"


def test_a_round_robin_counts_a_forfeit_as_a_game_against_the_opponents_real_score():
    games = {
        "a": [Game(1, 1.0, False, kind=tiebreaks.FORFEIT_WIN, scheduled=("b",)), Game(2, 1.0, True, {"c": 1.0})],
        "b": [Game(2, 1.0, True, {"c": 1.0})],
        "c": [Game(2, 0.0, True, {"a": 0.0}), Game(3, 0.0, True, {"b": 0.0})],
    }
    score = {"a": 2.0, "b": 1.0, "c": 0.0}
    sonneborn = tiebreaks.compute(tiebreaks.SONNEBORN_BERGER, games, score, fixed=True)
    assert sonneborn["a"] == 1.0 * 1.0 + 1.0 * 0.0, "the + against b counts b's 1, as the crosstable reads"


def test_cut_1_drops_the_weakest_opponent_and_median_the_weakest_and_strongest():
    games, score = two_seat([(1, "a", "b"), (2, "a", "c"), (3, "a", "d"), (1, "c", "d"), (2, "d", "b"), (3, "c", "b")])
    # b: 0, c: 2, d: 1 -> a's opponents contribute 0, 2, 1
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score)["a"] == 3
    assert tiebreaks.compute(tiebreaks.BUCHHOLZ_CUT_1, games, score)["a"] == 3
    assert tiebreaks.compute(tiebreaks.MEDIAN_BUCHHOLZ, games, score)["a"] == 1


def test_sonneborn_berger_weighs_each_result_by_the_opponents_score():
    games, score = two_seat([(1, "a", "b"), (2, "c", "a", "draw"), (1, "c", "d"), (2, "b", "d")])
    assert tiebreaks.compute(tiebreaks.SONNEBORN_BERGER, games, score)["a"] == score["b"] + 0.5 * score["c"]


def test_wins_and_the_sum_of_places_at_free_for_all_tables():
    games = {
        "a": [Game(1, 1.0, True, {"b": 1, "c": 1}, 1), Game(2, 0.5, True, {"b": 0, "c": 1}, 2)],
        "b": [Game(1, 0.5, True, {"a": 0, "c": 1}, 2), Game(2, 1.0, True, {"a": 1, "c": 1}, 1)],
    }
    score = {"a": 1.5, "b": 1.5}
    assert tiebreaks.compute(tiebreaks.WINS, games, score) == {"a": 1, "b": 1}
    assert tiebreaks.compute(tiebreaks.PLACEMENTS, games, score) == {"a": 3, "b": 3}
    ranked = tiebreaks.rank(["a", "b"], score, [tiebreaks.PLACEMENTS, tiebreaks.WINS], games)
    assert [keys for _, keys in ranked] == [(1.5, 3, 1), (1.5, 3, 1)]


def test_an_unknown_tiebreak_is_refused():
    with pytest.raises(ValueError, match="no tiebreak called 'coin-flip'"):
        tiebreaks.compute("coin-flip", {}, {"a": 0})
