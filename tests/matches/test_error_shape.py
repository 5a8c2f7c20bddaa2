"""Every API error has one shape, {type, code, message, fields}, and the schema documents it."""

import pytest
from rest_framework.test import APIClient

from botapi import services
from games.matches import lifecycle

pytestmark = pytest.mark.django_db

SHAPE = {"type", "code", "message", "fields"}


def test_refusals_of_every_kind_answer_the_same_shape(alice):
    visitor, player = APIClient(), APIClient()
    player.force_authenticate(alice)
    answers = {
        "fields": player.post("/api/matches/", {"game": "nosuch"}, format="json"),
        "service": player.post("/api/matches/999/join/"),
        "credentials": visitor.get("/api/bots/"),
        "path": visitor.get("/api/no/such/path/"),
        "object": visitor.get("/api/matches/999/"),
        "lobby": visitor.get("/api/lobby/nosuch/"),
        "method": visitor.put("/api/games/"),
    }
    for kind, answer in answers.items():
        body = answer.json()
        assert answer.status_code >= 400 and set(body) == SHAPE and body["type"] == "error", (kind, body)
        assert isinstance(body["message"], str) and body["message"], kind
    fields = answers["fields"].json()
    assert fields["code"] == "invalid" and set(fields["fields"]) == {"game", "players"}
    assert "players: This field is required." in fields["message"]
    assert answers["credentials"].json()["code"] == "not_authenticated"


def test_the_schema_documents_the_error_shape(client):
    schema = client.get("/api/schema/?format=json").json()
    refused = schema["paths"]["/api/matches/"]["post"]["responses"]["400"]["content"]["application/json"]["schema"]
    assert set(refused["required"]) == SHAPE


def test_a_refusal_about_one_field_of_the_request_names_that_field(alice, bob):
    """A bot author's tester met `fields: {}` for a bad webhook URL and a syntax error in an upload:
    every 400 about a field of the request now names it, as the request's own checks do."""
    services.create_bot(alice, "Ace")
    player = APIClient()
    player.force_authenticate(alice)
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    mover = APIClient()
    mover.force_authenticate([alice, bob][match.engine.to_act(match.load_state())[0]])
    answers = {
        "endpoint": player.post("/api/bots/Ace/webhook/", {"endpoint": "http://example.com/bot"}, format="json"),
        "source": player.post("/api/bots/Ace/code/", {"game": "dudo", "source": "def choose(:\n"}, format="json"),
        "opponents": player.post("/api/bots/Ace/matches/", {"game": "dudo", "opponents": ["Nobody"]}, format="json"),
        "status": player.get("/api/matches/?status=lost"),
        "clock_initial_ms": player.post(
            "/api/matches/", {"game": "dudo", "players": 2, "clock": "turn", "clock_initial_ms": 10}, format="json"
        ),
        "options": player.post("/api/matches/", {"game": "dudo", "players": 2, "options": {"x": 1}}, format="json"),
        "action": mover.post(f"/api/matches/{match.pk}/actions/", {"action": {"type": "fly"}, "seq": 0}, format="json"),
    }
    for field, answer in answers.items():
        body = answer.json()
        assert (answer.status_code, body["fields"]) == (400, {field: [body["message"]]}), (field, body)


def test_every_operation_documents_its_429_and_503_with_retry_after(client):
    """Every operation may be refused by the rates and in-flight limits (429) or shed by a web
    process that runs late (503, dubium/inflight.py); both come with Retry-After."""
    schema = client.get("/api/schema/?format=json").json()
    operations = [operation for methods in schema["paths"].values() for operation in methods.values()]
    for operation in operations:
        for status in ("429", "503"):
            assert "Retry-After" in operation["responses"][status]["headers"], (operation["operationId"], status)
    assert "being answered at once" in operations[0]["responses"]["429"]["description"]
