import pytest

from games.matches import lifecycle


@pytest.fixture
def dudo_match(alice, bob):
    """A running two-player Dudo match: alice on seat 0, bob on seat 1."""
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=42)
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice)


OPENING_BID = {"type": "bid", "quantity": 1, "face": 2}
