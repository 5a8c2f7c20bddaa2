"""Webhook bots: a local bot server (the local-testing setting on) plays through the match service;
with the setting off, the platform refuses to reach private, loopback and metadata addresses."""

import socket
import textwrap
import time
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from botapi import webhooks
from botapi.models import BotCode, BotProfile
from botapi.services import VERIFY_SECONDS
from games.matches import wakeups
from games.matches.models import Match, MatchAction
from tests.botapi.webhook_server import BotServer

pytestmark = pytest.mark.django_db(transaction=True)


def as_user(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.fixture
def server():
    running = BotServer()
    yield running
    running.close()


@pytest.fixture
def local_testing(settings):
    settings.BOT_WEBHOOK_ALLOW_PRIVATE = True
    settings.BOT_WEBHOOK_MOVE_SECONDS = {"default": 0.5}


@pytest.fixture
def hooked(alice, server, local_testing):
    """Alice's bot Hooky, playing through the local server."""
    assert as_user(alice).post("/api/bots/", {"name": "Hooky"}, format="json").status_code == 201
    named = as_user(alice).post("/api/bots/Hooky/webhook/", {"endpoint": server.url}, format="json")
    assert named.status_code == 201, named.json()
    return named.json()


def play_against_house(alice) -> Match:
    started = as_user(alice).post(
        "/api/bots/Hooky/matches/", {"game": "dudo", "opponents": ["house:random"]}, format="json"
    )
    assert started.status_code == 201, started.json()
    return wakeups.play_out(started.json()["id"])


def test_the_owner_proves_the_endpoint_with_the_echoed_token_and_the_bot_plays_to_the_end(alice, server, hooked):
    assert hooked["plays_by"] == "webhook" and hooked["versions"][0]["endpoint"] == server.url
    verify = server.received[0]
    assert verify["type"] == "verify" and len(verify["challenge"]) >= 32
    match = play_against_house(alice)
    assert match.status == Match.Status.FINISHED
    seat = match.seats.get(user__username="Hooky").number
    played = MatchAction.objects.filter(match=match, seat=seat)
    assert set(played.values_list("source", flat=True)) == {MatchAction.Source.API}
    moves = [body for body in server.received if body["type"] == "move"]
    assert len(moves) == played.count() and BotCode.objects.get().moves == played.count()
    assert moves[0]["seat"] == seat and moves[0]["game"] == "dudo" and moves[0]["legal"]
    opening = match.engine.view(match.engine.new_game(2, match.seed, match.options), seat)
    assert moves[0]["view"]["dice"] == opening["dice"], "the seat's own secret dice, as a player sees them"
    assert server.types()[1] == "start" and server.types()[-1] == "end"
    assert server.received[-1]["result"] == match.result


def test_an_endpoint_that_does_not_echo_the_token_is_refused(alice, server, local_testing):
    as_user(alice).post("/api/bots/", {"name": "Hooky"}, format="json")
    server.mode = "wrong_token"
    refused = as_user(alice).post("/api/bots/Hooky/webhook/", {"endpoint": server.url}, format="json")
    assert refused.status_code == 400 and "challenge" in refused.json()["message"]
    assert not BotCode.objects.exists()


def test_a_slow_answer_plays_the_default_move_and_the_owner_sees_why(alice, server, hooked):
    server.mode = "slow"
    match = play_against_house(alice)
    seat = match.seats.get(user__username="Hooky").number
    assert MatchAction.objects.filter(match=match, seat=seat, source=MatchAction.Source.TIMEOUT).exists()
    code = BotCode.objects.get()
    assert code.failures >= 1 and "longer than 0.5 s" in code.last_error


def test_repeated_failures_suspend_the_bot_and_its_page_says_so(alice, client, server, hooked, settings):
    settings.BOT_STRIKES_TO_SUSPEND = 3
    server.mode = "fail"
    match = play_against_house(alice)
    assert match.status == Match.Status.FINISHED
    profile = BotProfile.objects.get()
    assert profile.suspended_at is not None and "3 failed moves in a row" in profile.suspended_because
    asked = server.types().count("move")
    assert asked == 3, "a suspended bot's endpoint is not called again"
    assert "HTTP 500" in BotCode.objects.get().last_error
    client.force_login(alice)
    page = client.get("/bots/").content.decode()
    assert 'id="suspended-Hooky"' in page and "HTTP 500" in page
    refused = as_user(alice).post(
        "/api/bots/Hooky/matches/", {"game": "dudo", "opponents": ["house:random"]}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "suspended", "not 'upload your code first'"
    assert refused.json()["message"].startswith("Hooky is suspended: ") and "HTTP 500" in refused.json()["message"]
    server.mode = "play"
    as_user(alice).post("/api/bots/Hooky/webhook/", {"endpoint": server.url}, format="json")
    assert BotProfile.objects.get().suspended_at is None, "a new version lifts the suspension"


def test_illegal_answers_are_strikes_too(alice, server, hooked, settings):
    settings.BOT_STRIKES_TO_SUSPEND = 3
    server.mode = "illegal"
    play_against_house(alice)
    profile = BotProfile.objects.get()
    assert profile.suspended_at is not None and "Illegal answer {\"type\"" in profile.suspended_because, "as JSON"
    assert server.types().count("move") == 3


def test_a_redirect_is_refused_not_followed(alice, server, hooked):
    server.mode = "redirect"
    play_against_house(alice)
    assert "redirect" in BotCode.objects.get().last_error
    assert all(body.get("type") for body in server.received), "nothing reached the redirect's target"


@pytest.mark.parametrize(
    "endpoint, message",
    [
        ("http://example.com/bot", "must be an https:// URL"),
        ("https://127.0.0.1/bot", "host '127.0.0.1' does not resolve to a public address"),
        ("https://localhost/bot", "host 'localhost' does not resolve to a public address"),
        ("https://169.254.169.254/latest/meta-data/", "does not resolve to a public address"),
        ("https://10.1.2.3/bot", "does not resolve to a public address"),
        ("https://192.168.0.1/bot", "does not resolve to a public address"),
        ("https://[::1]/bot", "does not resolve to a public address"),
        ("https://[::ffff:127.0.0.1]/bot", "does not resolve to a public address"),
        ("https://0.0.0.0/bot", "does not resolve to a public address"),
        ("https://[2002:a9fe:a9fe::]/bot", "does not resolve to a public address"),  # 6to4 of 169.254.169.254
        ("https://[2002:7f00:1::]/bot", "does not resolve to a public address"),  # 6to4 of 127.0.0.1
        ("https://[fec0::1]/bot", "does not resolve to a public address"),  # site-local
        ("https://no-such-host.invalid/bot", "host 'no-such-host.invalid' does not resolve to a public address"),
        ("https://user:pw@bots.example/", "no user name"),
    ],
)
def test_without_the_local_testing_setting_internal_endpoints_are_refused(alice, endpoint, message):
    as_user(alice).post("/api/bots/", {"name": "Hooky"}, format="json")
    refused = as_user(alice).post("/api/bots/Hooky/webhook/", {"endpoint": endpoint}, format="json")
    assert refused.status_code == 400 and message in refused.json()["message"], refused.json()
    assert "127.0.0.1" not in refused.json()["message"] or "127.0.0.1" in endpoint


@pytest.mark.parametrize("endpoint", ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/bot"])
def test_the_local_testing_setting_still_refuses_link_local_addresses(endpoint):
    """Private and loopback addresses are what a developer's own bot runs on; the cloud's
    metadata service at a link-local address never is."""
    with pytest.raises(webhooks.WebhookError, match="does not resolve to a public address"):
        webhooks.post(endpoint, {"type": "verify"}, 1.0, "secret", allow_private=True)


def test_a_name_that_resolves_to_any_internal_address_is_refused_after_dns(monkeypatch):
    def resolve(host, port, **kwargs):
        addresses = ["93.184.215.14", "10.0.0.7"]  # a public answer hiding a private one
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in addresses]

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    with pytest.raises(webhooks.WebhookError, match="does not resolve to a public address") as refused:
        webhooks.post("https://rebind.example/bot", {"type": "move"}, 1.0, "secret")
    assert "10.0.0.7" not in str(refused.value), "the message tells nobody how this server resolves names"


def test_the_connection_goes_to_the_address_that_was_checked(monkeypatch):
    answers = iter([["93.184.215.14"], ["127.0.0.1"]])  # a second lookup would say loopback
    dialled = []

    def resolve(host, port, **kwargs):
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, port)) for address in next(answers)]

    def connect(address, timeout=None, *args):
        dialled.append(address)
        raise ConnectionRefusedError

    monkeypatch.setattr(socket, "getaddrinfo", resolve)
    monkeypatch.setattr(socket, "create_connection", connect)
    with pytest.raises(webhooks.WebhookError, match="could not be reached"):
        webhooks.post("https://rebind.example/bot", {"type": "move"}, 1.0, "secret")
    assert dialled == [("93.184.215.14", 443)]


