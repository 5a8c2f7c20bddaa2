"""Hostile requests: whatever body reaches the action endpoint, the answer is a 4xx with a
message, or the move is played; never a server error."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.matches import lifecycle
from tests.engines.test_hostile_actions import JSON_VALUES

pytestmark = pytest.mark.django_db

BODIES = st.one_of(
    JSON_VALUES.map(json.dumps),
    st.fixed_dictionaries({"action": JSON_VALUES, "seq": JSON_VALUES}).map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40).map(lambda raw: raw.decode("latin-1")),
)


@pytest.fixture
def doubt_it_match(alice, bob, carol):
    match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=4)
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    return lifecycle.start_match(match.pk, alice)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=BODIES, who=st.sampled_from(["alice", "bob", "carol"]))
def test_any_body_gets_an_answer_and_never_a_server_error(client, doubt_it_match, body, who):
    client.force_login(doubt_it_match.seats.get(user__username=who).user)
    response = client.post(f"/api/matches/{doubt_it_match.pk}/actions/", body, content_type="application/json")
    assert response.status_code in (200, 201, 400, 403, 409, 415), response.content[:200]
    if response.status_code >= 400:
        assert response.json(), "an error says what was wrong"
