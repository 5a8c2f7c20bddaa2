"""GET /api/accounts/me/ and GET /api/accounts/<username>/."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


def test_me_needs_authentication():
    response = APIClient().get("/api/accounts/me/")
    assert response.status_code == 403  # session auth comes first in settings: DRF answers 403, not 401
    assert response.json() == {
        "type": "error",
        "code": "not_authenticated",
        "message": "Authentication credentials were not provided.",
        "fields": {},
    }


def test_me_shows_the_e_mail_address_and_the_organizer_right(make_user):
    organizer = make_user("olga", email="olga@example.com", role="organizer",
                          first_name="Olga", last_name="K")
    api = APIClient()
    api.force_authenticate(organizer)
    body = api.get("/api/accounts/me/").json()
    assert body == {
        "username": "olga", "display_name": "Olga K", "role": "organizer", "is_bot": False, "bot_owner": None,
        "bots": [], "date_joined": body["date_joined"], "profile_url": "/accounts/u/olga/",
        "email": "olga@example.com", "can_organize": True,
    }


def test_a_public_profile_shows_no_e_mail_address(make_user, alice):
    make_user("zed_bot", is_bot=True, bot_owner=alice)
    make_user("abe_bot", is_bot=True, bot_owner=alice)
    body = APIClient().get("/api/accounts/ALICE/").json()
    assert body == {
        "username": "alice", "display_name": "alice", "role": "player", "is_bot": False, "bot_owner": None,
        "bots": ["abe_bot", "zed_bot"], "date_joined": body["date_joined"],
        "profile_url": "/accounts/u/alice/",
    }


def test_a_bot_s_profile_names_its_owner(make_user, alice):
    make_user("zed_bot", is_bot=True, bot_owner=alice)
    body = APIClient().get("/api/accounts/zed_bot/").json()
    assert (body["is_bot"], body["bot_owner"]) == (True, "alice")


def test_an_unknown_username_is_a_404():
    response = APIClient().get("/api/accounts/nobody/")
    assert response.status_code == 404
    assert response.json()["message"] == "No such object."  # no model name