def signature_check():
    """The check docs/bots.md gives bot authors, exactly as written there."""
    docs = (Path(__file__).resolve().parents[2] / "docs" / "bots.md").read_text()
    source = next(block for block in docs.split("```python\n") if "def signed_by_dubium" in block).split("```")[0]
    namespace = {}
    exec(textwrap.dedent(source), namespace)
    return namespace["signed_by_dubium"]


def test_every_request_is_signed_with_the_bot_s_token_as_the_docs_show(alice, server, hooked):
    play_against_house(alice)
    signed_by_dubium, token = signature_check(), BotCode.objects.get().bot.auth_token.key
    assert len(server.signatures) == len(server.received) > 3
    for stamp, signature, body in server.signatures:
        headers = {"Dubium-Timestamp": stamp, "Dubium-Signature": signature}
        assert signed_by_dubium(headers, body, token)
        assert not signed_by_dubium(headers, body + b" ", token), "another body"
        assert not signed_by_dubium(headers, body, token + "x"), "another key"
    stale = webhooks.signature_headers(token, body, now=time.time() - 600)
    assert not signed_by_dubium(stale, body, token), "sent again ten minutes later"


def test_an_endpoint_that_trickles_its_headers_is_cut_off_at_the_deadline(alice, server, hooked, monkeypatch):
    server.mode = "slow_headers"
    with pytest.raises(webhooks.WebhookError, match="longer than 0.5 s"):
        webhooks.post(server.url, {"type": "move"}, 0.5, "secret", allow_private=True)
    assert VERIFY_SECONDS == 3
    monkeypatch.setattr("botapi.services.VERIFY_SECONDS", 0.5)
    server.mode = "slow_verify"
    refused = as_user(alice).post("/api/bots/Hooky/webhook/", {"endpoint": server.url + "?again"}, format="json")
    assert refused.status_code == 400 and "longer than 0.5 s" in refused.json()["message"]
