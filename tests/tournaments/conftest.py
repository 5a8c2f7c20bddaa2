import pytest


@pytest.fixture
def olga(make_user):
    """An organizer."""
    return make_user("olga", role="organizer")
