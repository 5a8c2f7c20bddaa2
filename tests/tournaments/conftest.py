import pytest


@pytest.fixture
def olga(make_user):
    """An organizer: staff, so she reaches the admin (accounts.services.do_set_role does the same)."""
    return make_user("olga", role="organizer", is_staff=True)
