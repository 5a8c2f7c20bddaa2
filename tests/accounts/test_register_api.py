"""POST /api/accounts/register/: the same rules and messages as the web form."""

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.accounts.conftest import GOOD_PASSWORD

pytestmark = pytest.mark.django_db
URL = "/api/accounts/register/"


@pytest.fixture
def api():
    return APIClient()


def register(api, **fields):
    data = {"username": "alice", "email": "alice@example.com", "password": GOOD_PASSWORD}
    return api.post(URL, {**data, **fields}, format="json")


def test_it_creates_a_player_and_answers_with_its_token(api):
    response = register(api, username="Alice")
    assert response.status_code == 201
    user = get_user_model().objects.get()
    body = response.json()
    assert body["token"] == Token.objects.get(user=user).key
    assert {k: body[k] for k in ("username", "email", "role", "is_bot", "can_organize", "profile_url")} == {
        "username": "Alice", "email": "alice@example.com", "role": "player", "is_bot": False,
        "can_organize": False, "profile_url": "/accounts/u/Alice/",
    }
    assert "password" not in body
    assert user.check_password(GOOD_PASSWORD)


def test_the_token_works_at_once(api):
    key = register(api).json()["token"]
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/accounts/me/").json()["username"] == "alice"


def test_it_refuses_a_username_taken_in_another_case(api, alice):
    response = register(api, username="aLiCe")
    assert response.status_code == 400
    assert response.json()["fields"] == {"username": ["That username is taken."]}
    assert get_user_model().objects.count() == 1


def test_it_lists_every_problem_at_once(api):
    response = register(api, username="a b", email="nope", password="123")
    assert response.status_code == 400
    assert response.json()["fields"] == {
        "username": ["Usernames are 3 to 30 letters, digits, _ or -."],
        "email": ["Enter a valid e-mail address."],
        "password": [
            "This password is too short. It must contain at least 8 characters.",
            "This password is too common.",
            "This password is entirely numeric.",
        ],
    }
    assert not get_user_model().objects.exists()


def test_missing_fields_are_named(api):
    response = api.post(URL, {}, format="json")
    assert response.status_code == 400
    required = ["This field is required."]
    assert response.json()["fields"] == {"username": required, "email": required, "password": required}


MALFORMED = ['{"username": ["x"], "email": 3, "password": null}', "not json", '"a string"', "[]"]


@pytest.mark.parametrize("body", MALFORMED)
def test_malformed_bodies_get_a_400_never_a_500(api, body):
    response = api.generic("POST", URL, body, content_type="application/json")
    assert response.status_code == 400


def test_a_null_character_is_refused(api):
    response = register(api, username="bob\x00")
    assert response.status_code == 400
    assert response.json()["fields"] == {"username": ["Null characters are not allowed."]}


def test_registration_is_throttled_after_ten_an_hour_from_one_address(api):
    for n in range(10):
        assert register(api, username=f"player{n}").status_code == 201
    response = register(api, username="player10")
    assert response.status_code == 429
    assert response.json()["message"].startswith("Request was throttled.")
    assert get_user_model().objects.count() == 10


def test_signed_in_clients_are_throttled_too(api, alice):
    api.force_authenticate(alice)
    for n in range(10):
        register(api, username=f"player{n}")
    assert register(api, username="player10").status_code == 429


def test_another_address_is_not_throttled(api):
    for n in range(10):
        register(api, username=f"player{n}")
    data = {"username": "player10", "email": "p@example.com", "password": GOOD_PASSWORD}
    assert api.post(URL, data, format="json", REMOTE_ADDR="10.0.0.2").status_code == 201
