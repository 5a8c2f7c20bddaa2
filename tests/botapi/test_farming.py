"""Ladder farming (issue 14): ranked bot-vs-bot play comes from the ladder, tournaments or an accepted
challenge, never from two bots of one owner, and nobody's bot is pulled into a ranked match unasked."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from botapi.models import BotCode, Challenge
from games.lobby import matchmaking
from games.matches import lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match
from tournaments import services
from tournaments.models import Tournament

FIRST_LEGAL = "def choose(view, legal):\n    return legal[0]\n"

PER_TURN = {"clock": "turn", "clock_initial_ms": 60_000}  # ranked tables have a clock


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def bot_of(owner, name: str):
    bot = type(owner).objects.create_user(username=name, is_bot=True, bot_owner=owner)
    BotCode.objects.create(bot=bot, version=1, source=FIRST_LEGAL)
    return bot


def challenge(owner, bot: str, opponents: list[str], ranked: bool = True):
    return as_user(owner).post(
        f"/api/bots/{bot}/matches/", {"game": "dudo", "opponents": opponents, "ranked": ranked}, format="json"
    )


@pytest.mark.django_db
def test_two_bots_of_one_owner_cannot_play_each_other_ranked_however_often_they_try(alice):
    bot_of(alice, "Farmer"), bot_of(alice, "Crop")
    for _ in range(5):  # the attack: five ranked wins in a row took first place
        refused = challenge(alice, "Farmer", ["Crop"])
        assert refused.status_code == 400
        assert refused.json()["message"] == "Your own bots do not play each other in ranked matches."
    assert not Match.objects.exists()
    friendly = challenge(alice, "Farmer", ["Crop"], ranked=False)
    assert friendly.status_code == 201 and friendly.json()["ranked"] is False


@pytest.mark.django_db
def test_a_ranked_challenge_to_another_owners_bot_waits_for_that_owner(alice, bob, carol):
    bot_of(alice, "Mine"), bot_of(bob, "Theirs")
    offered = challenge(alice, "Mine", ["Theirs", "house:random"])
    assert offered.status_code == 202 and offered.json()["status"] == "pending"
    assert not Match.objects.exists(), "no ranked match without the other owner's consent"
    number = offered.json()["id"]
    assert as_user(alice).post(f"/api/bots/challenges/{number}/accept/").status_code == 404
    assert as_user(carol).post(f"/api/bots/challenges/{number}/accept/").status_code == 404
    assert as_user(bob).get("/api/bots/challenges/").json()["received"][0]["id"] == number
    accepted = as_user(bob).post(f"/api/bots/challenges/{number}/accept/")
    assert accepted.status_code == 200 and accepted.json()["status"] == "accepted"
    match = Match.objects.get()
    assert match.ranked and match.status == Match.Status.RUNNING
    assert sorted(match.seats.values_list("user__username", flat=True)) == ["Mine", "RandomBot", "Theirs"]
    assert as_user(bob).post(f"/api/bots/challenges/{number}/accept/").status_code == 404, "accepted once"


@pytest.mark.django_db
def test_a_declined_challenge_starts_nothing_and_house_bots_are_open_to_all(alice, bob):
    bot_of(alice, "Mine"), bot_of(bob, "Theirs")
    number = challenge(alice, "Mine", ["Theirs"]).json()["id"]
    assert as_user(bob).post(f"/api/bots/challenges/{number}/decline/").json()["status"] == "declined"
    assert Challenge.objects.get().match is None and not Match.objects.exists()
    assert challenge(alice, "Mine", ["house:heuristic"]).status_code == 201


@pytest.mark.django_db
def test_a_bot_cannot_join_its_siblings_or_its_owners_ranked_table(alice, bob):
    farmer, crop = bot_of(alice, "Farmer"), bot_of(alice, "Crop")
    table = lifecycle.create_match(game="dudo", players=2, host=farmer, ranked=True, **PER_TURN)
    with pytest.raises(MatchError, match="do not meet ranked"):
        lifecycle.join_match(table.pk, crop)
    with pytest.raises(MatchError, match="do not meet ranked"):
        lifecycle.join_match(table.pk, alice)
    lifecycle.join_match(table.pk, bob)
    friendly = lifecycle.create_match(game="dudo", players=2, host=farmer)
    lifecycle.join_match(friendly.pk, crop)


@pytest.mark.django_db
def test_the_ranked_queue_does_not_pair_two_bots_of_one_owner(alice):
    for name in ("Farmer", "Crop"):
        matchmaking.join_queue(bot_of(alice, name), "dudo", 2, 1500)
    assert matchmaking.matchmake("dudo", 2) == []


@pytest.mark.django_db
def test_bots_of_two_owners_meet_ranked_through_the_queue_not_at_an_open_table(alice, bob, carol):
    mine, theirs = bot_of(alice, "Mine"), bot_of(bob, "Theirs")
    table = lifecycle.create_match(game="dudo", players=2, host=mine, ranked=True, **PER_TURN)
    with pytest.raises(MatchError, match="through the queue, the bot ladder"):
        lifecycle.join_match(table.pk, theirs)
    lifecycle.join_match(table.pk, carol)  # a person may take them on
    for bot in (mine, theirs):
        matchmaking.join_queue(bot, "dudo", 2, 1500)
    [match] = matchmaking.matchmake("dudo", 2)
    assert match.ranked


@pytest.mark.django_db
def test_an_owner_and_their_bots_do_not_enter_one_tournament(alice, make_user):
    organizer = make_user("otto", role="organizer")
    event = Tournament.objects.create(
        name="Cup", game="dudo", organizer=organizer, starts_at=timezone.now() + timedelta(hours=1)
    )
    services.enter(event.pk, bot_of(alice, "Farmer"))
    with pytest.raises(MatchError, match="do not enter the same tournament"):
        services.enter(event.pk, bot_of(alice, "Crop"))
    with pytest.raises(MatchError, match="do not enter the same tournament"):
        services.enter(event.pk, alice)


@pytest.mark.django_db
def test_an_unranked_match_against_another_owners_bot_waits_for_that_owner_unless_it_is_open(alice, bob):
    bot_of(alice, "Mine"), bot_of(bob, "Victim")
    asked = challenge(alice, "Mine", ["Victim"], ranked=False)
    assert asked.status_code == 202 and asked.json()["ranked"] is False and not Match.objects.exists()
    accepted = as_user(bob).post(f"/api/bots/challenges/{asked.json()['id']}/accept/").json()
    assert not Match.objects.get(pk=accepted["match"]).ranked
    as_user(bob).post("/api/bots/Victim/ladder/", {"ladder": False, "open_to_challenges": True}, format="json")
    assert challenge(alice, "Mine", ["Victim"], ranked=False).status_code == 201


@pytest.mark.django_db
def test_rated_matches_against_house_bots_only_are_limited_per_bot_and_day(alice):
    type(alice).objects.create_user(username="Grinder", is_bot=True, bot_owner=alice)  # driven: nothing runs
    for _ in range(20):
        started = challenge(alice, "Grinder", ["house:random"])
        assert started.status_code == 201
        lifecycle.abort_match(started.json()["id"])  # ended, so it holds none of the places at once
    refused = challenge(alice, "Grinder", ["house:random"])
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_house_matches"
    assert "20 rated matches against house bots" in refused.json()["message"]
    assert challenge(alice, "Grinder", ["house:random"], ranked=False).status_code == 201


@pytest.mark.django_db
def test_a_bot_enters_a_tournament_only_with_code_tested_on_its_game(alice, make_user):
    organizer = make_user("otto", role="organizer")
    starts = timezone.now() + timedelta(hours=1)
    dubito = Tournament.objects.create(name="Cup", game="dubito", organizer=organizer, starts_at=starts)
    dudo_only = bot_of(alice, "DudoOnly")
    BotCode.objects.filter(bot=dudo_only).update(game="dudo")
    with pytest.raises(MatchError, match="was tested on Dudo: upload a version for Dubito first"):
        services.enter(dubito.pk, dudo_only)
    BotCode.objects.create(bot=dudo_only, version=2, source=FIRST_LEGAL, game="dubito")
    services.enter(dubito.pk, dudo_only)


@pytest.mark.django_db
def test_one_owner_holds_one_waiting_challenge_a_game_to_another_owners_bot(alice, bob):
    """A tester held three challenges to one bot at once: ranked, unranked, and the name in other letters."""
    bot_of(alice, "Mine"), bot_of(alice, "Sibling"), bot_of(bob, "Theirs")
    assert challenge(alice, "Mine", ["Theirs"]).status_code == 202
    for bot, opponent, ranked in [("Mine", "Theirs", False), ("Mine", "THEIRS", True), ("Sibling", "theirs", True)]:
        again = challenge(alice, bot, [opponent], ranked=ranked)
        assert (again.status_code, again.json()["message"]) == (
            429,
            "Your Dudo challenge to Theirs is still waiting for its owner's answer.",
        )
    assert Challenge.objects.count() == 1
    other_game = as_user(alice).post(
        "/api/bots/Mine/matches/", {"game": "dudab", "opponents": ["Theirs"]}, format="json"
    )
    assert other_game.status_code == 202, "another game may be offered beside it, as to a person"


@pytest.mark.django_db
def test_a_bot_has_at_most_ten_challenges_waiting_and_an_owner_sends_twenty_an_hour(alice, bob, make_user):
    bot_of(bob, "Theirs")
    fans = [make_user(f"fan{n}") for n in range(11)]
    codes = [challenge(fan, bot_of(fan, f"Fanbot{n}").username, ["Theirs"]).status_code for n, fan in enumerate(fans)]
    assert codes == [202] * 10 + [429]
    assert challenge(fans[10], "Fanbot10", ["Theirs"]).json()["message"] == (
        "Theirs has 10 challenges waiting already: try later."
    )
    targets = [bot_of(make_user(f"owner{n}"), f"Target{n}") for n in range(21)]
    bot_of(alice, "Mine")
    codes = [challenge(alice, "Mine", [target.username]).status_code for target in targets]
    assert codes == [202] * 20 + [429]
    Challenge.objects.filter(challenger__username="Mine").update(
        created_at=timezone.now() - timedelta(hours=1, seconds=1)
    )
    assert challenge(alice, "Mine", ["Target20"]).status_code == 202
