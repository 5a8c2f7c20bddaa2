"""The lobby's option fields: every option of every game survives a round trip through a form."""

import pytest
from django import forms

from games.engine import GAMES
from games.lobby.option_fields import PREFIX, OptionsForm
from games.matches.models import Match

ALL_OPTIONS = [
    (slug, name) for slug, game in GAMES.items() for name, option in game.options.items() if option.players_choose
]


def posted_default(field: forms.Field, default) -> dict:
    """What a browser posts for a field left at its default (checkboxes send nothing when off)."""
    if isinstance(field, forms.BooleanField):
        return {"on"} if default else set()
    return {str(default)}


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_every_game_accepts_its_own_defaults_as_posted_text(slug):
    game = GAMES[slug]
    form = OptionsForm(game)
    data = {}
    for key, field in form.fields.items():
        for value in posted_default(field, field.initial):
            data[key] = value
    bound = OptionsForm(game, data=data)
    assert bound.is_valid(), bound.errors
    assert bound.options() == {name: option.default for name, option in game.options.items() if option.players_choose}
    assert game.clean_options(game.min_players, bound.options()) == {n: o.default for n, o in game.options.items()}


@pytest.mark.parametrize(("slug", "name"), ALL_OPTIONS)
def test_every_option_has_words_for_players(slug, name):
    option = GAMES[slug].options[name]
    field = OptionsForm(GAMES[slug]).fields[PREFIX + name]
    assert field.label == option.label and "_" not in option.label
    assert field.help_text == option.help
    if option.choices:
        assert [label for _, label in field.choices] == [label for _, label in option.named_choices()]


def test_an_option_the_server_sets_is_never_a_field():
    assert "opt_last_winner" not in OptionsForm(GAMES["dobble"]).fields
    labels = Match(game="dobble", options={"last_winner": 1}).option_labels()
    assert labels and not any("previous mini-game" in label for label in labels)


def test_a_choice_posted_as_text_becomes_the_options_own_type():
    dudab = GAMES["dudab"]
    form = OptionsForm(dudab, data={"opt_four_player_columns": "2", "opt_starter": "first_seat"})
    assert form.is_valid(), form.errors
    assert form.options()["four_player_columns"] == 2 and form.options()["starter"] == "first_seat"


def test_numbers_are_bounded_and_unknown_choices_refused():
    form = OptionsForm(GAMES["dudo"], data={"opt_dice": "9"})
    assert not form.is_valid() and "opt_dice" in form.errors
    form = OptionsForm(GAMES["dubito"], data={"opt_ascending": "sideways", "opt_empty_pile": "stop"})
    assert not form.is_valid() and "opt_ascending" in form.errors
