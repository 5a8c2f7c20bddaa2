"""Shared fixtures: named users, and settings that keep tests in control of time."""

import os

import pytest


@pytest.fixture(autouse=True)
def manual_wakeups(request):
    """Tests wake matches themselves; no background thread or ETA task interferes.

    Pure engine tests also run without Django (`pytest -p no:django tests/engines`).
    """
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    settings.MATCH_WAKEUPS = "manual"
    settings.HOUSE_BOT_THINK_MS = 500
    # Real-time matches start at once unless a test is about the get-ready countdown.
    settings.REALTIME_GET_READY_MS = 0
    settings.CELERY_TASK_ALWAYS_EAGER = True
    # A deliberately slow hash protects real passwords; tests create hundreds of accounts.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The site-wide API limits (accounts/throttles.py): off in tests, which call the API far faster than
# any bot may; the tests about them turn them on with `api_limits`.
API_LIMIT_SCOPES = ("account_burst", "account_sustained", "address_burst", "address_sustained")


@pytest.fixture(autouse=True)
def api_limits_off(request):
    if not request.config.pluginmanager.hasplugin("django"):
        return
    settings = request.getfixturevalue("settings")
    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": {**rates, **dict.fromkeys(API_LIMIT_SCOPES)},
    }


@pytest.fixture
def api_limits(settings):
    """The documented API limits (settings.py's defaults), counted from nothing."""
    from django.core.cache import cache

    from dubium import settings as site

    settings.REST_FRAMEWORK = site.REST_FRAMEWORK
    cache.clear()
    yield site.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    cache.clear()


@pytest.fixture
def make_user(db, django_user_model):
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password="correct horse battery", **extra)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture(autouse=True)
def fresh_channel_layer(request):
    """A new channel layer per test: the Redis layer's locks belong to one event loop, and
    pytest-asyncio gives every test a loop of its own."""
    if request.config.pluginmanager.hasplugin("django"):
        from channels.layers import channel_layers

        channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_socket_limits(request):
    """Each test's sockets are counted from nothing: account ids repeat from test to test, and a
    suite opens more sockets a second as one account than any person does."""
    if request.config.pluginmanager.hasplugin("django"):
        from dubium import socket_limits

        socket_limits.OPENING.buckets.clear()


def services_required() -> bool:
    """CI's real-stack pass sets this: a test needing PostgreSQL or Redis must run, never skip."""
    return os.environ.get("DUBIUM_REQUIRE_SERVICES") == "1"


def real_stack() -> bool:
    """The run is on PostgreSQL and Redis (`make test-real`, CI's second pass), not the embedded defaults."""
    return services_required() or bool(os.environ.get("REDIS_URL"))


ONCE = "the same on any stack: runs once, in the embedded pass"
REAL_STACK_ONLY = "the real stack's own: runs in the real-stack pass (make test-real)"


def pytest_collection_modifyitems(config, items):
    """What each CI pass runs, by the marks of pyproject.toml: what cannot differ between the stacks
    (marked `once`, and browser tests not marked `both_stacks`) runs in the embedded pass only, the
    multi-process stack (`stack`) in the real-stack pass only."""
    real = real_stack()
    for item in items:
        marked = {mark.name for mark in item.iter_markers()}
        if real and ("once" in marked or ("browser" in marked and "both_stacks" not in marked)):
            item.add_marker(pytest.mark.skip(reason=ONCE))
        elif not real and "stack" in marked:
            item.add_marker(pytest.mark.skip(reason=REAL_STACK_ONLY))


@pytest.fixture
def application():
    """The site's ASGI application, for websocket tests (imported once Django is set up)."""
    from dubium.asgi import application

    return application
