"""Accounts tests: a fresh throttle cache and a fast password hasher for every test."""

import pytest
from django.core.cache import cache

GOOD_PASSWORD = "pale-violet-ladder-42"


@pytest.fixture(autouse=True)
def fresh_cache():
    cache.clear()  # throttle counters live in the cache
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def fast_hasher(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def staff_admin(db, django_user_model):
    return django_user_model.objects.create_superuser("root", "root@example.com", GOOD_PASSWORD)
