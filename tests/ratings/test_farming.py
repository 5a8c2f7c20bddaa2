"""Two accounts farming each other (issue 30): 20 rated Dudo games, one resigning at once, put the
winner first on the Dudo ladder in 10.9 s. Played here as the attacker did, over HTTP."""

import json

import pytest

from games.engine import get_game
from games.matches.models import Match
from games.matches.tasks import settle_match
from ratings import elo, ladders
from ratings.models import Rating
from ratings.services import PAIR_GAMES_PER_DAY, why_not_rated

pytestmark = pytest.mark.django_db


def post(client, url, body=None):
    return client.post(url, json.dumps(body or {}), content_type="application/json")


def farmed_game(client, winner, loser, both_bid: bool) -> Match:
    """One ranked Dudo duel: the loser resigns at once, or once both have bid (`both_bid`)."""
    client.force_login(winner)
    table = post(
        client, "/api/matches/", {"game": "dudo", "players": 2, "ranked": True, "clock": "turn",
                                  "clock_initial_ms": 30_000},
    ).json()  # fmt: skip
    client.force_login(loser)
    assert post(client, f"/api/matches/{table['id']}/join/").status_code == 200
    client.force_login(winner)
    assert post(client, f"/api/matches/{table['id']}/start/").status_code == 200
    match = Match.objects.get(pk=table["id"])
    moved: list = []
    while len(set(moved)) < (2 if both_bid else 1):
        to_act = get_game("dudo").to_act(Match.objects.get(pk=match.pk).load_state())[0]
        player = winner if match.seat_of(winner).number == to_act else loser
        if player == loser and not both_bid:
            break
        client.force_login(player)
        bid = {"type": "bid", "quantity": len(moved) + 1, "face": 2}
        assert post(client, f"/api/matches/{match.pk}/actions/", {"action": bid, "seq": len(moved)}).status_code == 200
        moved.append(player)
    client.force_login(loser)
    assert post(client, f"/api/matches/{match.pk}/leave/").status_code == 200
    settle_match(match.pk)  # the scoring task
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED and match.result["ranking"][0] == [match.seat_of(winner).number]
    return match


def twenty_independent_wins() -> float:
    """What 20 wins from 1500 against 20 different new players (1500, provisional) give: +252."""
    rating = elo.START
    for played in range(20):
        rating += elo.deltas([rating, elo.START], [played, 0], [0, 1])[0]
    return rating - elo.START


def test_twenty_games_resigned_at_once_rate_nothing(client, alice, bob):
    """Aborted; or, where bob was to bid first and alice never opened the table, not even attended by
    her (over HTTP nothing shows she came)."""
    reasons = {why_not_rated(farmed_game(client, alice, bob, both_bid=False)) for _ in range(20)}
    assert "aborted: bob left before every player had made a move" in reasons
    assert reasons <= {"aborted: bob left before every player had made a move", "fewer than two players came"}
    assert not Rating.objects.filter(user=alice, games__gt=0).exists()


def test_farming_with_a_move_before_resigning_gains_under_half_of_twenty_wins_and_no_ladder_place(
    client, make_user, alice, bob
):
    """The loser bids once before resigning, so the games are not aborted: only the first 5 of the
    day between the pair are rated, and the winner stays provisional, off the ladder."""
    for i in range(3):  # an established ladder of three, all below the farmer's final rating
        rating = Rating.objects.create(user=make_user(f"regular{i}"), game="dudo", elo=1510 + i, games=60, sigma=3.0)
        assert not rating.provisional
    reasons = [why_not_rated(farmed_game(client, alice, bob, both_bid=True)) for _ in range(20)]
    assert reasons[:PAIR_GAMES_PER_DAY] == [None] * PAIR_GAMES_PER_DAY
    assert set(reasons[PAIR_GAMES_PER_DAY:]) == {
        "alice and bob have played 5 rated Dudo games together in the last 24 hours"
    }
    gain = Rating.objects.get(user=alice, game="dudo").elo - elo.START
    assert 0 < gain < twenty_independent_wins() / 2, (gain, twenty_independent_wins())
    top = [rating.user.username for rating in ladders.ladder("dudo")[:3]]
    assert "alice" not in top and top == ["regular2", "regular1", "regular0"]
    assert ladders.position("dudo", alice)[0] is None
    assert "alice" not in client.get("/api/leaderboards/dudo/").content.decode()
