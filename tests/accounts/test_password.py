"""Changing a password, and resetting a forgotten one through the e-mail link."""

import re

import pytest
from django.core import mail
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.accounts.conftest import GOOD_PASSWORD

pytestmark = pytest.mark.django_db
OLD = "correct horse battery"  # tests/conftest.py's make_user
NEW = GOOD_PASSWORD


def test_changing_the_password_needs_a_login(client):
    response = client.get("/accounts/password/")
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/accounts/password/"


def test_it_changes_the_password_and_keeps_the_session(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/password/", {
        "old_password": OLD, "new_password1": NEW, "new_password2": NEW,
    })
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client.get("/accounts/password/done/").status_code == 200


def test_a_wrong_old_password_is_refused(client, alice):
    client.force_login(alice)
    response = client.post("/accounts/password/", {
        "old_password": "nope", "new_password1": NEW, "new_password2": NEW,
    })
    assert response.context["form"].errors == {
        "old_password": ["Your old password was entered incorrectly. Please enter it again."]
    }


def test_guessing_the_old_password_counts_towards_the_login_lockout(client, alice, settings):
    """A session left open let anyone guess the password without limit on this form."""
    settings.AXES_FAILURE_LIMIT = 3
    client.force_login(alice)
    for _ in range(3):
        client.post("/accounts/password/", {"old_password": "nope", "new_password1": NEW, "new_password2": NEW})
    right = client.post("/accounts/password/", {"old_password": OLD, "new_password1": NEW, "new_password2": NEW})
    assert right.status_code == 200
    assert right.context["form"].errors == {"old_password": ["Too many wrong passwords: try again later."]}
    alice.refresh_from_db()
    assert alice.check_password(OLD)
    client.post("/accounts/logout/")
    assert client.post("/accounts/login/", {"username": "alice", "password": OLD}).status_code == 429


def test_a_new_password_retires_the_accounts_api_token(client, alice):
    """Whoever held the old password may hold the token too: it kept working after a change or reset."""
    key = Token.objects.create(user=alice).key
    client.force_login(alice)
    client.post("/accounts/password/", {"old_password": OLD, "new_password1": NEW, "new_password2": NEW})
    assert not Token.objects.filter(key=key).exists()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/accounts/me/").status_code == 401
    alice.refresh_from_db()
    alice.first_name = "Alice"
    alice.save()  # other changes leave a token alone
    fresh = Token.objects.create(user=alice)
    alice.save()
    assert Token.objects.filter(key=fresh.key).exists()


def test_the_reset_link_works_end_to_end(client, make_user):
    alice = make_user("alice", email="Alice@Example.com")
    response = client.post("/accounts/password/reset/", {"email": "alice@example.com"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/sent/"

    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == ["Alice@example.com"]  # create_user lowercases the domain
    assert message.subject == "Reset your Dubium password"
    assert "Dubium account alice" in message.body
    link = re.search(r"http://testserver(/accounts/password/reset/\S+/\S+/)", message.body).group(1)

    response = client.get(link)  # Django swaps the token for a session-held one and redirects
    assert response.status_code == 302
    form_url = response["Location"]
    assert form_url.endswith("/set-password/")
    assert client.get(form_url).context["validlink"] is True

    response = client.post(form_url, {"new_password1": NEW, "new_password2": NEW})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/password/reset/done/"
    alice.refresh_from_db()
    assert alice.check_password(NEW)
    assert client.get("/accounts/password/reset/done/").status_code == 200

    assert client.get(link).context["validlink"] is False  # a link works once


def test_an_unknown_address_sends_nothing_and_says_the_same(client, alice):
    response = client.post("/accounts/password/reset/", {"email": "nobody@example.com"})
    assert response["Location"] == "/accounts/password/reset/sent/"
    assert mail.outbox == []


def test_a_forged_link_is_refused(client, alice):
    response = client.get("/accounts/password/reset/MQ/forged-token/")
    assert response.status_code == 200
    assert response.context["validlink"] is False
    assert "This reset link is no longer valid" in response.content.decode()
