"""An HTTP request's database connection is closed at its end even where connections are kept for
reuse (DB_CONN_MAX_AGE): under ASGI each request has a thread of its own, so a kept connection was
never reused, only left open, and a flood of 20 requests at a time held 87 of PostgreSQL's 100."""

import pytest
from django.db import connection


@pytest.mark.django_db(transaction=True)
def test_an_http_request_leaves_no_connection_open_when_connections_are_kept(client, monkeypatch):
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    assert client.get("/api/leaderboards/dudo/").status_code == 200  # it reads the database
    assert connection.connection is None


@pytest.mark.django_db
def test_a_request_inside_a_transaction_keeps_its_connection(client, monkeypatch):
    """A test's (or an outer) transaction is not cut by the end of a request made inside it."""
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    client.get("/api/leaderboards/dudo/")
    assert connection.connection is not None and connection.in_atomic_block
