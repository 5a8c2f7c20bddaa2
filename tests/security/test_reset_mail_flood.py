"""Password-reset mails are limited per recipient and per asking address: a page could send one
person thirty mails in a second and a half."""

import pytest
from django.core import mail
from django.core.cache import cache

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_counts():
    cache.clear()  # the throttles count in the cache
    yield
    cache.clear()


def ask(client, email: str, address: str):
    return client.post("/accounts/password/reset/", {"email": email}, REMOTE_ADDR=address)


def test_one_person_gets_at_most_three_reset_mails_an_hour_whoever_asks(client, make_user):
    make_user("alice", email="alice@example.com")
    answers = [ask(client, "Alice@Example.com " if n % 2 else "alice@example.com", f"10.4.0.{n}") for n in range(30)]
    assert len(mail.outbox) == 3
    # Past the limit the page says what it always says: nothing tells whether the address has an account.
    assert {(answer.status_code, answer["Location"]) for answer in answers} == {(302, "/accounts/password/reset/sent/")}


def test_one_address_may_ask_ten_times_an_hour_then_is_told_how_long_to_wait(client, make_user):
    for n in range(12):
        make_user(f"player{n}", email=f"player{n}@example.com")
    answers = [ask(client, f"player{n}@example.com", "10.4.1.1") for n in range(12)]
    assert [answer.status_code for answer in answers] == [302] * 10 + [429] * 2
    assert len(mail.outbox) == 10
    assert "Too many requests from your address: try again in 60 minutes." in answers[-1].content.decode()
    assert ask(client, "player11@example.com", "10.4.1.2").status_code == 302 and len(mail.outbox) == 11
