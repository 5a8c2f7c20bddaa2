"""The OpenAPI schema at /api/schema/ and the Swagger UI at /api/docs/ (scripts served by the site)."""

import json
import re

import pytest
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db
ACCOUNT_PATHS = [
    "/api/accounts/register/", "/api/accounts/token/", "/api/accounts/me/", "/api/accounts/{username}/",
]


def test_the_schema_is_valid_openapi_and_lists_the_accounts_endpoints(client):
    response = client.get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = json.loads(response.content)
    validate_schema(schema)  # raises on an invalid OpenAPI 3 document
    assert schema["info"]["title"] == "Dubium API"
    for path in ACCOUNT_PATHS:
        assert path in schema["paths"], path
    assert set(schema["paths"]["/api/accounts/register/"]) == {"post"}
    assert set(schema["paths"]["/api/accounts/me/"]) == {"get"}
    registered = schema["components"]["schemas"]["Registered"]["properties"]
    assert {"username", "email", "token", "can_organize"} <= set(registered)
    assert "password" not in registered


def test_the_schema_is_served_as_yaml_by_default(client):
    response = client.get("/api/schema/")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.oai.openapi")
    assert b"/api/accounts/register/:" in response.content


def test_the_docs_page_loads_only_local_scripts_and_styles(client):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "swagger-ui" in html.lower()
    urls = re.findall(r'<(?:script|link)\b[^>]*\b(?:src|href)="([^"]+)"', html)
    assert urls, "the page loads Swagger UI's files"
    for url in urls:  # the page's own setup script is served apart, so the CSP needs no inline script
        assert url.startswith(("/static/", "/api/docs/?script")), url
    assert "//" not in "".join(re.findall(r'(?:src|href)="([^"]+)"', html)).replace("/static/", "")
    assert "<script>" not in html
    assert "/api/schema/" in client.get("/api/docs/", {"script": ""}).content.decode()
