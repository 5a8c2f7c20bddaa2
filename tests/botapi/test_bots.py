"""Bot authors: create a bot, upload code, challenge house bots; the code plays through the match service."""

import re

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from botapi.models import BotCode
from games.matches import wakeups
from games.matches.models import Match, MatchAction
from ratings.models import RatingChange

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are rated after commit

FIRST_LEGAL = "def choose(view, legal):\n    return legal[0]\n"
DUDO_BOT = (
    "def choose(view, legal):\n"
    "    bids = [a for a in legal if a['type'] == 'bid']\n"
    "    bid = view['bid']\n"
    "    total = sum(view['dice_counts'])\n"
    "    if bid and bid['quantity'] > total // 3 + 1:\n"
    "        return {'type': 'doubt'}\n"
    "    return bids[0] if bids else legal[0]\n"
)


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def owned_bot(alice):
    created = as_user(alice).post("/api/bots/", {"name": "Dicey"}, format="json")
    assert created.status_code == 201
    return created.json()


def test_an_author_creates_a_bot_with_its_own_token_and_uploads_code(alice, owned_bot):
    assert owned_bot["owner"] == "alice" and owned_bot["code_version"] is None and len(owned_bot["token"]) == 40
    bot = get_user_model().objects.get(username="Dicey")
    assert bot.is_bot and bot.bot_owner == alice
    uploaded = as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": DUDO_BOT}, format="json")
    assert uploaded.status_code == 201 and uploaded.json()["code_version"] == 1
    again = as_user(alice).post("/api/bots/dicey/code/", {"game": "dudo", "source": FIRST_LEGAL}, format="json")
    assert [v["version"] for v in again.json()["versions"]] == [2, 1]
    public = APIClient().get("/api/bots/Dicey/").json()
    assert public["code_version"] == 2 and "versions" not in public


@pytest.mark.parametrize(
    "source, message",
    [
        ("def choose(view, legal):\n    return {'type': 'bid', 'quantity': 99, 'face': 9}\n", "illegal"),
        ("def choose(view, legal)\n    return legal[0]\n", "line 1"),
        ("def choose(view, legal):\n    while True:\n        pass\n", "longer than"),
    ],
)
def test_code_that_fails_its_first_move_is_refused_with_the_reason(alice, owned_bot, source, message, settings):
    settings.BOT_MOVE_SECONDS = 1
    refused = as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": source}, format="json")
    assert refused.status_code == 400 and message in refused.json()["message"]
    assert not BotCode.objects.exists()


def test_only_the_owner_uploads_and_bots_and_names_are_checked(alice, bob, owned_bot):
    assert as_user(bob).post("/api/bots/Dicey/code/", {"game": "dudo", "source": FIRST_LEGAL}).status_code == 404
    assert as_user(alice).post("/api/bots/", {"name": "alice"}).json()["message"] == "That username is taken."
    assert as_user(alice).post("/api/bots/", {"name": "no spaces"}).status_code == 400
    dicey = get_user_model().objects.get(username="Dicey")
    assert as_user(dicey).post("/api/bots/", {"name": "Child"}).json()["message"] == "Bots cannot own bots."


@pytest.mark.parametrize("name", ["Ad-min", "adm_in", "A_d-m1n", "Sup-port", "Random-Bot", "Rand0m_Bot2", "Hard-Bot1"])
def test_a_bot_named_like_a_reserved_word_or_a_house_bot_is_refused(alice, name):
    """A tester named bots "Ad-min" and "adm_in" beside the reserved "admin" (issue 32)."""
    answer = as_user(alice).post("/api/bots/", {"name": name}, format="json")
    assert (answer.status_code, answer.json()["message"]) == (400, "That username is reserved.")


@pytest.mark.parametrize("name", ["Admiral", "ad-minnow", "Random-Walker", "Botanist"])
def test_a_bot_name_that_only_starts_like_a_reserved_one_is_free(alice, name):
    assert as_user(alice).post("/api/bots/", {"name": name}, format="json").status_code == 201


