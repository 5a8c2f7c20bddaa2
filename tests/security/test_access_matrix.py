"""Who may do what: every API endpoint and admin page, tried by each kind of caller.

Callers: anonymous, the player who owns the objects, another player, the organizer of the
tournament, another organizer, a bot (by its API token) and staff. Each row says what each
of them gets; a change of who may do what has to change this table.
"""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from games.matches import lifecycle
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db
CALLERS = ("anonymous", "player", "other", "organizer", "other_organizer", "bot", "staff")


@pytest.fixture
def world(make_user):
    player = make_user("pat")
    other = make_user("olivia")
    organizer = make_user("orson", role="organizer")
    other_organizer = make_user("oona", role="organizer")
    staff = make_user("stella", role="staff", is_staff=True, is_superuser=True)
    owner_client = APIClient()
    owner_client.force_authenticate(player)
    created = owner_client.post("/api/bots/", {"name": "Patbot"}, format="json").json()
    bot_token = created["token"]
    table = lifecycle.create_match(game="dudo", players=3, host=player, seed=1)
    tournament = Tournament.objects.create(
        name="Cup", game="dudo", format="swiss", table_size=2, rounds=1, organizer=organizer,
        starts_at=timezone.now() + timedelta(days=1),
    )  # fmt: skip
    users = {"player": player, "other": other, "organizer": organizer, "other_organizer": other_organizer,
             "staff": staff}  # fmt: skip
    return {"users": users, "bot_token": bot_token, "table": table.pk, "tournament": tournament.pk}


def client_for(world, caller: str, session: bool = False) -> APIClient:
    client = APIClient()
    if caller == "bot":
        client.credentials(HTTP_AUTHORIZATION=f"Token {world['bot_token']}")
    elif caller != "anonymous":
        user = world["users"][caller]
        if session:
            client.force_login(user)
        else:
            client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=user)[0].key}")
    return client


def fill(body, index: int):
    return (
        {key: value.format(caller=index) if isinstance(value, str) else value for key, value in body.items()}
        if body
        else body
    )


# (method, path, body, answers in CALLERS order)
API = [
    ("GET", "/api/accounts/me/", None, (403, 200, 200, 200, 200, 200, 200)),
    ("GET", "/api/accounts/pat/", None, (200,) * 7),
    ("GET", "/api/bots/", None, (403, 200, 200, 200, 200, 200, 200)),  # one's own bots
    ("POST", "/api/bots/", {"name": "Bot{caller}"}, (403, 201, 201, 201, 201, 400, 201)),  # bots own no bots
    ("GET", "/api/bots/Patbot/", None, (200,) * 7),
    ("POST", "/api/bots/Patbot/code/", {"game": "dudo", "source": "x"}, (403, 400, 404, 404, 404, 404, 404)),
    ("POST", "/api/bots/Patbot/matches/", {"game": "dudo", "opponents": ["house:random"]},
     (403, 201, 404, 404, 404, 201, 404)),  # its owner, or the bot itself: it plays it from outside
    ("GET", "/api/matches/{table}/", None, (200,) * 7),
    ("POST", "/api/matches/{table}/start/", None, (403, 400, 403, 403, 403, 403, 403)),  # host: not full yet
    ("POST", "/api/matches/{table}/bots/", {"bot": "random"}, (403, 201, 403, 403, 403, 403, 403)),
    ("POST", "/api/matches/{table}/leave/", None, (403, 200, 403, 403, 403, 403, 403)),
    ("POST", "/api/matches/{table}/actions/", {"action": {"type": "doubt"}, "seq": 0},
     (403, 400, 403, 403, 403, 403, 403)),  # the seated host: not running yet
    ("POST", "/api/queue/", {"game": "dudo", "players": 2}, (403, 201, 201, 201, 201, 201, 201)),
    ("GET", "/api/tournaments/{tournament}/", None, (200,) * 7),
    # the bot's owner entered first: an owner and their bots never enter one tournament
    ("POST", "/api/tournaments/{tournament}/entry/", None, (403, 200, 200, 200, 200, 400, 200)),
    ("POST", "/api/tournaments/{tournament}/choice/", {"mini_game": "the-well"}, (403,) * 7),  # Dobble series only
]  # fmt: skip


@pytest.mark.parametrize("method, path, body, answers", API, ids=[f"{m} {p}" for m, p, _, _ in API])
def test_each_caller_gets_what_the_table_says_from_the_api(world, method, path, body, answers):
    path = path.format(table=world["table"], tournament=world["tournament"])
    got = tuple(
        getattr(client_for(world, caller), method.lower())(path, fill(body, index), format="json").status_code
        for index, caller in enumerate(CALLERS)
    )
    assert got == answers, f"{got}"


ADMIN = [
    ("/admin/", (302, 302, 302, 200, 200, 302, 200)),
    ("/admin/accounts/user/", (302, 302, 302, 403, 403, 302, 200)),
    ("/admin/tournaments/tournament/", (302, 302, 302, 200, 200, 302, 200)),
    ("/admin/tournaments/tournament/{tournament}/change/", (302, 302, 302, 200, 200, 302, 200)),  # others: read only
    ("/admin/ratings/rating/", (302, 302, 302, 403, 403, 302, 200)),
    ("/admin/authtoken/tokenproxy/", (302, 302, 302, 403, 403, 302, 200)),
    ("/admin/axes/accessattempt/", (302, 302, 302, 403, 403, 302, 200)),
]


@pytest.mark.parametrize("path, answers", ADMIN, ids=[p for p, _ in ADMIN])
def test_each_caller_gets_what_the_table_says_from_the_admin(world, path, answers):
    path = path.format(tournament=world["tournament"])
    got = tuple(client_for(world, caller, session=True).get(path).status_code for caller in CALLERS)
    assert got == answers, f"{got}"


def test_only_its_organizer_and_staff_may_change_a_tournament_in_the_admin(world):
    path = f"/admin/tournaments/tournament/{world['tournament']}/change/"
    refused = client_for(world, "other_organizer", session=True).post(path, {"name": "Taken over"})
    assert refused.status_code == 403
    assert Tournament.objects.get(pk=world["tournament"]).name == "Cup"
