"""Challenges by name are limited per sender and per person challenged, and no page lists an
unbounded number of them (200 once grew every page of the one challenged from 6 KB to 114 KB)."""

from datetime import timedelta

import pytest

from games.lobby import invitations
from games.lobby.models import Challenge

pytestmark = pytest.mark.django_db


def challenge(client, sender, name: str):
    client.force_login(sender)
    return client.post("/play/dudo/challenge/", {"username": name, "time_control": "none"})


def test_a_second_challenge_to_the_same_person_in_the_same_game_waits_for_the_first_answer(client, alice, bob):
    assert challenge(client, alice, "bob").status_code == 302
    again = challenge(client, alice, "BOB")
    assert again.status_code == 400
    assert "Your Dudo challenge to bob is still waiting for an answer." in again.content.decode()
    assert Challenge.objects.count() == 1
    client.post("/play/dobble/challenge/", {"username": "bob", "time_control": "none"})
    assert Challenge.objects.count() == 2, "another game may be offered beside it"


def test_a_sender_sends_at_most_twenty_challenges_an_hour(client, alice, make_user):
    people = [make_user(f"friend{n}") for n in range(21)]
    codes = [challenge(client, alice, person.username).status_code for person in people]
    assert codes == [302] * 20 + [400]
    assert "You have sent 20 challenges in the last hour" in challenge(client, alice, "friend20").content.decode()
    Challenge.objects.update(created_at=Challenge.objects.first().created_at - timedelta(hours=1, seconds=1))
    assert challenge(client, alice, "friend20").status_code == 302


def test_a_person_has_at_most_ten_challenges_waiting(client, bob, make_user):
    senders = [make_user(f"fan{n}") for n in range(11)]
    codes = [challenge(client, sender, "bob").status_code for sender in senders]
    assert codes == [302] * 10 + [400]
    assert "bob has 10 challenges waiting already: try later." in challenge(client, senders[10], "bob").content.decode()
    client.force_login(bob)
    oldest = Challenge.objects.order_by("created_at").first()
    client.post(f"/play/dudo/challenge/{oldest.pk}/", {"answer": "decline"})
    assert challenge(client, senders[10], "bob").status_code == 302


def test_every_page_lists_a_bounded_number_of_waiting_challenges(client, bob, make_user):
    for n in range(40):  # as many as any earlier limit let through
        Challenge.objects.create(challenger=make_user(f"fan{n}"), challenged=bob, game="dudo")
    client.force_login(bob)
    page = client.get("/leaderboards/").content.decode()
    assert page.count("challenges you to") == invitations.WAITING_AT_MOST
    assert "fan39 challenges you" in page and "fan0 challenges you" not in page  # the newest