def test_an_uploaded_bot_plays_a_ranked_match_against_a_house_bot_to_the_end(alice, owned_bot):
    as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": DUDO_BOT}, format="json")
    started = as_user(alice).post(
        "/api/bots/Dicey/matches/", {"game": "dudo", "opponents": ["house:heuristic"]}, format="json"
    )
    assert started.status_code == 201, started.json()
    match = wakeups.play_out(started.json()["id"])
    assert match.status == Match.Status.FINISHED
    dicey = match.seats.get(user__username="Dicey")
    played = MatchAction.objects.filter(match=match, seat=dicey.number)
    assert played.exists() and set(played.values_list("source", flat=True)) == {"sandbox"}
    assert dicey.code_version == 1 and BotCode.objects.get().moves == played.count()
    assert RatingChange.objects.filter(match=match).count() == 2


def test_a_crashing_bot_loses_its_moves_to_the_default_and_its_author_sees_why(client, alice, owned_bot):
    as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": FIRST_LEGAL}, format="json")
    code = BotCode.objects.get()
    code.source = (
        "def choose(view, legal):\n    print('my bid', view['bid'])\n"
        "    return legal[0] if view['bid'] is None else 1 / 0\n"
    )
    code.save()
    started = as_user(alice).post(
        "/api/bots/Dicey/matches/", {"game": "dudo", "opponents": ["house:random"]}, format="json"
    )
    match = wakeups.play_out(started.json()["id"])
    assert match.status == Match.Status.FINISHED
    seat = match.seats.get(user__username="Dicey").number
    assert set(MatchAction.objects.filter(match=match, seat=seat).values_list("source", flat=True)) <= {
        "sandbox",
        "timeout",
    }
    code.refresh_from_db()
    assert code.failures > 0 and "ZeroDivisionError" in code.last_error
    # Which move, to replay it: one the default was played for (once suspended after its strikes,
    # the bot is not asked again, so later defaults add no error).
    defaults = set(MatchAction.objects.filter(match=match, seat=seat, source="timeout").values_list("seq", flat=True))
    named = re.match(rf"Match {match.pk}, step (\d+): ", code.last_error)
    assert named and int(named.group(1)) + 1 in defaults, code.last_error  # the step it was asked at
    mine = as_user(alice).get("/api/bots/").json()[0]["versions"][0]
    assert mine["failures"] == code.failures
    # Every failure is kept with where it broke in the bot's code and what it printed, newest first.
    reports = mine["recent_failures"]
    assert len(reports) == min(10, code.failures) and reports[0]["message"] in code.last_error
    assert reports[0]["replay"] == f"/match/{match.pk}/replay/?step={reports[0]['step']}"
    assert 'File "bot.py", line 3, in choose' in reports[0]["traceback"]
    assert "ZeroDivisionError: division by zero" in reports[0]["traceback"]
    assert "(bot.py line 3)" in reports[0]["message"] and "my bid" in reports[0]["printed"]
    assert "harness" not in reports[0]["traceback"]
    client.force_login(alice)
    page = client.get("/bots/").content.decode()
    assert page.count("File &quot;bot.py&quot;, line 3") == len(reports) and reports[0]["replay"] in page


def test_a_driven_bot_starts_its_own_rated_match_and_a_challenge_needs_real_opponents(alice, owned_bot):
    driven = as_user(alice).post("/api/bots/Dicey/matches/", {"game": "dudo", "opponents": ["house:heuristic"]})
    assert driven.status_code == 201 and driven.json()["ranked"]
    seat = Match.objects.get(pk=driven.json()["id"]).seats.get(user__username="Dicey")
    assert seat.code_version is None  # the bot plays it from outside
    as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": DUDO_BOT}, format="json")
    for opponents in (["house:nobody"], ["bob"], ["house:random"] * 10):
        refused = as_user(alice).post(
            "/api/bots/Dicey/matches/", {"game": "dudo", "opponents": opponents}, format="json"
        )
        assert refused.status_code == 400, opponents


