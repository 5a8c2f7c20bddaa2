"""Logging in and out on the web: /accounts/login/ and /accounts/logout/."""

import pytest

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"  # tests/conftest.py's make_user


def test_the_login_page_renders_with_labels_and_a_reset_link(client):
    html = client.get("/accounts/login/").content.decode()
    assert '<label for="id_username">' in html and '<label for="id_password">' in html
    assert 'href="/accounts/password/reset/"' in html


def test_it_logs_in_and_goes_home(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_the_username_may_be_typed_in_another_case(client, alice):
    client.post("/accounts/login/", {"username": "ALIce", "password": PASSWORD})
    assert client.session["_auth_user_id"] == str(alice.pk)


def test_it_follows_next(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD, "next": "/play/"})
    assert response["Location"] == "/play/"


def test_a_wrong_password_is_refused_with_django_s_message(client, alice):
    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors() == [
        "Please enter a correct username and password. Note that both fields may be case-sensitive."
    ]
    assert "_auth_user_id" not in client.session


def test_logout_needs_a_post(client, alice):
    client.force_login(alice)
    assert client.get("/accounts/logout/").status_code == 405
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session


def test_every_page_shows_the_signed_in_user_and_a_logout_button(client, alice):
    client.force_login(alice)
    html = client.get("/accounts/u/alice/").content.decode()
    assert '<a class="me" href="/accounts/u/alice/" title="Your profile">alice</a>' in html
    assert 'action="/accounts/logout/"' in html
    assert 'href="/accounts/login/"' not in html
