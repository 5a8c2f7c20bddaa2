"""The web registration form: /accounts/register/."""

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache

from tests.accounts.conftest import GOOD_PASSWORD

pytestmark = pytest.mark.django_db
USERNAME_RULE = "Usernames are 3 to 30 letters, digits, _ or -."


def post(client, **fields):
    data = {"username": "alice", "email": "alice@example.com"}
    data |= {"password1": GOOD_PASSWORD, "password2": GOOD_PASSWORD}
    return client.post("/accounts/register/", {**data, **fields})


def test_the_form_renders_with_labels_for_every_field(client):
    response = client.get("/accounts/register/")
    assert response.status_code == 200
    html = response.content.decode()
    for field in ("username", "email", "password1", "password2"):
        assert f'<label for="id_{field}">' in html


def test_it_creates_a_player_logs_them_in_and_welcomes_them(client):
    response = post(client, username="Alice_1", email=" alice@example.com ")
    assert response.status_code == 302
    assert response["Location"] == "/welcome/"
    user = get_user_model().objects.get()
    assert (user.username, user.email, user.role) == ("Alice_1", "alice@example.com", "player")
    assert user.is_bot is False
    assert user.check_password(GOOD_PASSWORD)
    assert client.session["_auth_user_id"] == str(user.pk)


def test_it_refuses_a_username_taken_in_another_case(client, alice):
    response = post(client, username="ALICE")
    assert response.status_code == 200
    assert response.context["form"].errors == {"username": ["That username is taken."]}
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize("username", ["ab", "a" * 31, "al ice", "alice!", "élodie", "a.b.c", "\x00bob"])
def test_it_refuses_usernames_outside_the_rule(client, username):
    response = post(client, username=username)
    assert response.status_code == 200
    expected = "Null characters are not allowed." if "\x00" in username else USERNAME_RULE
    assert response.context["form"].errors == {"username": [expected]}
    assert not get_user_model().objects.exists()


def test_it_accepts_thirty_characters_with_digits_underscores_and_dashes(client):
    assert post(client, username="a-b_c" + "9" * 25).status_code == 302


def test_it_refuses_reserved_usernames(client):
    response = post(client, username="Token")
    assert response.context["form"].errors == {"username": ["That username is reserved."]}


@pytest.mark.parametrize("username", ["RandomBot", "heuristicbot3", "HardBot12", "EasyBot"])
def test_it_refuses_names_of_the_house_bots_kind(client, username):
    """Anyone could register "RandomBot3" and pass for the site's own bot."""
    response = post(client, username=username)
    assert response.context["form"].errors == {"username": ["That username is reserved."]}


def test_the_form_shares_the_apis_limit_of_ten_new_accounts_an_hour_from_one_address(client):
    for number in range(9):
        client.post("/accounts/logout/")
        assert post(client, username=f"web{number}").status_code == 302
    client.post("/accounts/logout/")
    api = client.post(
        "/api/accounts/register/",
        {"username": "api0", "email": "a@example.com", "password": GOOD_PASSWORD},
        content_type="application/json",
    )
    assert api.status_code == 201
    client.post("/accounts/logout/")
    refused = post(client, username="web9")
    assert refused.status_code == 429
    assert "Too many new accounts from your address: try again in 60 minutes." in refused.content.decode()
    assert not get_user_model().objects.filter(username="web9").exists()


def test_only_the_accounts_made_count_against_the_limit_not_the_mistyped_sign_ups(client, settings):
    """A tester's sign-ups refused for a typo used up the limit: "Too many new accounts" came at the 8th."""
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"register": "2/hour"}
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {"DEFAULT_THROTTLE_RATES": rates}
    cache.clear()
    for _ in range(3):
        assert post(client, username="typo", password2="not the same").status_code == 200
    for number in range(2):
        client.post("/accounts/logout/")
        assert post(client, username=f"made{number}").status_code == 302
    client.post("/accounts/logout/")
    refused = post(client, username="made2")
    assert refused.status_code == 429 and refused["Retry-After"].isdigit()
    assert "Too many new accounts from your address: try again in 60 minutes." in refused.content.decode()
    assert get_user_model().objects.filter(username__startswith="made").count() == 2


def test_it_refuses_two_different_passwords(client):
    response = post(client, password2=GOOD_PASSWORD + "x")
    assert response.context["form"].errors == {"password2": ["The two passwords differ."]}


def test_it_refuses_a_weak_password_with_django_s_messages(client):
    response = post(client, password1="12345", password2="12345")
    assert response.context["form"].errors == {"password1": [
        "This password is too short. It must contain at least 8 characters.",
        "This password is too common.",
        "This password is entirely numeric.",
    ]}


def test_it_refuses_a_bad_e_mail_address(client):
    response = post(client, email="not-an-address")
    assert response.context["form"].errors == {"email": ["Enter a valid e-mail address."]}


def test_it_says_which_fields_are_missing_once(client):
    response = client.post("/accounts/register/", {})
    assert response.status_code == 200
    required = ["This field is required."]
    assert response.context["form"].errors == {
        "username": required, "email": required, "password1": required, "password2": required,
    }


def test_a_signed_in_user_is_sent_to_their_profile(client, alice):
    client.force_login(alice)
    response = client.get("/accounts/register/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/u/alice/"
