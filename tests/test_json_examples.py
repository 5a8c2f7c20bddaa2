"""Every JSON example of the docs a bot author reads (docs/bots.md, docs/protocol.md and each
game's docs/protocol/<game>.md) parses as JSON, so it can be copied into a program: a fenced
`json` block holds one value, or one value a line (a socket's messages). The Dobble seat view
once had a history entry pasted after its list's last item. Inline code such as
`{"seat", "why", "at"}` names a shape's keys and is not an example."""

import json
import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
BOT_DOCS = [DOCS / "bots.md", DOCS / "protocol.md", *sorted((DOCS / "protocol").glob("*.md"))]
FENCED_JSON = re.compile(r"^[ \t]*```json\n(.*?)^[ \t]*```", re.S | re.M)  # in a list item too


def examples(text: str) -> list[tuple[int, str]]:
    """(line of the block's first line, block) for each fenced json block."""
    return [(text[: found.start(1)].count("\n") + 1, found.group(1)) for found in FENCED_JSON.finditer(text)]


def not_json(block: str, first_line: int) -> str | None:
    """Why a block is neither one JSON value nor one a line, at which line of the file; None when it is."""
    lines = [line for line in block.splitlines() if line.strip()]
    try:
        json.loads(block)
    except json.JSONDecodeError as error:
        try:
            [json.loads(line) for line in lines]
        except json.JSONDecodeError:
            return f"line {first_line + error.lineno - 1}: {error.msg}"
    return None


@pytest.mark.parametrize("path", BOT_DOCS, ids=lambda path: str(path.relative_to(DOCS)))
def test_every_json_example_in_the_bot_docs_parses(path):
    found = examples(path.read_text())
    assert found, f"{path.name} gives no example"
    assert [problem for line, block in found if (problem := not_json(block, line))] == []


def test_a_block_that_is_not_json_is_told_at_its_line():
    seat_view = '{\n  "history": [\n    {"at_ms": 1300}\n{"at_ms": 1420}\n  ]\n}\n'
    assert not_json(seat_view, 10) == "line 13: Expecting ',' delimiter"
    assert not_json('{"type": "pong"}\n{"type": "ping", "id": 7}\n', 1) is None
