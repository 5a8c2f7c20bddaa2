"""docs/architecture.md sends a reader to `path:line` `name`: each name must still be defined in
that file (a rename or a move fails here; a shifted line number does not, as the page says)."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAP = ROOT / "docs" / "architecture.md"
# `games/matches/actions.py:40` `apply_action`, or `:24` `submit_action` in the last file named.
PATH = r"[\w./-]+/\w+\.py"
CITATION = re.compile(rf"`(?:(?P<path>{PATH})|):(?P<line>\d+)`\s+`(?P<name>\w+)`|`(?P<file>{PATH})`")


def citations(text: str) -> list[tuple[str, int, str]]:
    """(file, line, name) of each citation, in order."""
    found, current = [], None
    for match in CITATION.finditer(text):
        current = match["path"] or match["file"] or current
        if match["name"]:
            found.append((current, int(match["line"]), match["name"]))
    return found


def defines(source: str, name: str) -> bool:
    return re.search(rf"^\s*(?:async\s+)?(?:def|class)\s+{name}\b|^{name}\s*[:=]", source, re.MULTILINE) is not None


def test_every_name_the_map_cites_is_defined_in_the_file_it_names():
    cited = citations(MAP.read_text())
    assert len(cited) > 60
    missing = [f"{path}:{line} {name}" for path, line, name in cited if not defines((ROOT / path).read_text(), name)]
    assert missing == []


def test_a_citation_without_a_path_belongs_to_the_last_file_named():
    text = "`games/matches/actions.py:40` `apply_action` calls `rows.py` then `:24` `submit_action`"
    assert citations(text) == [
        ("games/matches/actions.py", 40, "apply_action"),
        ("games/matches/actions.py", 24, "submit_action"),
    ]
