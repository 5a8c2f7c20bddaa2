"""The layers import downwards only: engines <- match service <- ratings, tournaments, bots, lobby, pages.

Read from the source (every import statement, wherever it stands), so a hidden function-local
import of a higher layer fails here just like a module-level one. The brief's rules: no import
upwards across the layers; the rule engines import no framework (pure Python); no project import
inside a function (the way a cycle is dodged), except in an AppConfig's `ready`, where Django
wants them; no import cycle among the match service's modules (nor anywhere in games/). What no
import shows, the signal a match's end is sent by, the settling task's docstring names.
"""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The site's apps (platform/) and tournaments: the top layer, with the lobby (games/lobby).
SITE_APPS = {path.name for path in (ROOT / "platform").iterdir() if (path / "__init__.py").exists()}
TOP = {*SITE_APPS, "tournaments", "games.lobby"}
MATCHES = "games.matches"
ENGINES, MATCH_SERVICE, ABOVE = 0, 1, 2
LAYER_NAMES = ["engines", "match service", "apps above the match service"]
# What a pure rule engine never imports.
FRAMEWORKS = {"django", "channels", "celery", "rest_framework"}


def module_name(path: Path, root: Path = ROOT) -> str:
    """games/matches/actions.py -> games.matches.actions; platform/ratings/elo.py -> ratings.elo."""
    parts = path.relative_to(root).with_suffix("").parts
    parts = parts[1:] if parts[0] == "platform" else parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_files(root: Path = ROOT) -> list[Path]:
    """Every Python file of the installed packages: games/, platform/'s apps, tournaments/."""
    folders = [root / "games", root / "tournaments", *(root / "platform" / name for name in sorted(SITE_APPS))]
    return [path for folder in folders for path in sorted(folder.rglob("*.py"))]


def is_project(module: str) -> bool:
    return module.split(".")[0] in {"games", "tournaments", *SITE_APPS}


def layer(module: str) -> int:
    """Which layer a project module belongs to."""
    if any(module == top or module.startswith(top + ".") for top in TOP):
        return ABOVE
    if module == MATCHES or module.startswith(MATCHES + "."):
        return MATCH_SERVICE
    return ENGINES  # games/ and the games' own packages


def imports(path: Path, root: Path = ROOT) -> list[tuple[str, bool, str]]:
    """(module, inside a function, that function's name) for every import in the file; a name
    imported from a package (`from games.matches import lifecycle`) counts as its module."""
    tree = ast.parse(path.read_text(), str(path))
    here = module_name(path, root) if path.is_relative_to(root) else path.stem
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found = []

    def imported(node: ast.ImportFrom) -> list[str]:
        base = node.module or ""
        if node.level:
            anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
            base = ".".join([*anchor, base] if base else anchor)
        modules = [f"{base}.{alias.name}" if is_submodule(base, alias.name, root) else base for alias in node.names]
        return list(dict.fromkeys(modules))

    def visit(node, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import):
                found.extend((alias.name, function is not None, function or "") for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                found.extend((module, function is not None, function or "") for module in imported(child))
            inner = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else function
            visit(child, inner)

    visit(tree, None)
    return found


def is_submodule(package: str, name: str, root: Path = ROOT) -> bool:
    folder = root.joinpath(*package.split("."))
    if package.split(".")[0] in SITE_APPS:
        folder = root / "platform" / folder.relative_to(root)
    return (folder / f"{name}.py").exists() or (folder / name / "__init__.py").exists()


def upward_imports(root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}: {module} ({LAYER_NAMES[layer(module)]})"
        for path in project_files(root)
        for module, _, _ in imports(path, root)
        if is_project(module) and layer(module) > layer(module_name(path, root))
    ]


def hidden_imports(root: Path = ROOT) -> list[str]:
    return [
        f"{path.relative_to(root)}: {module} in {function}()"
        for path in project_files(root)
        for module, in_function, function in imports(path, root)
        if in_function and is_project(module) and not (path.name == "apps.py" and function == "ready")
    ]


def import_graph(package: str, root: Path = ROOT) -> dict[str, set[str]]:
    """The package's modules and the modules of the package each one imports."""
    files = [path for path in project_files(root) if module_name(path, root).startswith(package + ".")]
    names = {module_name(path, root) for path in files}
    return {
        module_name(path, root): {module for module, _, _ in imports(path, root) if module in names}
        for path in files
    }


