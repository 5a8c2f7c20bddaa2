"""A ladder place needs rated games against 10 different opponents who were established when played
(house bots count): a tester's 14 fresh puppets, each losing the pair limit's 5 games, put their
farmer at 1893, established, first on an empty Dudo ladder (docs/ratings.md, "A place on the ladder")."""

import pytest

from ratings import ladders
from ratings.models import Rating
from ratings.recompute import recompute
from ratings.services import rate_match
from ratings.table import LADDER_OPPONENTS

pytestmark = pytest.mark.django_db


def beat(finished_match, winner, loser, times: int) -> None:
    for _ in range(times):
        rate_match(finished_match("dudo", [winner, loser], [[0], [1]]).pk)


def test_a_farmer_who_beat_fourteen_fresh_puppets_five_times_each_has_no_ladder_place(
    client, finished_match, make_user
):
    farmer = make_user("farmer")
    for number in range(14):
        beat(finished_match, farmer, make_user(f"puppet{number}"), 5)
    rating = Rating.objects.get(user=farmer, game="dudo")
    assert (rating.games, rating.provisional, round(rating.elo)) == (70, False, 1893), "established, as the tester saw"
    assert not rating.ranked and rating.established_opponents == 0
    assert ladders.position("dudo", farmer)[0] is None
    assert client.get("/api/leaderboards/dudo/").json()["count"] == 0
    [mine] = client.get("/api/ratings/farmer/").json()["results"]
    assert (mine["place"], mine["established_opponents"], mine["unranked_because"]) == (
        None,
        0,
        "rated against 0 different established players; a ladder place needs 10",
    )
    client.force_login(farmer)
    page = client.get("/leaderboards/dudo/").content.decode()
    assert "Your rating: <strong>1893</strong>, established, but rated against 0 different established players" in page


def test_games_against_ten_established_opponents_or_house_bots_earn_a_place_and_recompute_agrees(
    client, finished_match, make_user
):
    regulars = []
    for number in range(LADDER_OPPONENTS - 1):
        regular = make_user(f"regular{number}")
        Rating.objects.create(user=regular, game="dudo", elo=1500, games=40, sigma=4.0, established_opponents=10)
        regulars.append(regular)
    house = make_user("HeuristicBot", is_bot=True)  # a house bot vouches however few games it has
    newcomer = make_user("newcomer")
    for regular in regulars:
        beat(finished_match, newcomer, regular, 1)
        beat(finished_match, regular, newcomer, 2)  # met three times, counted once
    assert Rating.objects.get(user=newcomer, game="dudo").established_opponents == LADDER_OPPONENTS - 1
    beat(finished_match, newcomer, house, 3)
    rating = Rating.objects.get(user=newcomer, game="dudo")
    assert (rating.games, rating.provisional, rating.established_opponents) == (30, False, LADDER_OPPONENTS)
    assert rating.ranked and ladders.position("dudo", newcomer)[0] is not None
    assert "newcomer" in [row["player"] for row in client.get("/api/leaderboards/dudo/").json()["results"]]


def test_recompute_counts_the_established_opponents_from_the_ledger_as_rating_did(finished_match, make_user):
    newcomer = make_user("newcomer")
    for number in range(LADDER_OPPONENTS):
        house = make_user(f"HouseBot{number}", is_bot=True)
        beat(finished_match, newcomer, house, 2)
        beat(finished_match, house, newcomer, 1)
    counted = dict(Rating.objects.values_list("user__username", "established_opponents"))
    assert counted["newcomer"] == LADDER_OPPONENTS and counted["HouseBot0"] == 0  # the newcomer was provisional
    Rating.objects.update(established_opponents=0)
    recompute("dudo")
    assert dict(Rating.objects.values_list("user__username", "established_opponents")) == counted
