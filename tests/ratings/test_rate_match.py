"""rate_match: what a finished match does to the stored ratings, once, and when it does nothing."""

from games.matches.models import MatchAction
from ratings import elo
from ratings.models import HighScore, Rating, RatingChange
from ratings.services import rate_match, rating_for, why_not_rated


def elo_of(user, game="dudo"):
    return Rating.objects.get(user=user, game=game).elo


def test_a_two_player_win_moves_both_new_players_20_points(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[1], [0]])
    changes = rate_match(match.pk)
    assert [(c.user, c.seat, c.place, c.before, c.after, c.delta, c.games_before) for c in changes] == [
        (alice, 0, 2, 1500.0, 1480.0, -20.0, 0),
        (bob, 1, 1, 1500.0, 1520.0, 20.0, 0),
    ]
    alice_rating, bob_rating = Rating.objects.get(user=alice), Rating.objects.get(user=bob)
    assert (bob_rating.elo, bob_rating.peak, bob_rating.games, bob_rating.wins) == (1520.0, 1520.0, 1, 1)
    assert (alice_rating.elo, alice_rating.peak, alice_rating.games, alice_rating.wins) == (
        1480.0,
        1500.0,
        1,
        0,
    )
    assert bob_rating.mu > 25 > alice_rating.mu
    change = RatingChange.objects.get(user=bob)
    assert (change.mu_before, change.mu_after, change.sigma_after) == (25.0, bob_rating.mu, bob_rating.sigma)
    assert change.finished_at == match.finished_at


def test_rating_the_same_match_twice_changes_nothing(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[0], [1]])
    assert len(rate_match(match.pk)) == 2
    assert rate_match(match.pk) == []
    assert RatingChange.objects.count() == 2
    assert (elo_of(alice), Rating.objects.get(user=alice).games) == (1520.0, 1)


def test_a_free_for_all_table_stores_the_pairwise_deltas(finished_match, alice, bob, carol, dave):
    match = finished_match("dudo", [alice, bob, carol, dave], [[2], [0, 1], [3]])
    rate_match(match.pk)
    assert [elo_of(u) for u in (alice, bob, carol, dave)] == [1500.0, 1500.0, 1520.0, 1480.0]
    assert list(RatingChange.objects.order_by("seat").values_list("place", flat=True)) == [2, 2, 1, 3]
    assert [Rating.objects.get(user=u).wins for u in (alice, bob, carol, dave)] == [0, 0, 1, 0]


def test_k_drops_to_20_after_30_rated_games(finished_match, alice, bob):
    for day in range(15):  # two games a day: under the limit of rated games between one pair
        rate_match(finished_match("dudo", [alice, bob], [[0], [1]], minute=day * 1440).pk)
        rate_match(finished_match("dudo", [alice, bob], [[1], [0]], minute=day * 1440 + 1).pk)
    rating = Rating.objects.get(user=alice)
    assert rating.games == 30 and not rating.provisional
    assert rating_for(alice, "dudo").provisional is False
    a, b = elo_of(alice), elo_of(bob)
    rate_match(finished_match("dudo", [alice, bob], [[0], [1]], minute=15 * 1440).pk)
    assert round(elo_of(alice) - a, 9) == round(20 * (1 - elo.expected(a, b)), 9) == 10.594255236
    assert round(elo_of(bob) - b, 9) == -10.594255236


def test_ratings_are_per_game(finished_match, alice, bob):
    rate_match(finished_match("dudo", [alice, bob], [[0], [1]]).pk)
    rate_match(finished_match("dobble", [alice, bob], [[1], [0]]).pk)
    assert (elo_of(alice, "dudo"), elo_of(alice, "dobble")) == (1520.0, 1480.0)
    assert rating_for(alice, "dudo").elo == 1520.0
    fresh = rating_for(alice, "dubito")
    assert (fresh.elo, fresh.games, fresh.provisional) == (1500.0, 0, True)


def test_bots_and_humans_share_the_ladder_and_the_rating_knows_it_is_a_bot(finished_match, alice, bot):
    rate_match(finished_match("dudo", [alice, bot], [[1], [0]]).pk)
    assert Rating.objects.get(user=bot).is_bot is True
    assert Rating.objects.get(user=alice).is_bot is False


def test_a_forfeiting_player_loses(finished_match, alice, bob, carol):
    match = finished_match("dudo", [alice, bob, carol], [[1], [2], [0]], forfeited=[0])
    rate_match(match.pk)
    assert RatingChange.objects.get(user=alice).place == 3
    assert elo_of(alice) < 1500 < elo_of(bob)


def test_a_player_who_resigns_before_every_player_has_moved_aborts_the_game(finished_match, alice, bob, carol):
    """Lichess's abort: two fresh accounts farmed 20 rated Dudo games, one resigning at once. A
    resignation (or leaving) before every player who came has made a move of their own rates nothing."""
    match = finished_match("dudo", [alice, bob], [[1], [0]], forfeited=[0], movers=[1])
    assert why_not_rated(match) == "aborted: alice left before every player had made a move"
    assert rate_match(match.pk) == []
    moved_then_resigned = finished_match("dudo", [alice, bob], [[1], [0]], forfeited=[1], movers=[1])
    moved_then_resigned.seats.filter(number=0).update(disconnected_at=moved_then_resigned.finished_at)  # came
    assert why_not_rated(moved_then_resigned) == "aborted: bob left before every player had made a move"
    table = finished_match("dudo", [alice, bob, carol], [[1], [2], [0]], forfeited=[0], movers=[0, 1])
    table.seats.filter(number=2).update(disconnected_at=table.finished_at)  # carol came, her turn never did
    assert why_not_rated(table) == "aborted: alice left before every player had made a move"
    after_both_moved = finished_match("dudo", [alice, bob], [[1], [0]], forfeited=[0])
    assert why_not_rated(after_both_moved) is None
    rate_match(after_both_moved.pk)
    assert (elo_of(alice), elo_of(bob)) == (1480.0, 1520.0), "a resignation once both have moved loses"


