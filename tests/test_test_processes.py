"""A test run spread over pytest-xdist processes (`-n 2`) keeps them apart where tests empty or take
what they use: each process has a Redis database of its own (settings.py) and its own share of
TEST_PORTS (tests/ports.py)."""

import pytest

from dubium.settings import redis_url_of_test_process
from tests import ports

pytestmark = pytest.mark.once  # the same on any stack


@pytest.mark.parametrize(
    ("worker", "given", "used"),
    [
        ("", "redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/12"),
        ("gw0", "redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/12"),
        ("gw1", "redis://127.0.0.1:6379/12", "redis://127.0.0.1:6379/13"),
        ("gw1", "redis://127.0.0.1:6379", "redis://127.0.0.1:6379/1"),
        ("gw1", "", ""),
    ],
)
def test_each_test_process_takes_the_redis_database_after_the_one_before(monkeypatch, worker, given, used):
    monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
    assert redis_url_of_test_process(given) == used


def test_two_test_processes_take_every_second_port_of_test_ports(monkeypatch):
    monkeypatch.setattr(ports, "taken", set())
    monkeypatch.setattr(ports, "bindable", lambda port: True)
    monkeypatch.setenv("TEST_PORTS", "8490-8499")
    monkeypatch.setenv("PYTEST_XDIST_WORKER_COUNT", "2")
    dealt = {}
    for worker in ("gw0", "gw1"):
        monkeypatch.setenv("PYTEST_XDIST_WORKER", worker)
        dealt[worker] = [ports.free_port() for _ in range(5)]
    assert dealt == {"gw0": [8490, 8492, 8494, 8496, 8498], "gw1": [8491, 8493, 8495, 8497, 8499]}
