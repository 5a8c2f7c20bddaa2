"""The single-file verifier a player downloads: games/verify_deal.py and the rule engines the
site runs, packed as a Python zip application (`python dubium-verifier.pyz record.json`).

Built from the engines' own source, so it always checks with the rules that dealt the match.
"""

import io
import zipfile
from functools import cache
from pathlib import Path

from games.engine import GAMES

GAMES_DIR = Path(__file__).resolve().parent.parent
# The engines' shared modules beside each game's folder; every one is standard-library Python.
SHARED = (
    "__init__.py",
    "base.py",
    "bots.py",
    "cards.py",
    "engine.py",
    "registration.py",
    "registry.py",
    "verify_deal.py",
)
MAIN = "import sys\n\nfrom games.verify_deal import main\n\nsys.exit(main(sys.argv[1:]))\n"


def engine_files() -> list[Path]:
    folders = sorted({GAMES_DIR / type(game).__module__.split(".")[1] for game in GAMES.values()})
    return [GAMES_DIR / name for name in SHARED] + [path for folder in folders for path in sorted(folder.glob("*.py"))]


@cache
def verifier_archive() -> bytes:
    """The zip application's bytes (built once a process: the source does not change under it)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("__main__.py", "#!/usr/bin/env python3\n" + MAIN)
        for path in engine_files():
            archive.write(path, f"games/{path.relative_to(GAMES_DIR).as_posix()}")
    return buffer.getvalue()
