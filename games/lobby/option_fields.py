"""A game's table options as Django form fields, for every form that sets up a table.

The lobby's new-table and play-the-computer forms and the organizer's tournament forms all
show the same fields: the option's label, its help line, its choices in words, a checkbox for
a yes/no option and a number box bounded by the option's minimum and maximum. Each field
turns what the browser posts (always text) back into the option's own type, so the engine's
`clean_options` sees 3, not "3".
"""

from django import forms

from games.base import Game, Option

PREFIX = "opt_"


def option_field(option: Option) -> forms.Field:
    """The form field for one option, with its default as the initial value."""
    common = {"label": option.label, "help_text": option.help, "initial": option.default}
    if option.choices:
        by_text = {str(choice): choice for choice in option.choices}
        return forms.TypedChoiceField(
            choices=[(str(value), label) for value, label in option.named_choices()],
            coerce=by_text.__getitem__,
            **common,
        )
    if isinstance(option.default, bool):
        return forms.BooleanField(required=False, **common)
    if isinstance(option.default, int):
        return forms.IntegerField(min_value=option.minimum, max_value=option.maximum, **common)
    return forms.CharField(**common)


def option_fields(game: Game) -> dict[str, forms.Field]:
    """One field per option of the game that players choose, named PREFIX + the option's name."""
    return {PREFIX + name: option_field(option) for name, option in game.options.items() if option.players_choose}


def chosen_options(game: Game, cleaned_data: dict) -> dict:
    """The options a bound, valid form holds, by the engine's option names."""
    return {name: cleaned_data[PREFIX + name] for name, option in game.options.items() if option.players_choose}


class OptionsForm(forms.Form):
    """A form of nothing but a game's options; other forms extend it with their own fields."""

    def __init__(self, game: Game, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.game = game
        self.fields.update(option_fields(game))

    def options(self) -> dict:
        return chosen_options(self.game, self.cleaned_data)

    def table_fields(self) -> list:
        """The bound fields that are not game options (a template shows the options apart)."""
        return [self[name] for name in self.fields if not name.startswith(PREFIX)]

    def option_fields(self) -> list:
        return [self[name] for name in self.fields if name.startswith(PREFIX)]