def test_the_bots_page_lists_house_and_uploaded_bots_with_owners_and_the_guide(client, alice, owned_bot):
    as_user(alice).post("/api/bots/Dicey/code/", {"game": "dudo", "source": DUDO_BOT}, format="json")
    as_user(alice).post("/api/bots/", {"name": "Remote"}, format="json")
    wakeups.play_out(
        as_user(alice)
        .post("/api/bots/Dicey/matches/", {"game": "dudo", "opponents": ["house:heuristic"]}, format="json")
        .json()["id"]
    )
    page = client.get("/bots/").content.decode()
    assert "Dicey" in page and "HeuristicBot" in page and "v1" in page and "driven over the API" in page
    assert 'href="/accounts/u/alice/"' in page and "prov." not in page and "provisional: not yet established" in page
    assert 'id="bring-your-own"' in page and "def choose(view, legal)" in page


def test_an_author_does_it_all_on_the_bots_page(client, alice):
    client.force_login(alice)
    created = client.post("/bots/new/", {"name": "Pagey"}, follow=True).content.decode()
    assert "Pagey is yours. Its API token, shown only now:" in created and 'id="bot-Pagey"' in created
    refused = client.post(
        "/bots/Pagey/code/", {"game": "dudo", "source": "def choose(v, l):\n    return 5\n"}, follow=True
    )
    assert "opening position" in refused.content.decode()
    client.post("/bots/Pagey/code/", {"game": "dudo", "source": DUDO_BOT})
    started = client.post("/bots/Pagey/challenge/", {"opponent": "dudo:heuristic"})
    match = Match.objects.get()
    assert started.status_code == 302 and started["Location"] == f"/match/{match.pk}/"
    assert match.status == Match.Status.RUNNING and match.ranked
    bad = client.post("/bots/Pagey/challenge/", {"opponent": "chess:stockfish"}, follow=True)
    assert bad.status_code == 200 and Match.objects.count() == 1


def test_the_bots_page_fills_an_i_doubt_it_table_with_as_many_house_bots_as_it_needs(client, alice):
    """Choosing "I Doubt It: Beginner" answered "I Doubt It is played by 3 to 11."."""
    client.force_login(alice)
    client.post("/bots/new/", {"name": "Cheater"})
    client.post("/bots/Cheater/code/", {"game": "doubt-it", "source": FIRST_LEGAL})
    page = client.get("/bots/").content.decode()
    offered = "I Doubt It: Beginner: plays at random (RandomBot and RandomBot2)"
    assert f'<option value="doubt-it:random">{offered}</option>' in page
    started = client.post("/bots/Cheater/challenge/", {"opponent": "doubt-it:random"})
    match = Match.objects.get()
    assert started["Location"] == f"/match/{match.pk}/" and match.players == 3
    assert sorted(seat.user.username for seat in match.seats.all()) == ["Cheater", "RandomBot", "RandomBot2"]


def test_an_owner_gives_a_bot_a_new_token_and_the_old_one_stops_working(client, alice, bob, owned_bot):
    """A lost or leaked bot token could never be replaced (the bot has no password to log in with)."""
    old = owned_bot["token"]
    fresh = as_user(alice).post("/api/bots/Dicey/token/")
    assert fresh.status_code == 201 and fresh.json()["token"] not in (old, None)
    robot = APIClient()
    robot.credentials(HTTP_AUTHORIZATION=f"Token {old}")
    assert robot.get("/api/accounts/me/").status_code == 401
    robot.credentials(HTTP_AUTHORIZATION=f"Token {fresh.json()['token']}")
    assert robot.get("/api/accounts/me/").json()["username"] == "Dicey"
    assert as_user(bob).post("/api/bots/Dicey/token/").status_code == 404
    assert as_user(get_user_model().objects.get(username="Dicey")).post("/api/bots/Dicey/token/").status_code == 404
    client.force_login(alice)
    replaced = client.post("/bots/Dicey/token/")
    assert "messages" not in replaced.cookies, "a signed cookie is readable: the token waits in the session"
    shown = client.get(replaced["Location"])
    key = Token.objects.get(user__username="Dicey").key
    assert f"Dicey&#x27;s new API token, shown only now: {key} (the old one no longer works)" in shown.content.decode()
    assert "no-store" in shown["Cache-Control"]
