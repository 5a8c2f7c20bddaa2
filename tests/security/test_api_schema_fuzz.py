"""Schemathesis over the OpenAPI schema, as a signed-in player and anonymously: every answer is
documented and no input gets a 500. Bounded examples; it runs once in CI, in the embedded pass."""


import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.once,
]
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


# The WSGI face of the same Django project: the HTTP API without the websocket router or its ticker.
schema = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application())


@pytest.fixture
def player_token(make_user):
    return Token.objects.create(user=make_user("fuzzer")).key


FUZZ = settings(max_examples=5, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)


@schema.parametrize()
@FUZZ
def test_every_operation_answers_an_anonymous_caller_as_documented(case):
    case.call_and_validate(checks=CHECKS)


@schema.parametrize()
@FUZZ
def test_every_operation_answers_a_player_as_documented(case, player_token):
    case.call_and_validate(headers={"Authorization": f"Token {player_token}"}, checks=CHECKS)
