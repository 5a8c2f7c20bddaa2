"""POST /api/accounts/token/: username and password for the API token."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db
URL = "/api/accounts/token/"
PASSWORD = "correct horse battery"  # tests/conftest.py's make_user


def test_it_answers_the_account_s_token(alice):
    response = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    assert response.json() == {"token": Token.objects.get(user=alice).key, "username": "alice"}


def test_it_answers_the_same_token_every_time_and_in_any_case(alice):
    first = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json").json()
    second = APIClient().post(URL, {"username": "ALICE", "password": PASSWORD}, format="json").json()
    assert first == second
    assert Token.objects.count() == 1


def test_the_token_authenticates_api_calls(alice):
    key = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/accounts/me/").json()["username"] == "alice"


def test_a_wrong_password_is_refused(alice):
    response = APIClient().post(URL, {"username": "alice", "password": "nope"}, format="json")
    assert response.status_code == 400
    assert response.json()["message"] == "Wrong username or password."
    assert not Token.objects.exists()


def test_an_inactive_account_gets_no_token(alice):
    alice.is_active = False
    alice.save()
    response = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json")
    assert response.json()["message"] == "Wrong username or password."


def test_missing_fields_are_named():
    response = APIClient().post(URL, {}, format="json")
    assert response.status_code == 400
    required = ["This field is required."]
    assert response.json()["fields"] == {"username": required, "password": required}


def test_a_token_can_be_retired_and_the_next_login_gets_a_new_one(alice):
    key = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.delete(URL).status_code == 204
    assert api.get("/api/accounts/me/").status_code == 401
    again = APIClient().post(URL, {"username": "alice", "password": PASSWORD}, format="json").json()["token"]
    assert again != key
    assert APIClient().delete(URL).status_code == 403  # nobody signed in: nothing to retire


def test_a_wrong_token_is_401_and_says_which_scheme_and_bearer_works_too(alice):
    key = Token.objects.create(user=alice).key
    wrong = APIClient()
    wrong.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    answer = wrong.get("/api/accounts/me/")
    assert answer.status_code == 401 and answer["WWW-Authenticate"].startswith("Token")
    bearer = APIClient()
    bearer.credentials(HTTP_AUTHORIZATION=f"Bearer {key}")
    assert bearer.get("/api/accounts/me/").json()["username"] == "alice"
    assert APIClient().get("/api/accounts/me/").status_code == 403  # nothing sent: not signed in
