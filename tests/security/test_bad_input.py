"""Bad input from outside gets a clear 4xx, never a server error."""

import pytest
from rest_framework.test import APIClient

from games.matches import lifecycle
from games.matches.models import Match

pytestmark = pytest.mark.django_db

FIRST_LEGAL = "def choose(view, legal):\n    return legal[0]\n"


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.parametrize("clock", ["none", "per-move", "per-game"])
@pytest.mark.parametrize("initial", [1e20, 10**20, -1])
def test_an_absurd_clock_is_refused(alice, clock, initial):
    answer = as_user(alice).post(
        "/api/matches/", {"game": "dudo", "players": 2, "clock": clock, "clock_initial_ms": initial}, format="json"
    )
    assert answer.status_code == 400
    assert not Match.objects.exists()


@pytest.fixture
def bot_with_code(alice):
    client = as_user(alice)
    assert client.post("/api/bots/", {"name": "Dicey"}, format="json").status_code == 201
    assert (
        client.post("/api/bots/Dicey/code/", {"game": "dudo", "source": FIRST_LEGAL}, format="json").status_code == 201
    )
    return client


def test_a_bot_challenging_itself_is_refused(bot_with_code):
    for opponents in (["Dicey"], ["dicey"], ["house:random", "DICEY"]):
        answer = bot_with_code.post("/api/bots/Dicey/matches/", {"game": "dudo", "opponents": opponents}, format="json")
        assert answer.status_code == 400 and "already has a seat" in answer.json()["message"], opponents


@pytest.mark.parametrize("source", ["x = " + "+".join(["1"] * 30000) + "\n", "x = " + "-" * 60000 + "1\n"])
def test_an_upload_too_deep_to_compile_is_refused(bot_with_code, source):
    answer = bot_with_code.post("/api/bots/Dicey/code/", {"game": "dudo", "source": source}, format="json")
    assert answer.status_code == 400 and "nests too deeply" in answer.json()["message"]


def test_a_host_who_leaves_an_open_table_hands_on_host_powers(alice, bob, carol):
    match = lifecycle.create_match(game="dudo", players=3, host=alice, seed=1)
    lifecycle.join_match(match.pk, bob)
    lifecycle.leave_match(match.pk, alice)
    assert as_user(alice).post(f"/api/matches/{match.pk}/bots/", {"bot": "random"}, format="json").status_code == 403
    assert as_user(bob).post(f"/api/matches/{match.pk}/bots/", {"bot": "random"}, format="json").status_code == 201
    lifecycle.join_match(match.pk, carol)
    assert as_user(alice).post(f"/api/matches/{match.pk}/start/").status_code == 403
    assert as_user(bob).post(f"/api/matches/{match.pk}/start/").status_code == 200


BEYOND_64_BITS = 2**64 + 5


@pytest.mark.parametrize(
    "path",
    [
        f"/api/matches/{BEYOND_64_BITS}/",
        f"/api/matches/{BEYOND_64_BITS}/replay/",
        f"/api/matches/1/replay/{BEYOND_64_BITS}/",
        f"/api/tournaments/{BEYOND_64_BITS}/",
        f"/match/{BEYOND_64_BITS}/",
        f"/match/{BEYOND_64_BITS}/replay/",
        f"/tournaments/{BEYOND_64_BITS}/",
        f"/api/matches/{2**63}/",
    ],
)
def test_an_id_too_large_for_any_row_is_not_found(client, path):
    assert client.get(path).status_code == 404


@pytest.mark.parametrize(
    "path",
    [
        f"/api/matches/{BEYOND_64_BITS}/join/",
        f"/api/matches/{BEYOND_64_BITS}/actions/",
        f"/match/{BEYOND_64_BITS}/rematch/",
        f"/api/bots/challenges/{BEYOND_64_BITS}/accept/",
        f"/api/tournaments/{BEYOND_64_BITS}/entry/",
    ],
)
def test_a_write_to_an_id_too_large_for_any_row_is_not_found(alice, path):
    assert as_user(alice).post(path, {"action": {}, "seq": 0}, format="json").status_code == 404


def test_the_largest_id_is_still_looked_up(client):
    assert client.get(f"/api/matches/{2**63 - 1}/").json()["message"] == "No such object."