def test_not_rated_aborted_unranked_running_or_idle_matches(finished_match, alice, bob):
    cases = {
        "not finished": finished_match("dudo", [alice, bob], [[0], [1]], status="aborted"),
        "not ranked": finished_match("dudo", [alice, bob], [[0], [1]], ranked=False),
        "fewer than two players came": finished_match("dudo", [alice, bob], [[0], [1]], movers=[0]),
    }
    running = finished_match("dudo", [alice, bob], [[0], [1]], status="running")
    assert why_not_rated(running) == "not finished"
    for reason, match in cases.items():
        assert why_not_rated(match) == reason
        assert rate_match(match.pk) == []
    assert rate_match(running.pk) == []
    assert RatingChange.objects.count() == 0 and Rating.objects.count() == 0


def test_moves_made_by_the_clock_do_not_count_as_playing(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[0], [1]], movers=[0], timeouts=[1])
    assert why_not_rated(match) == "fewer than two players came"
    assert rate_match(match.pk) == []


def test_a_player_who_came_and_made_no_move_of_their_own_leaves_the_match_unrated(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[0], [1]], movers=[0], timeouts=[1])
    match.seats.filter(number=1).update(disconnected_at=match.finished_at)  # bob had the table open
    assert why_not_rated(match) == "bob made no move of their own"
    assert rate_match(match.pk) == []


def test_a_resignation_on_the_first_move_names_who_left_rather_than_blame_the_other(finished_match, alice, bob):
    """alice resigned on the first move: "bob made no move of their own" read as bob's doing (tester's finding)."""
    match = finished_match("dudo", [alice, bob], [[1], [0]], movers=[], forfeited=[0])
    match.seats.filter(number=1).update(disconnected_at=match.finished_at)  # bob had the table open
    assert why_not_rated(match) == "aborted: alice left before every player had made a move"
    assert rate_match(match.pk) == []


def test_a_game_played_to_its_end_is_rated_whatever_the_score_shutouts_included(finished_match, alice, bot):
    """A Dobble 53-0 against HardBot was not rated ("the game ended before HardBot had a move") while
    40-13 was: a game that reached its end by its rules is rated by the same rule whatever the score."""
    shutout = finished_match("dobble", [alice, bot], [[0], [1]], movers=[0], scores={"0": 53, "1": 0})
    close = finished_match("dobble", [alice, bot], [[0], [1]], scores={"0": 40, "1": 13})
    assert why_not_rated(shutout) is None and why_not_rated(close) is None
    assert [c.delta for c in rate_match(shutout.pk)] == [20.0, -20.0]
    assert len(rate_match(close.pk)) == 2


def test_a_table_abandoned_before_anyone_moved_is_not_rated(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[1], [0]], forfeited=[0], movers=[])
    assert why_not_rated(match) == "fewer than two players came"
    assert rate_match(match.pk) == []


def test_a_solo_dubito_game_is_not_rated_but_its_score_goes_to_the_high_scores(finished_match, alice):
    match = finished_match("dubito", [alice], [[0]], ranked=False, scores={"0": 42})
    assert rate_match(match.pk) == []
    assert rate_match(match.pk) == []
    assert list(HighScore.objects.values_list("user__username", "game", "score")) == [("alice", "dubito", 42)]
    assert Rating.objects.count() == 0


def test_an_abandoned_solo_game_has_no_high_score(finished_match, alice):
    match = finished_match("dubito", [alice], [[0]], forfeited=[0], scores={"0": 7})
    rate_match(match.pk)
    assert HighScore.objects.count() == 0


def test_a_missing_match_is_ignored(db):
    assert rate_match(123456) == []


def test_the_matches_task_rates_the_match(finished_match, alice, bob):
    from games.matches.tasks import settle_match

    settle_match(finished_match("dudo", [alice, bob], [[0], [1]]).pk)
    assert elo_of(alice) == 1520.0


def test_a_no_show_is_not_rated_and_the_others_are_rated_among_themselves(finished_match, alice, bob, carol):
    """FIDE rates no forfeit: a player who never opened the table nor moved (the clock's and the
    stand-in house bot's moves are not theirs) is left out of the rating, and a two-seat table
    with a no-show is not rated at all."""
    alone = finished_match("dudo", [alice, bob], [[1], [0]], forfeited=[0], absent=[0], movers=[1])
    assert why_not_rated(alone) == "fewer than two players came"
    assert rate_match(alone.pk) == []
    table = finished_match("dudo", [alice, bob, carol], [[1], [0], [2]], forfeited=[2], absent=[2])
    MatchAction.objects.create(match=table, seq=99, seat=2, action={"type": "x"}, source=MatchAction.Source.HOUSE)
    changes = rate_match(table.pk)
    assert [(c.user, c.place) for c in changes] == [(alice, 2), (bob, 1)]
    assert (elo_of(alice), elo_of(bob)) == (1480.0, 1520.0), "as a two-player game between those who came"
    assert not Rating.objects.filter(user=carol).exists()

