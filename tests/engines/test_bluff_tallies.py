"""Bluff and doubt counts read from the public history of Dudo and I Doubt It."""

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from games.bots import get_bot
from games.doubt_it.bluffs import tally as doubt_it_tally
from games.dudo.bluffs import tally as dudo_tally
from games.engine import GAMES
from games.simulate import play


def test_dudo_judges_every_bid_of_a_round_by_the_dice_its_doubt_showed():
    history = [
        {"type": "round", "ones_wild": True},
        {"type": "bid", "seat": 0, "quantity": 2, "face": 4},
        {"type": "bid", "seat": 1, "quantity": 4, "face": 4},
        {"type": "doubt", "seat": 0, "bidder": 1, "quantity": 4, "face": 4, "loser": 1,
         "dice": [[1, 4, 6], [2, 3, 5]]},
        {"type": "round", "ones_wild": False},
        {"type": "bid", "seat": 1, "quantity": 1, "face": 4},
        {"type": "doubt", "seat": 0, "bidder": 1, "quantity": 1, "face": 4, "loser": 0, "dice": [[1, 4], [2]]},
    ]
    counts = dudo_tally(history)
    # Round 1: two fours are there (a wild one and a four): seat 0's bid held, seat 1's four fours did not.
    assert counts[0] == Counter(claims=1, judged=1, chances=2, doubts=2, doubts_right=1)
    assert counts[1] == Counter(claims=2, judged=2, bluffs=1, caught=1, chances=1)


def test_a_dudo_round_cut_short_judges_nothing():
    history = [{"type": "round", "ones_wild": True}, {"type": "bid", "seat": 0, "quantity": 9, "face": 6}]
    assert dudo_tally(history) == {0: Counter(claims=1)}


def test_i_doubt_it_judges_only_doubted_plays():
    history = [
        {"type": "play", "seat": 0, "count": 1, "rank": "A"},
        {"type": "unchallenged", "seat": 0, "passed": [1, 2]},
        {"type": "play", "seat": 1, "count": 2, "rank": "2"},
        {"type": "doubt", "seat": 2, "player": 1, "honest": False, "passed": [0], "doubters": [2]},
        {"type": "play", "seat": 2, "count": 1, "rank": "3"},
        {"type": "doubt", "seat": 0, "player": 2, "honest": True, "passed": [], "doubters": [0, 1]},
    ]
    counts = doubt_it_tally(history)
    assert counts[0] == Counter(claims=1, chances=2, doubts=1)
    assert counts[1] == Counter(claims=1, judged=1, bluffs=1, caught=1, chances=2, doubts=1)
    assert counts[2] == Counter(claims=1, judged=1, chances=2, doubts=1, doubts_right=1)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(2, 5))
def test_dudo_figures_agree_with_each_other_over_whole_games(seed, players):
    game = GAMES["dudo"]
    playout = play(game, [get_bot("dudo", "heuristic") for _ in range(players)], seed)
    counts = dudo_tally(playout.state.history)
    total = sum(counts.values(), Counter())
    doubts = sum(event["type"] == "doubt" for event in playout.state.history)
    assert total["doubts"] == doubts
    assert total["caught"] == total["doubts_right"]  # a right doubt is exactly a caught bluff
    assert total["claims"] == total["judged"]  # every round of a finished game ends with a doubt
    for mine in counts.values():
        assert mine["caught"] <= mine["bluffs"] <= mine["judged"] <= mine["claims"]
        assert mine["doubts_right"] <= mine["doubts"] <= mine["chances"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), players=st.integers(3, 6))
def test_i_doubt_it_figures_agree_with_each_other_over_whole_games(seed, players):
    game = GAMES["doubt-it"]
    playout = play(game, [get_bot("doubt-it", "heuristic") for _ in range(players)], seed)
    counts = doubt_it_tally(playout.state.history)
    total = sum(counts.values(), Counter())
    history = playout.state.history
    assert total["claims"] == sum(event["type"] == "play" for event in history)
    assert total["judged"] == sum(event["type"] == "doubt" for event in history)
    assert total["caught"] == total["bluffs"]
    for mine in counts.values():
        assert mine["bluffs"] <= mine["judged"] <= mine["claims"]
        assert mine["doubts_right"] <= mine["doubts"] <= mine["chances"]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31), game=st.sampled_from(["dudo", "doubt-it"]), server_seat=st.integers(0, 2))
def test_a_seat_the_server_played_for_counts_nothing_and_the_others_count_as_before(seed, game, server_seat):
    tallies = {"dudo": dudo_tally, "doubt-it": doubt_it_tally}
    playout = play(GAMES[game], [get_bot(game, "heuristic") for _ in range(3)], seed)
    history = playout.state.history
    alone = tallies[game](history)
    marked = tallies[game](history, [frozenset({server_seat})] * len(history))
    assert not +marked.get(server_seat, Counter())  # every count of that seat is zero
    for seat in set(alone) - {server_seat}:
        mine = marked[seat]
        for name in ("claims", "bluffs", "judged", "caught"):  # their own moves, judged as before
            assert mine[name] == alone[seat][name]
        assert mine["doubts"] == alone[seat]["doubts"] and mine["chances"] == alone[seat]["chances"]
