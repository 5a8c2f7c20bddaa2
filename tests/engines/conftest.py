"""The rule engines are pure Python: they run the same on any stack, so CI's real-stack pass
leaves them to its embedded pass instead of running them twice."""

from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Marked `once` before tests/conftest.py reads the marks."""
    for item in items:
        if HERE in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.once)
