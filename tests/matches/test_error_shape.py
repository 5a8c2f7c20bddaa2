"""Every API error has one shape, {type, code, message, fields}, and the schema documents it."""

import pytest
from rest_framework.test import APIClient

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
