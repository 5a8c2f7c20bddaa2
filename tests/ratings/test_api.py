"""The read-only ratings API: ladders, an account's ratings and history, high scores."""

import pytest
from django.db.models import F

from ratings.models import HighScore, Rating
from ratings.services import rate_match


@pytest.fixture
def rated(finished_match, alice, bob, bot):
    """Three rated matches; then alice's and robo's Dudo ratings stand as if after 30 more games
    (established, so ranked), while bob's stays provisional."""
    rate_match(finished_match("dudo", [alice, bob], [[0], [1]]).pk)
    rate_match(finished_match("dudo", [alice, bot], [[1], [0]]).pk)
    rate_match(finished_match("dobble", [bob, alice], [[0], [1]]).pk)
    Rating.objects.filter(game="dudo", user__in=[alice, bot]).update(
        games=F("games") + 30, sigma=4.0, established_opponents=10
    )


def test_the_leaderboard_lists_established_places_and_ratings_best_first(client, rated):
    body = client.get("/api/leaderboards/dudo/").json()
    assert body["count"] == 2, "bob's provisional rating is not ranked"
    # robo (1500) beats alice (1520): E = 1 / (1 + 10^(20/400)) = 0.471249, so 40 * 0.528751 = 21.150
    assert [
        (r["place"], r["player"], round(r["elo"], 3), r["games"], r["provisional"], r["bot"]) for r in body["results"]
    ] == [
        (1, "robo", 1521.150, 31, False, True),
        (2, "alice", 1498.850, 32, False, False),
    ]


def test_the_leaderboard_filters_humans_and_pages(client, rated):
    body = client.get("/api/leaderboards/dudo/", {"kind": "humans"}).json()
    assert [r["player"] for r in body["results"]] == ["alice"]
    assert client.get("/api/leaderboards/dudo/", {"page": 2}).status_code == 404
    assert client.get("/api/leaderboards/chess/").status_code == 404


def test_an_accounts_ratings_have_openskill_and_the_place_on_each_ladder(client, rated):
    body = client.get("/api/ratings/ALICE/").json()
    assert [(r["game"], r["place"], r["games"], r["wins"], r["provisional"]) for r in body["results"]] == [
        ("dobble", None, 1, 0, True),
        ("dudo", 2, 32, 1, False),
    ]
    dudo = Rating.objects.get(user__username="alice", game="dudo")
    assert (body["results"][1]["mu"], body["results"][1]["sigma"], body["results"][1]["ordinal"]) == (
        dudo.mu,
        dudo.sigma,
        dudo.mu - 3 * dudo.sigma,
    )
    assert client.get("/api/ratings/nobody/").status_code == 404


def test_an_accounts_history_is_newest_first_with_deltas(client, rated, alice):
    body = client.get("/api/ratings/alice/dudo/").json()
    assert body["count"] == 2
    first, second = body["results"][1], body["results"][0]
    assert (first["before"], first["after"], first["delta"], first["place"], first["games_before"]) == (
        1500.0,
        1520.0,
        20.0,
        1,
        0,
    )
    assert (second["before"], second["place"], second["provisional"]) == (1520.0, 2, True)
    assert client.get("/api/ratings/alice/chess/").status_code == 404


def test_high_scores_are_listed_best_first(client, finished_match, alice):
    for score in (3, 9):
        match = finished_match("dubito", [alice], [[0]], scores={"0": score})
        HighScore.objects.create(match=match, user=alice, game="dubito", score=score, finished_at=match.finished_at)
    body = client.get("/api/high-scores/dubito/").json()
    assert [(r["player"], r["score"]) for r in body["results"]] == [("alice", 9), ("alice", 3)]


def test_the_schema_documents_the_ratings_endpoints(client, db):
    schema = client.get("/api/schema/").content.decode()
    for path in (
        "/api/leaderboards/{game}/",
        "/api/ratings/{username}/",
        "/api/ratings/{username}/{game}/",
        "/api/high-scores/{game}/",
    ):
        assert path in schema


def test_the_leaderboard_costs_three_queries_whatever_its_size(client, rated, make_user, django_assert_num_queries):
    # count, the page, its accounts
    with django_assert_num_queries(3):
        client.get("/api/leaderboards/dudo/")
    for i in range(30):
        Rating.objects.create(
            user=make_user(f"extra{i}"), game="dudo", elo=1400 + i, games=30, sigma=4.0, established_opponents=10
        )
    with django_assert_num_queries(3):
        assert len(client.get("/api/leaderboards/dudo/").json()["results"]) == 32
