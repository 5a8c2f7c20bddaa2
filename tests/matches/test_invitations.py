"""Rematch and challenge: both sides must agree (a bot agrees at once), then an ordinary match starts."""

import pytest

from dubium import demo
from games.lobby import tables
from games.lobby.models import Challenge
from games.matches import lifecycle, presence
from games.matches.models import Match

pytestmark = pytest.mark.django_db


def finish(match):
    """Resign seat 1 so the match is over (the quickest way to a finished table)."""
    lifecycle.leave_match(match.pk, match.seats.get(number=1).user)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    return match


def test_a_rematch_against_the_computer_starts_at_once_with_the_seats_turned(client, alice):
    match = tables.play_the_computer(alice, "dudo", "random", 2, {"dice": 1}, "3+2")
    lifecycle.leave_match(match.pk, alice)
    client.force_login(alice)
    response = client.post(f"/match/{match.pk}/rematch/")
    again = Match.objects.exclude(pk=match.pk).get()
    assert response.url == f"/match/{again.pk}/" and again.status == Match.Status.RUNNING
    seats = list(again.seats.order_by("number"))
    assert [s.user.username for s in seats] == ["RandomBot", "alice"] and seats[1].house_bot == ""
    assert (again.options, again.clock_label) == (match.options, "3+2")


def test_a_rematch_between_people_waits_for_both(client, alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice)
    lifecycle.join_match(match.pk, bob)
    finish(lifecycle.start_match(match.pk, alice))
    client.force_login(alice)
    assert client.post(f"/match/{match.pk}/rematch/").url == f"/match/{match.pk}/"
    assert Match.objects.count() == 1
    client.force_login(bob)
    again = Match.objects.exclude(pk=match.pk)
    response = client.post(f"/match/{match.pk}/rematch/")
    assert response.url == f"/match/{again.get().pk}/" and again.get().status == Match.Status.RUNNING


def test_only_players_of_a_finished_match_may_ask_for_a_rematch(client, alice, carol):
    match = demo.play_bot_match("dudo", ["random", "random"], seed=3)
    client.force_login(carol)
    client.post(f"/match/{match.pk}/rematch/")
    assert Match.objects.count() == 1


def test_a_challenge_by_name_starts_the_game_when_accepted(client, alice, bob):
    client.force_login(alice)
    assert client.post("/play/dudo/challenge/", {"username": "Bob", "time_control": "5+5"}).status_code == 302
    client.force_login(bob)
    sent = Challenge.objects.get()
    for page in ("/play/dudo/", "/tournaments/", "/leaderboards/"):  # in every page's header
        assert "alice challenges you to Dudo (ranked, 5+5)" in client.get(page).content.decode()
    response = client.post(f"/play/dudo/challenge/{sent.pk}/", {"answer": "accept"})
    match = Match.objects.get()
    assert response.url == f"/match/{match.pk}/" and match.ranked and match.clock_label == "5+5"
    assert {s.user.username for s in match.seats.all()} == {"alice", "bob"}


def test_a_declined_challenge_starts_nothing_and_cannot_be_answered_twice(client, alice, bob):
    client.force_login(alice)
    client.post("/play/dudo/challenge/", {"username": "bob", "time_control": "none"})
    client.force_login(bob)
    sent = Challenge.objects.get()
    declined = client.post(f"/play/dudo/challenge/{sent.pk}/", {"answer": "decline", "next": "/tournaments/"})
    assert declined.url == "/tournaments/" and "challenges you" not in client.get("/tournaments/").content.decode()
    assert client.post(f"/play/dudo/challenge/{sent.pk}/", {"answer": "accept"}).status_code == 400
    assert not Match.objects.exists() and Challenge.objects.get().status == Challenge.Status.DECLINED


def test_declining_never_sends_the_player_off_the_site(client, alice, bob):
    client.force_login(alice)
    client.post("/play/dudo/challenge/", {"username": "bob", "time_control": "none"})
    client.force_login(bob)
    answer = f"/play/dudo/challenge/{Challenge.objects.get().pk}/"
    assert client.post(answer, {"answer": "decline", "next": "https://elsewhere.example/"}).url == "/play/dudo/"


def test_a_dobble_challenge_names_no_clock(client, alice, bob):
    client.force_login(alice)
    client.post("/play/dobble/challenge/", {"username": "bob", "time_control": "none"})
    client.force_login(bob)
    assert "alice challenges you to Dobble (casual)" in client.get("/").content.decode()


@pytest.mark.parametrize("name", ["nobody", "alice", "RandomBot"])
def test_a_challenge_needs_another_person(client, alice, name):
    lifecycle.house_bot_user("random")
    client.force_login(alice)
    response = client.post("/play/dudo/challenge/", {"username": name, "time_control": "none"})
    assert response.status_code == 400 and not Challenge.objects.exists()


def test_the_header_fragment_lists_the_challenges_and_keeps_the_page_to_come_back_to(client, alice, bob):
    client.force_login(bob)
    assert "challenges you" not in client.get("/challenges/?next=/leaderboards/").content.decode()
    client.force_login(alice)
    client.post("/play/dudo/challenge/", {"username": "bob", "time_control": "none"})
    client.force_login(bob)
    html = client.get("/challenges/?next=/leaderboards/").content.decode()
    assert "alice challenges you to Dudo (casual, no clock)" in html and 'value="/leaderboards/"' in html


def test_a_table_that_opens_after_a_rematch_was_asked_for_is_told_of_it(client, alice, bob):
    """The page drawn before the ask, whose socket opened after its push, still shows it: the
    whole state a socket opens with carries it, until the rematch starts."""
    match = lifecycle.create_match(game="dudo", players=2, host=alice)
    lifecycle.join_match(match.pk, bob)
    finish(lifecycle.start_match(match.pk, alice))
    assert "rematch" not in presence.current_message(match.pk, 1)
    client.force_login(alice)
    client.post(f"/match/{match.pk}/rematch/")
    asked = presence.current_message(match.pk, 1)["rematch"]
    assert asked == {"type": "rematch", "match": match.pk, "asked_by": ["alice"], "url": None}
    client.force_login(bob)
    client.post(f"/match/{match.pk}/rematch/")
    assert "rematch" not in presence.current_message(match.pk, 1), "an old table's page is not sent on"
