"""The organizer dashboard's forms: a tournament of one game with that game's options as fields,
and the house bots to enter."""

from datetime import timedelta

from django import forms
from django.utils import timezone

from games.base import IllegalAction
from games.bots import bot_strengths
from games.engine import get_game
from games.lobby.option_fields import PREFIX, option_field
from tournaments.models import Tournament

Format = Tournament.Format
# Which formats each game can be run in (Tournament.clean says why the others are refused).
GAME_FORMATS = {
    "dobble": [Format.SWISS, Format.ROUND_ROBIN, Format.DOBBLE_SERIES],
    "dudab": [Format.SWISS, Format.ROUND_ROBIN, Format.ROUNDS_TOTAL],
}
COMMON_FORMATS = [Format.SWISS, Format.ROUND_ROBIN]


def formats_for(engine) -> list:
    """The formats offered for a game: a round robin is played at two seats, which a game of three
    or more (I Doubt It) never has."""
    formats = GAME_FORMATS.get(engine.slug, COMMON_FORMATS)
    return [value for value in formats if value != Format.ROUND_ROBIN or engine.min_players <= 2]


LOCAL_MINUTE = "%Y-%m-%dT%H:%M"
# A start time a little in the past still means "now": the form took a while to fill in.
PAST_GRACE = timedelta(minutes=10)


class TournamentForm(forms.ModelForm):
    """Name, format, size, schedule and clock of one game's tournament, plus its table options."""

    class Meta:
        model = Tournament
        fields = [
            "name", "format", "table_size", "rounds", "max_entries", "turn_seconds", "starts_at", "description",
            "late_entry_rounds", "late_entry_points",
        ]
        labels = {
            "late_entry_rounds": "Late entry until round",
            "late_entry_points": "Late entrants get, for each round missed",
            "table_size": "Seats per table",
            "rounds": "Rounds",
            "max_entries": "Most entries",
            "turn_seconds": "Seconds per turn",
            "starts_at": "Starts at (UTC)",
        }
        help_texts = {
            "rounds": "A round robin plays as many rounds as it needs instead.",
            "turn_seconds": "0 plays without a clock.",
            "starts_at": "Entries close and round 1 is seated at this time; a time now starts it within seconds.",
            "late_entry_rounds": "Swiss: players may still enter until this round is seated (0: entries close at "
            "the start).",
        }
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_MINUTE),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = get_game(game)
        self.instance.game = game
        formats = formats_for(self.engine)
        self.fields["format"].choices = [(value.value, value.label) for value in formats]
        self.fields["format"].error_messages["invalid_choice"] = (
            f"{self.engine.name} is not played in that format: choose "
            + " or ".join(value.label.split(" (")[0] for value in formats)
            + "."
        )
        smallest = max(2, self.engine.min_players)
        self.fields["table_size"] = forms.TypedChoiceField(
            label="Seats per table",
            coerce=int,
            choices=[(size, str(size)) for size in range(smallest, self.engine.max_players + 1)],
            initial=self.instance.table_size if self.instance.pk else smallest,
            help_text="A Swiss round seats a few tables one short when the entries do not divide evenly.",
        )
        for name in ("late_entry_rounds", "late_entry_points"):
            self.fields[name].required = False  # a form without them keeps the defaults
        if self.engine.realtime:
            del self.fields["turn_seconds"]  # real time (Dobble): no turns, no clock
        if not self.instance.pk:
            self.initial.setdefault("starts_at", timezone.now().replace(second=0, microsecond=0) + timedelta(hours=1))
        chosen = self.instance.options or {}
        self.option_names = {}
        for name, option in self.engine.options.items():
            if option.players_choose:
                self.option_names[PREFIX + name] = name
                self.fields[PREFIX + name] = option_field(option)
                self.initial.setdefault(PREFIX + name, chosen.get(name, option.default))
        if "mini_game" in self.engine.options:
            self.fields[PREFIX + "mini_game"].help_text = (
                "A Dobble series opens with the Towering Inferno and each mini-game's loser picks the next; "
                "other formats play this one every round."
            )

    def option_rows(self):
        """The game's option fields, for the template to show under their own heading."""
        return [self[name] for name in self.option_names]

    def setting_rows(self):
        return [self[name] for name in self.fields if name not in self.option_names]

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        if starts_at < timezone.now() - PAST_GRACE and starts_at != self.instance.starts_at:
            raise forms.ValidationError("That time has passed: choose now or later.")
        return starts_at

    def clean(self):
        data = super().clean()
        options = {name: data[field] for field, name in self.option_names.items() if field in data}
        try:
            seats = data.get("table_size") or self.engine.max_players
            self.instance.options = self.engine.clean_options(seats, options)
        except IllegalAction as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def changes(self) -> dict:
        """The cleaned values an organizer may set, options included (organizing.EDITABLE)."""
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.cleaned_data}
        fields["late_entry_rounds"] = fields.get("late_entry_rounds") or 0
        fields["late_entry_points"] = fields.get("late_entry_points") or 0.0
        return {**fields, "options": self.instance.options}


class HouseBotsForm(forms.Form):
    """How many copies of each of the game's house bots to enter."""

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.bot_names = [name for name, _ in bot_strengths(game)]
        for name, strength in bot_strengths(game):
            self.fields[f"bots_{name}"] = forms.IntegerField(
                label=f"{strength} ({name.capitalize()}Bot)",
                min_value=0,
                max_value=64,
                initial=0,
                required=False,
            )

    def names(self) -> list[str]:
        """The bots to enter, one name per copy."""
        return [name for name in self.bot_names for _ in range(self.cleaned_data.get(f"bots_{name}") or 0)]


class CorrectionForm(forms.Form):
    """New points for each player at one scored table, and why (kept with the correction)."""

    reason = forms.CharField(
        max_length=200, help_text="Kept on the tournament page with your name, e.g. \"Illegal bid accepted\"."
    )

    def __init__(self, *args, players: list[tuple[int, str, float]], **kwargs):
        super().__init__(*args, **kwargs)
        self.entry_ids = [entry_id for entry_id, _, _ in players]
        for entry_id, name, points in players:
            self.fields[f"points_{entry_id}"] = forms.FloatField(
                label=f"Points for {name}", min_value=0, max_value=1000, initial=points
            )
        self.order_fields([f"points_{entry_id}" for entry_id in self.entry_ids] + ["reason"])

    def points(self) -> dict[int, float]:
        return {entry_id: self.cleaned_data[f"points_{entry_id}"] for entry_id in self.entry_ids}
