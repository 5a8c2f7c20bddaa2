"""The stall attack's matches (issue 32): one owner's bots play at most HOUSE_MATCHES_AT_ONCE matches
with a house bot at once, ranked or not, whichever of their bots; the next waits for one to end."""

import pytest
from rest_framework.test import APIClient

from botapi.services import HOUSE_MATCHES_AT_ONCE
from games.matches import lifecycle

FULL = f"Your bots already play {HOUSE_MATCHES_AT_ONCE} matches against house bots: start another when one ends."


def driven(owner, name: str):
    return type(owner).objects.create_user(username=name, is_bot=True, bot_owner=owner)  # nothing runs


def challenge(owner, bot: str, opponents: list[str], ranked: bool = False):
    client = APIClient()
    client.force_authenticate(owner)
    return client.post(
        f"/api/bots/{bot}/matches/", {"game": "dudo", "opponents": opponents, "ranked": ranked}, format="json"
    )


@pytest.mark.django_db
def test_an_owners_bots_play_eight_house_matches_at_once_and_the_ninth_waits_for_one_to_end(alice, bob):
    for name in ("Sleeper", "Other", "Fresh"):
        driven(alice, name)
    driven(bob, "Bystander")
    started = [challenge(alice, "Sleeper", ["house:random"]) for _ in range(HOUSE_MATCHES_AT_ONCE - 2)]
    started += [challenge(alice, "Other", ["house:heuristic"], ranked=True) for _ in range(2)]
    assert [answer.status_code for answer in started] == [201] * HOUSE_MATCHES_AT_ONCE

    for bot, ranked in (("Sleeper", False), ("Other", True), ("Fresh", False)):  # more bots do not get around it
        refused = challenge(alice, bot, ["house:random"], ranked=ranked)
        assert refused.status_code == 429, refused.json()
        assert (refused.json()["code"], refused.json()["message"]) == ("too_many", FULL)
    assert challenge(alice, "Sleeper", ["Other"]).status_code == 201, "a match without a house bot is not counted"
    assert challenge(bob, "Bystander", ["house:random"]).status_code == 201, "another owner plays on"

    lifecycle.abort_match(started[0].json()["id"])
    assert challenge(alice, "Fresh", ["house:random"]).status_code == 201, "an ended match frees its place"
    assert challenge(alice, "Fresh", ["house:random"]).status_code == 429