def a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle (its modules in order, the first again at the end), or [] if none."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str]:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return []
        path.append(module)
        for imported in sorted(graph.get(module, ())):
            cycle = visit(imported)
            if cycle:
                return cycle
        path.pop()
        done.add(module)
        return []

    for module in sorted(graph):
        cycle = visit(module)
        if cycle:
            return cycle
    return []


def test_the_layers_name_the_apps_so_the_checks_mean_something():
    assert {"botapi", "ratings", "accounts", "dubium", "fairplay"} <= SITE_APPS
    checked = {module_name(path): layer(module_name(path)) for path in project_files()}
    assert checked["games.dudo.rules"] == checked["games.engine"] == ENGINES
    assert checked["games.matches.wakeups"] == checked["games.matches.scheduling"] == MATCH_SERVICE
    assert checked["games.lobby.matchmaking"] == checked["tournaments.running"] == checked["ratings.elo"] == ABOVE
    assert len(import_graph(MATCHES)) > 30


def test_no_layer_imports_one_above_it():
    assert upward_imports() == []


def test_the_rule_engines_import_no_framework():
    framework = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in project_files()
        if layer(module_name(path)) == ENGINES
        for module, _, _ in imports(path)
        if module.split(".")[0] in FRAMEWORKS
    ]
    assert framework == []


def test_no_project_import_hides_inside_a_function():
    assert hidden_imports() == []


def test_the_match_service_s_modules_import_each_other_without_a_cycle():
    assert a_cycle(import_graph(MATCHES)) == []
    assert a_cycle(import_graph("games")) == [], "nor do the engines', the match service's and the lobby's"


def test_the_checks_find_an_upward_import_a_hidden_import_and_a_cycle(tmp_path):
    (tmp_path / "platform" / "ratings").mkdir(parents=True)
    (tmp_path / "tournaments").mkdir()
    matches = tmp_path / "games" / "matches"
    matches.mkdir(parents=True)
    for package in (tmp_path / "games", matches, tmp_path / "platform" / "ratings", tmp_path / "tournaments"):
        (package / "__init__.py").write_text("")
    (matches / "scoring.py").write_text("def settle():\n    from ratings.services import rate_match\n")
    (matches / "actions.py").write_text("from games.matches import lifecycle\n")
    (matches / "lifecycle.py").write_text("from . import wakeups\n")
    (matches / "wakeups.py").write_text("from games.matches.actions import apply_action\n")
    (tmp_path / "games" / "engine.py").write_text("from games.matches.models import Match\nimport django\n")
    assert upward_imports(tmp_path) == [
        "games/engine.py: games.matches.models (match service)",
        "games/matches/scoring.py: ratings.services (apps above the match service)",
    ]
    assert hidden_imports(tmp_path) == ["games/matches/scoring.py: ratings.services in settle()"]
    assert a_cycle(import_graph(MATCHES, tmp_path)) == [
        "games.matches.actions",
        "games.matches.lifecycle",
        "games.matches.wakeups",
        "games.matches.actions",
    ]


def receivers_of(signal: str, root: Path = ROOT) -> list[str]:
    """The functions the apps' `ready()` connect to the match service's `signal`, read from their apps.py."""
    found = []
    for path in project_files(root):
        if path.name != "apps.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            call = node.func if isinstance(node, ast.Call) and node.args else None
            if isinstance(call, ast.Attribute) and call.attr == "connect" and ast.unparse(call.value).endswith(signal):
                found.append(ast.unparse(node.args[0]).rpartition(".")[2])
    return found


def test_the_settling_task_names_every_receiver_of_a_match_s_end():
    """The apps above hear of a match's end through a signal, which no import shows: the task that
    sends it names who receives it, so a reader finds where scores, ratings and reviews begin."""
    tree = ast.parse((ROOT / "games" / "matches" / "tasks.py").read_text())
    task = next(node for node in tree.body if isinstance(node, ast.FunctionDef) and node.name == "settle_match")
    receivers = receivers_of("match_finished")
    assert {"rate_finished_match", "score_tournament_table"} <= set(receivers)
    assert [name for name in receivers if f"`{name}`" not in ast.get_docstring(task)] == []
