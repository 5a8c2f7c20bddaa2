"""Each tournament format is one registered object (tournaments/formats/): every one speaks in
words, each game is offered the formats that take it, and nothing outside the formats tests
which format a tournament has."""

import re
from pathlib import Path

import pytest
from django.utils import timezone

from games.engine import GAMES, get_game
from tournaments.formats import registry
from tournaments.forms import TournamentForm, formats_for
from tournaments.models import Tournament

ROOT = Path(__file__).resolve().parents[2]
# A test of which format a tournament has: `tournament.format == "knockout"`, `format in (...)`.
FORMAT_TEST = re.compile(r"\.format\s*(==|!=|in\b|not in\b)|\bFormat\.")


def test_the_six_formats_are_registered_in_the_order_the_form_offers_them():
    assert list(registry.FORMATS) == ["swiss", "round-robin", "knockout", "dobble-series", "rounds-total", "arena"]
    assert dict(registry.choices())["knockout"].startswith("Knockout (two seats")


@pytest.mark.parametrize("slug", list(registry.FORMATS))
def test_every_format_names_itself_and_says_how_it_is_scored(slug):
    found = registry.get(slug)
    game = next(name for name in GAMES if not found.refused_for(get_game(name)))
    tournament = Tournament(name="Cup", game=game, format=slug, starts_at=timezone.now())
    rules = tournament.rules
    assert isinstance(rules, found) and found.name and found.label
    assert tournament.format_summary and rules.scoring_words()
    assert rules.default_tiebreaks(), "ties are split even when the organizer names no tiebreak"


def test_an_unknown_format_is_refused_in_words():
    with pytest.raises(LookupError, match="No tournament format 'ladder'"):
        registry.get("ladder")


@pytest.mark.parametrize(
    ("game", "offered"),
    [
        ("dudo", ["Swiss rounds", "Round robin", "Knockout", "Arena"]),
        ("doubt-it", ["Swiss rounds", "Knockout", "Arena"]),
        ("dobble", ["Swiss rounds", "Round robin", "Knockout", "Dobble series", "Arena"]),
        ("dudab", ["Swiss rounds", "Round robin", "Knockout", "Lowest total over the rounds", "Arena"]),
    ],
)
def test_each_game_is_offered_the_formats_that_take_it(game, offered):
    assert [found.name for found in formats_for(get_game(game))] == offered


@pytest.mark.parametrize(
    ("game", "legends"),
    [
        ("dudo", ["Swiss rounds and round robin", "Swiss rounds only", "Knockout at two seats",
                  "Knockout at larger tables", "Arena only", "Arena at two seats"]),
        # real time: no no-show settings, no clock to halve; a format the game is not offered has no group
        ("dobble", ["Swiss rounds only", "Knockout at two seats", "Knockout at larger tables", "Dobble series only",
                    "Arena only"]),
    ],
)  # fmt: skip
def test_the_form_groups_each_formats_own_settings_under_its_name(game, legends):
    form = TournamentForm(game=game)
    groups = {group["legend"]: (group["formats"], group["seats"]) for group in form.format_groups()}
    assert list(groups) == legends
    assert groups["Swiss rounds only"] == ("swiss", "")
    assert groups["Knockout at larger tables"] == ("knockout", "3+")
    assert form.formats_computing_rounds() == "round-robin knockout arena"


def test_only_the_formats_know_which_format_a_tournament_has():
    """Code asks `tournament.rules`; a new format is its module and one registration."""
    sources = [
        path
        for path in [*(ROOT / "tournaments").rglob("*.py"), *(ROOT / "templates" / "tournaments").rglob("*.html")]
        if "formats" not in path.parts and "migrations" not in path.parts
    ]
    testing = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sources
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if FORMAT_TEST.search(line)
    ]
    assert testing == []
