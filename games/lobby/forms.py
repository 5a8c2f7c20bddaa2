"""The lobby's forms: a new table, a game against the computer, the quick ranked pairing.

Each shows the game's options as real fields (option_fields.py) and turns what the browser
posts into the values the services take; the views only call the services.
"""

from django import forms

from games.base import Game
from games.bots import bot_names
from games.lobby.option_fields import OptionsForm
from games.matches.time_controls import PRESETS, QUICK_PAIRING

BOT_STRENGTH = {"random": "Beginner", "easy": "Easy", "heuristic": "Strong", "medium": "Medium", "hard": "Hard"}


def seat_field(game: Game, minimum: int, label: str) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, min_value=minimum, max_value=game.max_players, initial=max(minimum, 2)
    )


def time_control_field(game: Game, keys, initial: str) -> forms.ChoiceField:
    """The clock presets by the names players use.

    Real-time games (Dobble) have no clock: where a preset also says ranked or casual (the
    quick pairing, a challenge), that is the only choice left; elsewhere there is none.
    """
    choices = [(key, PRESETS[key].label) for key in keys]
    if game.realtime:
        ranked = next((key for key in keys if PRESETS[key].ranked), None)
        choices = [("none", "Casual")] if ranked is None else [(ranked, "Ranked"), ("none", "Casual")]
        if ranked is None:
            return forms.ChoiceField(label="Clock", choices=[("none", "no clock (real-time)")], initial="none")
        return forms.ChoiceField(label="Kind of game", choices=choices, initial=ranked)
    return forms.ChoiceField(label="Time control", choices=choices, initial=initial)


class NewTableForm(OptionsForm):
    """An open table others join; the host fills empty seats with house bots on the table."""

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        self.fields = {
            "players": seat_field(game, game.min_players, "Seats"),
            "time_control": time_control_field(game, list(PRESETS), "none"),
            "ranked": forms.BooleanField(label="Ranked", required=False),
            **self.fields,
        }


class PlayComputerForm(OptionsForm):
    """You against house bots of one strength, started at once."""

    def __init__(self, game: Game, *args, **kwargs):
        super().__init__(game, *args, **kwargs)
        names = bot_names(game.slug)
        default = "heuristic" if "heuristic" in names else names[len(names) // 2]
        self.fields = {
            "bot": forms.ChoiceField(
                label="Computer strength",
                choices=[(name, BOT_STRENGTH.get(name, name.capitalize())) for name in names],
                initial=default,
            ),
            "players": seat_field(game, max(2, game.min_players), "Table size"),
            "time_control": time_control_field(game, ["none", "turn-60", "3+2", "5+5"], "none"),
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
        self.fields["players"] = seat_field(game, max(2, game.min_players), "Table size")
        self.fields["time_control"] = time_control_field(game, QUICK_PAIRING, QUICK_PAIRING[0])
