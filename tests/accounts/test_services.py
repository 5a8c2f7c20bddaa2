"""accounts.services: the single path for registrations."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.db import IntegrityError

from accounts import services
from tests.accounts.conftest import GOOD_PASSWORD

pytestmark = pytest.mark.django_db


def test_check_username_strips_spaces_and_keeps_the_case():
    assert services.check_username("  Alice_B-1 ") == "Alice_B-1"


def test_the_database_refuses_a_username_differing_only_in_case(alice):
    with pytest.raises(IntegrityError):
        get_user_model().objects.create_user("Alice", password="x")


def test_a_registration_that_loses_the_race_gets_the_taken_message(monkeypatch, alice):
    """Both sign-ups passed check_username; the unique index decides, and the loser hears why."""
    monkeypatch.setattr(services, "check_username", lambda username: username)
    with pytest.raises(ValidationError) as caught:
        services.do_register("ALICE", "a@example.com", GOOD_PASSWORD)
    assert caught.value.message_dict == {"username": ["That username is taken."]}
    assert get_user_model().objects.count() == 1


def test_the_password_may_not_resemble_the_username():
    with pytest.raises(ValidationError) as caught:
        services.do_register("violetladder", "v@example.com", "violetladder")
    assert caught.value.message_dict == {"password": ["The password is too similar to the username."]}
