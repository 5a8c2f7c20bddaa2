import pytest


@pytest.fixture
def olga(make_user):
    """An organizer: not staff, yet she reaches her own tournaments in the admin (accounts.admin_site)."""
    return make_user("olga", role="organizer")
