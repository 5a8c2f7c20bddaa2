"""Password guessing is refused after a few failures, per address and per account, on every door."""

import pytest
from django.core.cache import cache

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"  # tests/conftest.py's make_user


@pytest.fixture(autouse=True)
def low_limits(settings):
    settings.AXES_FAILURE_LIMIT = 3
    cache.clear()


def web_login(client, username, password, address="10.0.0.1", **headers):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def admin_login(client, username, password, address="10.0.0.1"):
    return client.post("/admin/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


def token_login(client, username, password, address="10.0.0.1", **headers):
    return client.post(
        "/api/accounts/token/", {"username": username, "password": password}, REMOTE_ADDR=address, **headers
    )


@pytest.mark.parametrize("door", [web_login, admin_login, token_login])
def test_an_address_that_keeps_guessing_is_locked_out_even_with_the_right_password(client, alice, door):
    assert [door(client, "alice", "wrong").status_code in (200, 400) for _ in range(3)] == [True, True, False]
    assert door(client, "alice", PASSWORD).status_code == 429
    assert "_auth_user_id" not in client.session


def test_guessing_one_account_from_many_addresses_locks_the_account(client, alice):
    for number in range(3):
        web_login(client, "ALICE" if number % 2 else "alice", "wrong", address=f"10.0.1.{number}")
    assert web_login(client, "alice", PASSWORD, address="10.0.2.1").status_code == 429


def test_guessing_many_accounts_from_one_address_locks_the_address(client, alice, bob, carol, make_user):
    for name in ("bob", "carol", "dave"):
        web_login(client, name, "wrong")
    assert token_login(client, "alice", PASSWORD).status_code == 429
    assert token_login(client, "alice", PASSWORD, address="10.0.3.1").status_code == 200


def test_a_rotating_forwarded_for_header_does_not_reset_the_count(client, alice):
    for number in range(3):
        token_login(client, "bob", "wrong", HTTP_X_FORWARDED_FOR=f"192.0.2.{number}")
    answer = token_login(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.99")
    assert answer.status_code == 429 and answer.json()["message"] == "Too many failed logins: try again later."
    assert answer["Retry-After"] == str(15 * 60), "the API's lockout says how long, as every 429 does"


def test_behind_one_proxy_the_address_it_saw_is_counted(client, alice, settings):
    settings.NUM_PROXIES = 1
    for number in range(3):
        token_login(client, "bob", "wrong", address="10.9.9.9", HTTP_X_FORWARDED_FOR=f"6.6.6.{number}, 192.0.2.7")
    assert (
        token_login(client, "alice", PASSWORD, address="10.9.9.9", HTTP_X_FORWARDED_FOR="192.0.2.8").status_code == 200
    )
    assert (
        token_login(client, "alice", PASSWORD, address="10.9.9.9", HTTP_X_FORWARDED_FOR="192.0.2.7").status_code == 429
    )


def test_a_success_clears_the_account_s_failures(client, alice):
    web_login(client, "alice", "wrong")
    web_login(client, "alice", "wrong")
    assert web_login(client, "alice", PASSWORD).status_code == 302
    client.logout()
    web_login(client, "alice", "wrong", address="10.0.0.2")
    assert web_login(client, "alice", PASSWORD, address="10.0.0.3").status_code == 302


def test_the_token_endpoint_is_rate_limited_for_signed_in_callers_too(client, alice, settings):
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": {**rates, "token": "2/min"}}
    client.force_login(alice)
    codes = [token_login(client, "alice", PASSWORD, HTTP_X_FORWARDED_FOR=f"192.0.2.{n}").status_code for n in range(3)]
    assert codes == [200, 200, 429]


def test_a_locked_out_person_is_told_in_words_how_long_to_wait(client, alice):
    for _ in range(3):
        web_login(client, "alice", "wrong")
    page = web_login(client, "alice", PASSWORD)
    assert page.status_code == 429
    assert "is paused for 15 minutes" in " ".join(page.content.decode().split())
