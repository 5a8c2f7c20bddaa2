"""The tournaments API: what bot authors and scripts read and call."""

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.matches import wakeups
from tournaments import running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def as_user(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_players_enter_and_withdraw_and_the_list_filters(olga, alice):
    cup = Tournament.objects.create(name="Cup", game="dudo", organizer=olga, starts_at=timezone.now())
    Tournament.objects.create(name="Other", game="dubito", organizer=olga, starts_at=timezone.now())
    assert as_user().post(f"/api/tournaments/{cup.pk}/entry/").status_code in (401, 403)
    assert as_user(alice).post(f"/api/tournaments/{cup.pk}/entry/").json()["entries"] == 1
    again = as_user(alice).post(f"/api/tournaments/{cup.pk}/entry/")
    assert again.status_code == 400 and again.json()["code"] == "already_entered"
    assert as_user(alice).delete(f"/api/tournaments/{cup.pk}/entry/").json()["entries"] == 0
    listed = as_user().get("/api/tournaments/?game=dudo&status=scheduled").json()
    assert [t["name"] for t in listed] == ["Cup"]
    assert as_user(alice).post("/api/tournaments/999/entry/").status_code == 404


def test_the_detail_gives_standings_tables_and_the_choice_to_the_loser(olga, alice, bob):
    cup = Tournament.objects.create(
        name="Series", game="dobble", format="dobble-series", rounds=2, organizer=olga, starts_at=timezone.now()
    )
    services.enter_house_bot(cup.pk, "hard")
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    shown = as_user().get(f"/api/tournaments/{cup.pk}/").json()
    assert shown["status"] == "running" and len(shown["standings"]) == 2
    assert [t["chooser"] for t in shown["tables"]] == [None, "alice"]
    assert shown["tables"][0]["mini_game"] == "towering-inferno" and shown["tables"][0]["match_status"] == "finished"
    refused = as_user(bob).post(f"/api/tournaments/{cup.pk}/choice/", {"mini_game": "the-well"}, format="json")
    assert refused.status_code == 403
    chosen = as_user(alice).post(f"/api/tournaments/{cup.pk}/choice/", {"mini_game": "the-well"}, format="json")
    assert chosen.status_code == 200 and chosen.json()["tables"][1]["mini_game"] == "the-well"
    assert chosen.json()["tables"][1]["match_status"] == "running"
