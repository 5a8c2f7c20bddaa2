"""The layers import downwards only: engines <- match service <- ratings, tournaments, bots, lobby, pages.

Read from the source (every import statement, wherever it stands), so a hidden function-local
import of a higher layer fails here just like a module-level one.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# Every top-level package of the project that is not games/: the site apps and tournaments.
ABOVE_GAMES = {path.name for path in (ROOT / "platform").iterdir() if (path / "__init__.py").exists()} | {"tournaments"}
# The lobby lives in games/ but sits above ratings (its ranked queue pairs by rating).
ABOVE_MATCHES = {"games/lobby"}


def imports(path: Path) -> list[tuple[str, bool]]:
    """(module, inside a function) for every import in the file."""
    tree = ast.parse(path.read_text(), str(path))
    found = []

    def visit(node, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            nested = in_function or isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef)
            if isinstance(child, ast.Import):
                found.extend((alias.name, in_function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom) and child.level == 0 and child.module:
                found.append((child.module, in_function))
            visit(child, nested)

    visit(tree, False)
    return found


def game_files() -> list[Path]:
    return [
        path
        for path in sorted((ROOT / "games").rglob("*.py"))
        if not any(str(path.relative_to(ROOT)).startswith(folder + "/") for folder in ABOVE_MATCHES)
    ]


def test_the_apps_above_games_exist_so_the_check_means_something():
    assert {"botapi", "ratings", "accounts", "dubium", "tournaments"} <= ABOVE_GAMES


def test_the_engines_and_the_match_service_are_checked():
    checked = {str(path.relative_to(ROOT)) for path in game_files()}
    assert {"games/matches/wakeups.py", "games/matches/tasks.py", "games/dudo/rules.py"} <= checked


def test_nothing_in_games_imports_a_layer_above_it():
    wrong = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in game_files()
        for module, _ in imports(path)
        if module.split(".")[0] in ABOVE_GAMES
    ]
    assert wrong == []


def test_no_project_import_hides_inside_a_function_in_games():
    hidden = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in game_files()
        for module, in_function in imports(path)
        if in_function and module.split(".")[0] in ABOVE_GAMES | {"games"}
    ]
    assert hidden == []


def test_the_check_finds_a_hidden_upward_import(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text("def settle():\n    from ratings.services import rate_match\n")
    assert imports(planted) == [("ratings.services", True)]
