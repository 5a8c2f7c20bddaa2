"""Issue 35: whoever sends a challenge sees it waiting on the lobby and can take it back."""

import pytest

from games.lobby.models import Challenge
from games.matches.models import Match

pytestmark = pytest.mark.django_db


def send(client, challenger, to="bob"):
    client.force_login(challenger)
    client.post("/play/dudo/challenge/", {"username": to, "time_control": "5+5"})
    return Challenge.objects.get(challenger=challenger)


def test_the_challenger_sees_the_challenge_waiting_on_the_lobby_with_a_cancel(client, alice, bob):
    sent = send(client, alice)
    html = client.get("/play/dudo/").content.decode()
    assert "Your challenge to bob (ranked, 5+5) waits for an answer." in html
    assert f'action="/play/dudo/challenge/{sent.pk}/cancel/"' in html
    assert "Your challenge to" not in client.get("/play/dubito/").content.decode()  # each game's lobby its own


def test_a_cancelled_challenge_leaves_both_pages_and_can_no_longer_be_accepted(client, alice, bob):
    sent = send(client, alice)
    response = client.post(f"/play/dudo/challenge/{sent.pk}/cancel/")
    assert response.url == "/play/dudo/"
    assert Challenge.objects.get().status == Challenge.Status.CANCELLED
    assert "Your challenge to" not in client.get("/play/dudo/").content.decode()
    client.force_login(bob)
    assert "challenges you" not in client.get("/play/dudo/").content.decode()
    assert client.post(f"/play/dudo/challenge/{sent.pk}/", {"answer": "accept"}).status_code == 400
    assert not Match.objects.exists()


def test_only_the_challenger_may_cancel_and_only_while_it_waits(client, alice, bob, carol):
    sent = send(client, alice)
    for someone in (bob, carol):
        client.force_login(someone)
        assert client.post(f"/play/dudo/challenge/{sent.pk}/cancel/").status_code == 400
    assert Challenge.objects.get().status == Challenge.Status.PENDING
    client.force_login(bob)
    client.post(f"/play/dudo/challenge/{sent.pk}/", {"answer": "accept"})
    client.force_login(alice)
    assert client.post(f"/play/dudo/challenge/{sent.pk}/cancel/").status_code == 400
    assert Challenge.objects.get().status == Challenge.Status.ACCEPTED
