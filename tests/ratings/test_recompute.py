"""recompute_ratings: replaying the ledger gives exactly the stored ratings, and repairs them."""

import random
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from ratings.elo import expected
from ratings.models import Rating, RatingChange
from ratings.recompute import ledger_games, recompute
from ratings.services import rate_match


def snapshot():
    ratings = sorted(Rating.objects.values_list("user_id", "game", "elo", "peak", "games", "wins", "mu", "sigma"))
    changes = sorted(
        RatingChange.objects.values_list(
            "match_id",
            "user_id",
            "before",
            "after",
            "delta",
            "mu_before",
            "mu_after",
            "sigma_before",
            "sigma_after",
            "games_before",
        )
    )
    return ratings, changes


@pytest.fixture
def history(finished_match, make_user):
    """80 rated two- to five-player Dudo tables and 20 Dobble duels among six accounts, in order, a
    day apart (one pair's rated games in a day are limited)."""
    rng = random.Random(7)
    users = [make_user(f"player{i}", is_bot=i % 2 == 0) for i in range(6)]
    for i in range(100):
        game = "dudo" if i < 80 else "dobble"
        table = rng.sample(users, rng.randint(2, 5) if game == "dudo" else 2)
        seats = list(range(len(table)))
        rng.shuffle(seats)
        ranking = [[seats[0], seats[1]]] + [[s] for s in seats[2:]] if i % 10 == 0 else [[s] for s in seats]
        rate_match(finished_match(game, table, ranking, minute=i * 1440).pk)
    return users


def test_recompute_gives_exactly_the_stored_ratings(history):
    before = snapshot()
    reports = [recompute("dudo"), recompute("dobble")]
    assert snapshot() == before
    assert [(r.results, r.changes_rewritten, r.ratings_rewritten, r.ratings_created) for r in reports] == [
        (80, 0, 0, 0),
        (20, 0, 0, 0),
    ]


def test_recompute_repairs_ratings_and_ledger_rows_changed_by_hand(history):
    before = snapshot()
    Rating.objects.filter(game="dudo").update(elo=1000, games=0)
    change = RatingChange.objects.filter(game="dudo").order_by("?").first()
    RatingChange.objects.filter(pk=change.pk).update(after=0, delta=0)
    Rating.objects.filter(user=history[0], game="dudo").delete()
    report = recompute("dudo")
    assert snapshot() == before
    assert report.changes_rewritten == 1
    assert report.ratings_created == 1
    assert report.ratings_rewritten == Rating.objects.filter(game="dudo").count() - 1


def test_recompute_replays_in_the_order_matches_were_rated_not_finished(finished_match, alice, bob, carol):
    late = finished_match("dudo", [alice, bob], [[0], [1]], minute=10)
    early = finished_match("dudo", [bob, carol], [[0], [1]], minute=5)
    rate_match(late.pk)
    rate_match(early.pk)  # rated second although it finished first (its scoring task was late)
    before = snapshot()
    report = recompute("dudo")
    assert snapshot() == before and (report.changes_rewritten, report.ratings_rewritten) == (0, 0)
    bob_changes = list(RatingChange.objects.filter(user=bob).order_by("id").values_list("match_id", "before", "after"))
    assert bob_changes == [(late.pk, 1500.0, 1480.0), (early.pk, 1480.0, 1480.0 + 40 * (1 - expected(1480, 1500)))]


def test_every_game_with_a_ledger_is_listed_once(history):
    assert ledger_games() == ["dobble", "dudo"]


def test_recompute_deletes_ratings_whose_matches_are_gone(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[0], [1]])
    rate_match(match.pk)
    match.delete()
    assert recompute("dudo").ratings_deleted == 2
    assert Rating.objects.count() == 0


def test_the_command_replays_every_game_with_a_progress_bar(history):
    before = snapshot()
    Rating.objects.update(elo=0)
    out, err = StringIO(), StringIO()
    call_command("recompute_ratings", stdout=out, stderr=err)
    assert snapshot() == before
    assert out.getvalue().splitlines()[0].startswith("dobble: 20 results replayed in ")
    assert "dudo: 80 results replayed" in out.getvalue()
    assert "[##############################] 100%  80/80 results" in err.getvalue()


def test_the_command_takes_one_game(history):
    Rating.objects.update(elo=0)
    out = StringIO()
    call_command("recompute_ratings", "--game", "dobble", "--quiet", stdout=out, stderr=StringIO())
    assert out.getvalue().startswith("dobble: 20 results replayed in ")
    assert not Rating.objects.filter(game="dobble", elo=0).exists()
    assert Rating.objects.filter(game="dudo", elo=0).count() == 6


def test_the_command_refuses_an_unknown_game(db):
    with pytest.raises(CommandError, match="There is no game called 'chess'."):
        call_command("recompute_ratings", "--game", "chess")
