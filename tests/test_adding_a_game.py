"""Adding a game (docs/adding-a-game.md): every registered game has every part the site needs,
a registration that lacks parts is told each one, and a game registered later needs no migration."""

import importlib
import json
import re
from pathlib import Path

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command

from games.base import Game
from games.bots import Bot
from games.engine import GAMES
from games.lobby.models import Challenge, QueueEntry
from games.matches.models import Match
from games.registration import Registration
from games.registry import REGISTRY
from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "platform" / "botapi" / "client" / "examples"
GAME_FIELDS = [model._meta.get_field("game") for model in (Match, QueueEntry, Challenge, Tournament)]


def missing_parts(game: Registration) -> list[str]:
    """What a registered game lacks, each named as docs/adding-a-game.md names the part."""
    missing = []
    package = importlib.import_module(type(game.engine).__module__.rpartition(".")[0])
    if type(game.engine) is Game or getattr(package, "REGISTRATION", None) is not game:
        missing.append("a rule engine (a Game subclass) in the package that registers it")
    if not game.house_bots or not all(
        issubclass(bot, Bot) and bot.strength for bot in game.house_bots.values()
    ):
        missing.append("house bots, each with its strength in words")
    if not game.engine.smallest_table <= game.bench_players <= game.engine.max_players:
        missing.append("a table size for bench/engines.py that the game can seat")
    script = ROOT / "static" / game.script
    registers = re.compile(rf"""DubiumGames(\.{re.escape(game.slug)}\b|\[["']{re.escape(game.slug)}["']\])\s*=""")
    if not script.is_file() or not registers.search(script.read_text()):
        missing.append(f"static/{game.script}, which sets window.DubiumGames[{game.slug!r}]")
    for doc in (game.rules_doc, game.engine_doc, game.protocol_doc):
        if not (ROOT / "docs" / doc).is_file() or not (ROOT / "docs" / doc).read_text().startswith("# "):
            missing.append(f"docs/{doc}")
    if not (EXAMPLES / f"{game.example_bot}.py").is_file():
        missing.append(f"platform/botapi/client/examples/{game.example_bot}.py")
    demo = json.loads((ROOT / "seeds" / "demo.json").read_text())
    if not any(spec["game"] == game.slug and spec["starts_in_days"] > 0 for spec in demo["tournaments"]):
        missing.append("an upcoming tournament in seeds/demo.json")
    return missing


class StubGame(Game):
    """Registered in a test only, without any of its parts."""


@pytest.fixture
def stub_registration() -> Registration:
    engine = StubGame(slug="stub-game", name="Stub Game", min_players=2, max_players=4)
    return Registration(engine=engine, house_bots={}, bench_players=9)


@pytest.fixture
def stub_registered(monkeypatch, stub_registration) -> Registration:
    """The stub game in the registry for the length of the test, as one more package would put it."""
    monkeypatch.setitem(REGISTRY, stub_registration.slug, stub_registration)
    monkeypatch.setitem(GAMES, stub_registration.slug, stub_registration.engine)
    return stub_registration


@pytest.mark.parametrize("slug", list(REGISTRY))
def test_every_registered_game_has_every_part(slug):
    assert missing_parts(REGISTRY[slug]) == []


def test_a_registration_without_its_parts_is_told_each_missing_one(stub_registration):
    assert missing_parts(stub_registration) == [
        "a rule engine (a Game subclass) in the package that registers it",
        "house bots, each with its strength in words",
        "a table size for bench/engines.py that the game can seat",
        "static/js/games/stub-game.js, which sets window.DubiumGames['stub-game']",
        "docs/rules/stub-game.md",
        "docs/engine/stub-game.md",
        "docs/protocol/stub-game.md",
        "platform/botapi/client/examples/stub_game.py",
        "an upcoming tournament in seeds/demo.json",
    ]


def test_every_game_is_offered_the_random_bot_beside_its_house_bots():
    for game in REGISTRY.values():
        assert list(game.bots) == ["random", *game.house_bots]


def test_the_models_refuse_a_game_nobody_registered_and_accept_one_registered_later(stub_registration, monkeypatch):
    for field in GAME_FIELDS:
        with pytest.raises(ValidationError, match="is not a valid choice"):
            field.clean("stub-game", None)
    monkeypatch.setitem(GAMES, stub_registration.slug, stub_registration.engine)
    for field in GAME_FIELDS:
        assert field.clean("stub-game", None) == "stub-game"


@pytest.mark.django_db
def test_a_game_registered_later_needs_no_migration(stub_registered):
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)  # exits 1 when a migration is due
