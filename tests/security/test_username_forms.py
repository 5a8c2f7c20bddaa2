"""A username is compared in one form at sign-up, sign-in and in the login lockouts: on PostgreSQL
a dotless `ı` escaped the per-account lockout (`alıce` signed in as alice, counted as another)."""

import json
from pathlib import Path

import pytest
from django.core.cache import cache

from accounts import services
from accounts.usernames import username_key

pytestmark = pytest.mark.django_db
PASSWORD = "correct horse battery"  # tests/conftest.py's make_user
SEEDS = Path(__file__).resolve().parents[2] / "seeds" / "demo.json"
SPELLINGS_OF_ALICE = ["alice", "ALICE", "alıce", "aIice", "a1ice", "ａｌｉｃｅ", "ALİCE", "аlice"]  # Cyrillic а last


@pytest.fixture(autouse=True)
def low_limits(settings):
    settings.AXES_FAILURE_LIMIT = 3
    cache.clear()


def web_login(client, username, password, address):
    return client.post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address)


@pytest.mark.parametrize("spelling", SPELLINGS_OF_ALICE)
def test_every_spelling_of_a_name_has_one_key(spelling):
    assert username_key(spelling) == username_key("alice")


@pytest.mark.parametrize("other", ["alicia", "alice2", "bob", "alicee", "ali_ce"])
def test_names_that_read_differently_keep_their_own_key(other):
    assert username_key(other) != username_key("alice")


def test_failures_under_any_spelling_lock_the_one_account(client, alice):
    spellings = ["alıce", "ａｌｉｃｅ", "aIice"]
    codes = [web_login(client, name, "wrong", f"10.5.0.{n}").status_code for n, name in enumerate(spellings)]
    assert codes == [200, 200, 429]  # the third failure reaches the limit
    assert web_login(client, "alice", PASSWORD, "10.5.1.1").status_code == 429
    assert "_auth_user_id" not in client.session


@pytest.mark.parametrize("spelling", ["ALICE", "alıce", "ａｌｉｃｅ"])
def test_a_spelling_of_the_name_signs_in_to_that_account(client, alice, spelling):
    assert web_login(client, spelling, PASSWORD, "10.5.2.1").status_code == 302
    assert client.session["_auth_user_id"] == str(alice.pk)


@pytest.mark.parametrize("spelling", ["aIice", "a1ice", "ALICE", "Alice"])
def test_a_name_that_reads_like_a_taken_one_cannot_sign_up(alice, spelling):
    with pytest.raises(services.ValidationError) as caught:
        services.do_register(spelling, "impostor@example.com", "pale-violet-ladder-42")
    assert caught.value.message_dict == {"username": ["That username is taken."]}


def test_a_reserved_name_is_reserved_in_every_spelling():
    with pytest.raises(services.ValidationError) as caught:
        services.check_username("Adm1n")
    assert caught.value.messages == ["That username is reserved."]


def test_accounts_from_before_keys_that_share_one_each_sign_in_by_its_own_name(client, make_user):
    bill, twin = make_user("bill"), make_user("biII")  # made directly, as before sign-up refused it
    assert bill.username_key == twin.username_key
    assert web_login(client, "BILL", PASSWORD, "10.5.3.1").status_code == 302
    assert client.session["_auth_user_id"] == str(bill.pk)
    client.logout()
    assert web_login(client, "biii", PASSWORD, "10.5.3.2").status_code == 302
    assert client.session["_auth_user_id"] == str(twin.pk)


def test_the_demo_accounts_share_no_key():
    demo = json.loads(SEEDS.read_text())
    names = demo["players"] + demo["organizers"] + demo["staff"]
    assert len({username_key(name) for name in names}) == len(names)
