"""The lobby's forms: a new table, a game against the computer, the quick ranked pairing.

Each shows the game's options as real fields (option_fields.py) and turns what the browser
posts into the values the services take; the views only call the services.
"""

from django import forms

from games.base import Game
from games.lobby.option_fields import OptionsForm
from games.matches.time_controls import PRESETS, QUICK_PAIRING
from games.registry import bot_strengths


def seat_field(game: Game, minimum: int, label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=minimum, max_value=game.max_players, initial=max(minimum, 2)
    )


def time_control_field(game: Game, keys, initial: str) -> forms.ChoiceField:
    """The clock presets by the names players use, for the forms where a preset also says
    ranked or casual (the quick pairing, a challenge).

    Real-time games (Dobble) have no clock: of such a preset only ranked or casual is left.
    """
    choices = [(key, PRESETS[key].label) for key in keys]
    if game.realtime:
        ranked = next(key for key in keys if PRESETS[key].ranked)
        return forms.ChoiceField(
            label="Kind of game",
            choices=[(ranked, "Ranked"), ("none", "Casual")],
            initial=ranked if PRESETS[initial].ranked else "none",
        )
    return forms.ChoiceField(label="Time control", choices=choices, initial=initial)


def clock_fields(game: Game, keys) -> dict[str, forms.Field]:
    """A clock for the tables a player sets up; none at all for real-time games."""
    if game.realtime:
        return {}
    choices = [(key, PRESETS[key].label) for key in keys]
    return {"time_control": forms.ChoiceField(label="Time control", choices=choices, initial="none")}


class TableForm(OptionsForm):
    """What a table a player sets up shares: its clock ("no clock" where the game has none)."""

    def time_control(self) -> str:
        return self.cleaned_data.get("time_control", "none")


class NewTableForm(TableForm):
    """An open table others join; the host fills empty seats with house bots on the table.

    Ranked or casual is one choice of its own, casual unless the host says otherwise; the
    clock is another (the quick pairing is where a clock preset decides both).
    """

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields = {
            "players": seat_field(game, game.min_players, "Seats"),
            **clock_fields(game, list(PRESETS)),
            "kind": forms.ChoiceField(
                label="Kind of game",
                choices=[("casual", "Casual (ratings do not change)"), ("ranked", "Ranked")],
                initial="casual",
            ),
            **self.fields,
        }

    def ranked(self) -> bool:
        return self.cleaned_data["kind"] == "ranked"


class PlayComputerForm(TableForm):
    """You against house bots of one strength, started at once; always casual (the lobby says so):
    a rating won against a strength the player picks would be a rating for the taking."""

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        strengths = bot_strengths(game.slug)
        self.fields = {
            "bot": forms.ChoiceField(
                label="Computer strength",
                choices=strengths,
                initial=strengths[len(strengths) // 2][0],  # the middle one: Strong, or Dobble's Medium
            ),
            "players": seat_field(game, game.smallest_table, "Table size"),
            **clock_fields(game, ["none", "turn-60", "3+2", "5+5"]),
            **self.fields,
        }


class ChallengeForm(forms.Form):
    """A two-player game against someone you name."""

    username = forms.CharField(label="Player's name", max_length=150)

    def __init__(self, game: Game, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["time_control"] = time_control_field(game, QUICK_PAIRING, "none")


class QuickPairingForm(forms.Form):
    """The ranked queue: a table size and a time control ("no clock" pairs a casual game)."""

    def __init__(self, game: Game, *args, **kwargs):
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["players"] = seat_field(game, game.smallest_table, "Table size")
        self.fields["time_control"] = time_control_field(game, QUICK_PAIRING, QUICK_PAIRING[0])
