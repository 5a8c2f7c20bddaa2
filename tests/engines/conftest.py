"""The rule engines are pure Python: they run the same on any stack, so CI's real-stack pass
leaves them to its embedded pass instead of running them twice."""

from pathlib import Path

import pytest

from tests.conftest import services_required

HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(config, items):
    if not services_required():
        return
    once = pytest.mark.skip(reason="pure Python, the same on any stack: runs once, in CI's embedded pass")
    for item in items:
        if HERE in Path(item.fspath).resolve().parents:
            item.add_marker(once)
