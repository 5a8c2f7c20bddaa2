"""The organizer dashboard's forms: a tournament of one game with that game's options as fields,
and the house bots to enter."""

from datetime import timedelta

from django import forms
from django.contrib.auth import get_user_model
from django.core.validators import MaxValueValidator
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import get_text_list

from games.base import IllegalAction
from games.engine import get_game
from games.lobby.option_fields import PREFIX, option_field
from games.matches.lifecycle import house_bot_username
from games.registry import bot_strengths
from games.starting import STARTER
from tournaments import tiebreaks
from tournaments.formats import registry
from tournaments.formats.base import TournamentFormat
from tournaments.models import Tournament
from tournaments.standings import EXPLANATIONS, SERIES_POINTS, TIEBREAK_LABELS


def formats_for(engine) -> list[type[TournamentFormat]]:
    """The formats offered for a game: those that do not refuse it (a round robin is played at two
    seats, which a game of three or more never has; a Dobble series is Dobble's)."""
    return [found for found in registry.FORMATS.values() if not found.refused_for(engine)]


def starter_help(formats: list[type[TournamentFormat]]) -> str:
    """The "Who starts" option's help in the organizer's form: the formats that give the seat order
    let the first seat start whatever is chosen; the others (an arena) follow the choice."""
    giving = get_text_list([found.name for found in formats if found.decides_who_starts], "and")
    following = get_text_list([found.name for found in formats if not found.decides_who_starts], "and")
    said = f"In {giving} the first seat always starts: the format decides who sits first, as it gives colours in chess."
    return f"{said} In {following} this choice holds." if following else said


# Tiebreaks in words, as the form offers them: the names and meanings the standings show.
TIEBREAK_CHOICES = [(name, f"{label}: {EXPLANATIONS[name]}") for name, label in tiebreaks.NAMES.items()]
SERIES_CHOICE = (SERIES_POINTS, f"{TIEBREAK_LABELS[SERIES_POINTS]}: {EXPLANATIONS[SERIES_POINTS]}")
TIEBREAK_FIELDS = ["tiebreak_1", "tiebreak_2", "tiebreak_3"]
# Settings a form (or an older page) may leave out: they keep the model's default.
MAY_BE_LEFT_OUT = (
    "late_entry_rounds", "late_entry_points", "check_in_minutes", "accelerated_rounds", "forbidden_pairs",
    "series_ranking", "best_of", "advance", "no_show_minutes", "withdraw_no_shows", "time_control",
    "duration_minutes", "berserk",
)
BEST_OF_CHOICES = [(1, "One game"), (3, "Best of 3"), (5, "Best of 5"), (7, "Best of 7")]

SEATS_WORDS = {"": "only", "2": "at two seats", "3+": "at larger tables"}


def setting_groups() -> list[tuple[str, list[str], str, list[str]]]:
    """The settings that apply to some formats only (TournamentFormat.settings), grouped by the
    formats and table sizes they are for: (legend, format slugs, seats, setting names). They are
    hidden for the others (static/js/organize.js) and, when sent anyway, put back to their
    defaults. Seats: "" any, "2" or "3+" (a knockout's two kinds)."""
    owners: dict[tuple[str, str], list[str]] = {}  # (setting, seats) -> formats
    for found in registry.FORMATS.values():
        for seats, names in found.settings.items():
            for name in names:
                owners.setdefault((name, seats), []).append(found.slug)
    groups: dict[tuple[tuple[str, ...], str], list[str]] = {}
    for (name, seats), slugs in owners.items():
        groups.setdefault((tuple(slugs), seats), []).append(name)
    return [(legend(slugs, seats), list(slugs), seats, names) for (slugs, seats), names in groups.items()]


def legend(slugs: tuple[str, ...], seats: str) -> str:
    """A group's heading: "Swiss rounds and round robin", "Knockout at two seats"."""
    names = [registry.get(slug).name for slug in slugs]
    said = " and ".join([names[0], *(name.lower() for name in names[1:])])
    return said if len(names) > 1 and not seats else f"{said} {SEATS_WORDS[seats]}"


LOCAL_MINUTE = "%Y-%m-%dT%H:%M"
# A start time a little in the past still means "now": the form took a while to fill in.
PAST_GRACE = timedelta(minutes=10)


class TiebreakSelect(forms.Select):
    """A tiebreak's select whose options name the formats offering them (`data-tiebreak-formats`):
    static/js/organize.js offers only the chosen format's."""

    def __init__(self, offered_by: dict[str, str]):
        super().__init__()
        self.offered_by = offered_by

    def create_option(self, name, value, *args, **kwargs):
        option = super().create_option(name, value, *args, **kwargs)
        if value in self.offered_by:
            option["attrs"]["data-tiebreak-formats"] = self.offered_by[value]
        return option


def tiebreak_refused(chosen, order: list[str]) -> tuple[str, str] | None:
    """The first tiebreak in `order` the chosen format does not offer, and why, in words."""
    if chosen is None:
        return None
    for name in order:
        if name not in chosen.tiebreaks_offered():
            offered = ", ".join(TIEBREAK_LABELS[found] for found in chosen.tiebreaks_offered())
            why = f" ({chosen.tiebreaks_left_out})" if chosen.tiebreaks_left_out else ""
            refused = f"{TIEBREAK_LABELS[name]} is not offered for this format, {chosen.name}{why}"
            return name, f"{refused}: choose from {offered}."
    return None


class TournamentForm(forms.ModelForm):
    """Name, format, size, schedule and clock of one game's tournament, its tiebreaks, the settings
    of its format, and its table options."""

    forbidden_pairs = forms.CharField(
        label="Players never seated together",
        required=False,
        widget=forms.Textarea(attrs={"rows": 3, "placeholder": "ann, bob"}),
        help_text="One pair per line: ann, bob. Kept apart whenever the pairing allows (e.g. family members).",
    )

    withdraw_no_shows = forms.TypedChoiceField(
        label="After a no-show",
        choices=[(True, "Withdraw the player from the following rounds"), (False, "Pair the player again")],
        coerce=lambda value: value in (True, "True"),
        empty_value=True,
        help_text="A player who comes but makes no move of their own counts as a no-show too. A player "
        "withdrawn for either can still be paired again from the entry list, for example after explaining.",
    )

    class Meta:
        model = Tournament
        fields = [
            "name", "format", "table_size", "rounds", "max_entries", "turn_seconds", "time_control", "starts_at",
            "check_in_minutes", "no_show_minutes", "withdraw_no_shows", "description", "accelerated_rounds",
            "forbidden_pairs", "late_entry_rounds", "late_entry_points", "best_of", "advance", "series_ranking",
            "duration_minutes", "berserk",
        ]
        labels = {
            "late_entry_rounds": "Late entry until round",
            "late_entry_points": "Late entrants get, for each round missed",
            "table_size": "Seats per table",
            "rounds": "Rounds",
            "max_entries": "Most entries",
            "turn_seconds": "Seconds per turn",
            "check_in_minutes": "Check-in (minutes before the start)",
            "no_show_minutes": "No-show forfeit (minutes)",
            "accelerated_rounds": "Accelerated rounds",
            "series_ranking": "Rank the series",
            "time_control": "Clock per game",
            "duration_minutes": "Length (minutes)",
            "berserk": "Allow berserk",
        }
        help_texts = {
            "rounds": "A round robin or a knockout plays as many rounds as it needs instead.",
            "turn_seconds": "0 plays without a clock.",
            "starts_at": "Entries close and round 1 is seated at this time; a time now starts it within seconds.",
            "check_in_minutes": "Entered players confirm on the tournament page during this many minutes before "
            "the start; whoever has not is left out. 0: no check-in.",
            "no_show_minutes": "A player who has neither opened their table nor moved this many minutes after "
            "it started forfeits it, and the computer plays on for them; so does one absent to the end of a "
            "game the clock finishes sooner (a short clock ends a small game in a minute). 0: the clock plays "
            "an absent player's moves to the end, with no forfeit; the clock's moves still win them nothing.",
            "accelerated_rounds": "In this many first rounds the top half of the field pairs as if a point ahead, "
            "so the leaders meet sooner in a big field. 0: none.",
            "late_entry_rounds": "Players may still enter until this round is seated (0: entries close at the "
            "start).",
            "series_ranking": "By the point system, or by mini-games won as in the rulebook.",
            "time_control": 'Each player\'s own time for the whole game and the seconds added a move ("3+2": '
            "3 minutes, 2 seconds a move), instead of the seconds per turn.",
            "duration_minutes": "Players join any time until the end; games under way then are played out and count.",
            "berserk": "Before their first move, a player may halve their own clock; a win then earns one more "
            "point. Needs a clock per game.",
        }
        widgets = {
            "starts_at": forms.DateTimeInput(attrs={"type": "datetime-local"}, format=LOCAL_MINUTE),
            "description": forms.Textarea(attrs={"rows": 3}),
        }

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.engine = get_game(game)
        self.instance.game = game
        # Read and shown in the organizer's own zone (dubium/timezones.py), named so it is not guessed.
        self.fields["starts_at"].label = f"Starts at ({timezone.get_current_timezone_name().replace('_', ' ')} time)"
        self.formats = formats_for(self.engine)
        self.fields["format"].choices = [(found.slug, found.label) for found in self.formats]
        names = [found.name for found in self.formats]
        either = " or ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)
        self.fields["format"].error_messages["invalid_choice"] = (
            f"{self.engine.name} is not played in that format: choose {either}."
        )
        smallest = self.engine.smallest_table
        self.fields["table_size"] = forms.TypedChoiceField(
            label="Seats per table",
            coerce=int,
            choices=[(size, str(size)) for size in range(smallest, self.engine.max_players + 1)],
            initial=self.instance.table_size if self.instance.pk else smallest,
            help_text="A Swiss round seats a few tables one short when the entries do not divide evenly.",
        )
        self.fields["best_of"] = forms.TypedChoiceField(
            label="Games per pairing",
            coerce=int,
            choices=BEST_OF_CHOICES,
            empty_value=None,
            initial=self.instance.best_of,
            help_text="The first to win most of them goes through; a drawn game is replayed.",
        )
        self.fields["advance"] = forms.TypedChoiceField(
            label="Players going through from each table",
            coerce=int,
            empty_value=None,
            choices=[(0, "Half the table (rounded down)")] + [(n, str(n)) for n in range(1, self.engine.max_players)],
            initial=self.instance.advance,
            help_text="Players tied across the cut all go through; the last table's winner is the champion.",
        )
        offered_by = {
            name: " ".join(found.slug for found in self.formats if name in found.tiebreaks_offered())
            for name, _ in [*TIEBREAK_CHOICES, SERIES_CHOICE]
        }
        choices = [(name, label) for name, label in [*TIEBREAK_CHOICES, SERIES_CHOICE] if offered_by[name]]
        for number, name in enumerate(TIEBREAK_FIELDS):
            self.fields[name] = forms.ChoiceField(
                label=["First tiebreak", "Second tiebreak", "Third tiebreak"][number],
                required=False,
                choices=[("", "The format's usual order" if number == 0 else "None")] + choices,
                widget=TiebreakSelect(offered_by),
            )
        self.fields["tiebreak_1"].help_text = (
            "Players level on points are told apart by the first, then the second, then the third."
        )
        for number, name in enumerate(self.instance.tiebreaks[: len(TIEBREAK_FIELDS)]):
            self.initial.setdefault(TIEBREAK_FIELDS[number], name)
        self.initial["forbidden_pairs"] = "\n".join(", ".join(pair) for pair in self.instance.forbidden_pairs)
        for name in set(MAY_BE_LEFT_OUT) & set(self.fields):
            self.fields[name].required = False  # a form without them keeps the defaults
        self.fields["check_in_minutes"].validators.append(MaxValueValidator(24 * 60))
        self.fields["no_show_minutes"].validators.append(MaxValueValidator(120))
        self.fields["time_control"].choices = [("", "None: seconds per turn")] + [
            (key, label) for key, label in self.fields["time_control"].choices if key
        ]
        if self.engine.realtime:  # real time (Dobble): no turns, no clock; a seat away a minute forfeits
            del self.fields["turn_seconds"]
            del self.fields["time_control"]
            del self.fields["no_show_minutes"]
            del self.fields["withdraw_no_shows"]
            self.fields.pop("berserk", None)  # no clock to halve
        offered = {found.slug for found in self.formats}
        self.groups = setting_groups()
        for _, formats, _, names in self.groups:
            if not set(formats) & offered:
                for name in names:
                    del self.fields[name]
        if not self.instance.pk:
            self.initial.setdefault("starts_at", timezone.now().replace(second=0, microsecond=0) + timedelta(hours=1))
        chosen = self.instance.options or {}
        self.option_names = {}
        for name, option in self.engine.options.items():
            if option.players_choose:
                self.option_names[PREFIX + name] = name
                self.fields[PREFIX + name] = option_field(option)
                self.initial.setdefault(PREFIX + name, chosen.get(name, option.default))
        if STARTER in self.engine.options:
            self.fields[PREFIX + STARTER].help_text = starter_help(self.formats)
        if "mini_game" in self.engine.options:
            self.fields[PREFIX + "mini_game"].help_text = (
                "A Dobble series opens with the Towering Inferno and each mini-game's loser picks the next; "
                "other formats play this one every round."
            )

    def option_rows(self):
        """The game's option fields, for the template to show under their own heading."""
        return [self[name] for name in self.option_names]

    def setting_rows(self):
        """The settings every format has (the tiebreaks and the format groups come apart)."""
        apart = {*self.option_names, *TIEBREAK_FIELDS, *(name for *_, names in self.groups for name in names)}
        return [self[name] for name in self.fields if name not in apart]

    def tiebreak_rows(self):
        return [self[name] for name in TIEBREAK_FIELDS]

    def formats_computing_rounds(self) -> str:
        """The offered formats whose rounds follow from the field (the page hides the rounds for them)."""
        return " ".join(found.slug for found in self.formats if found.computes_its_rounds)

    def format_groups(self) -> list[dict]:
        """The settings of some formats only, each group with the formats (and seats) it is for."""
        return [
            {"legend": legend, "formats": " ".join(formats), "seats": seats, "rows": [self[n] for n in names]}
            for legend, formats, seats, names in self.groups
            if all(name in self.fields for name in names)
        ]

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        refuse_a_passed_start(starts_at, self.instance)
        return starts_at

    def clean_name(self) -> str:
        """One name per game (a series' events share theirs): a name taken is said, not a server error."""
        name = self.cleaned_data["name"]
        taken = Tournament.objects.filter(name=name, game=self.instance.game, series=None).exclude(pk=self.instance.pk)
        if self.instance.series_id is None and taken.exists():
            raise forms.ValidationError(
                f"There is a {self.engine.name} tournament called {name} already: choose another name."
            )
        return name

    def clean_forbidden_pairs(self) -> list[list[str]]:
        """"ann, bob" lines into pairs of usernames as spelled on the site; an unknown name is named.
        Only a Swiss pairs around them: other formats ignore the box (hidden on the page)."""
        chosen = registry.FORMATS.get(self.cleaned_data.get("format"))
        if chosen is None or "forbidden_pairs" not in chosen.every_setting():
            return []
        pairs = []
        for number, line in enumerate(self.cleaned_data.get("forbidden_pairs", "").splitlines(), start=1):
            if not line.strip():
                continue
            names = [name.strip() for name in line.split(",")]
            if len(names) != 2 or not all(names):
                raise forms.ValidationError(f'Line {number} ("{line.strip()}"): give two names, e.g. "ann, bob".')
            if names[0].lower() == names[1].lower():
                raise forms.ValidationError(f"Line {number}: {names[0]} is named twice.")
            pairs.append(names)
        wanted = {name.lower() for pair in pairs for name in pair}
        users = get_user_model().objects.annotate(lower=Lower("username")).filter(lower__in=wanted)
        spelled = dict(users.values_list("lower", "username"))
        unknown = [name for pair in pairs for name in pair if name.lower() not in spelled]
        if unknown:
            raise forms.ValidationError(
                f"No player is called {' or '.join(dict.fromkeys(unknown))}: check the spelling of the username."
            )
        return [[spelled[name.lower()] for name in pair] for pair in pairs]

    def clean(self):
        data = super().clean()
        for name in set(MAY_BE_LEFT_OUT) & set(self.fields):
            if data.get(name) in (None, ""):
                data[name] = Tournament._meta.get_field(name).get_default()  # left empty: the default
        chosen, seats = data.get("format"), data.get("table_size") or 2
        for _, formats, for_seats, names in self.groups:
            if chosen not in formats or for_seats and for_seats != ("2" if seats == 2 else "3+"):
                for name in set(names) & set(self.fields):
                    data[name] = Tournament._meta.get_field(name).get_default()  # hidden: not for this format
        picked = [data.get(name) or "" for name in TIEBREAK_FIELDS]
        order = [name for name in picked if name]
        refused = tiebreak_refused(registry.FORMATS.get(chosen), order)
        if order and not picked[0]:
            self.add_error("tiebreak_1", "Choose the first tiebreak before the second and third.")
        elif len(set(order)) < len(order):
            self.add_error("tiebreak_2", "Each tiebreak counts once: choose another, or none.")
        elif refused:
            self.add_error(TIEBREAK_FIELDS[picked.index(refused[0])], refused[1])
        self.instance.tiebreaks = [] if refused else order  # refused here, in words, not again by the model
        options = {name: data[field] for field, name in self.option_names.items() if field in data}
        try:
            seats = data.get("table_size") or self.engine.max_players
            self.instance.options = self.engine.clean_options(seats, options)
        except IllegalAction as error:
            raise forms.ValidationError(str(error)) from None
        return data

    def changes(self) -> dict:
        """The cleaned values an organizer may set, options and tiebreaks included (organizing.EDITABLE)."""
        fields = {name: self.cleaned_data[name] for name in self.Meta.fields if name in self.cleaned_data}
        return {**fields, "options": self.instance.options, "tiebreaks": self.instance.tiebreaks}


class HouseBotsForm(forms.Form):
    """How many copies of each of the game's house bots to enter."""

    def __init__(self, *args, game: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.bot_names = [name for name, _ in bot_strengths(game)]
        for name, strength in bot_strengths(game):
            self.fields[f"bots_{name}"] = forms.IntegerField(
                label=f"{strength} ({house_bot_username(name)})",
                min_value=0,
                max_value=64,
                initial=0,
                required=False,
            )

    def fit(self, max_entries: int) -> None:
        """Refuse, beside the bots' first field, more bots than the tournament has entries."""
        count = len(self.names())
        if count > max_entries:
            first = next(name for name in self.fields if self.cleaned_data.get(name))
            words = f"{count} house bots do not fit in {max_entries} entries: enter fewer, or allow more."
            self.add_error(first, words)

    def names(self) -> list[str]:
        """The bots to enter, one name per copy."""
        return [name for name in self.bot_names for _ in range(self.cleaned_data.get(f"bots_{name}") or 0)]


class CorrectionForm(forms.Form):
    """New points for each player at one scored table, and why (kept with the correction)."""

    reason = forms.CharField(
        max_length=200, help_text="Kept on the tournament page with your name, e.g. \"Illegal bid accepted\"."
    )

    def __init__(self, *args, players: list[tuple[int, str, float]], tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.entry_ids = [entry_id for entry_id, _, _ in players]
        # A Dobble mini-game takes points away (hot potato, the well); a Dudab total is a game's total, lowest best.
        rules = tournament.rules
        label = "Game total for {} (lower is better)" if rules.lowest_wins else "Points for {}"
        for entry_id, name, points in players:
            self.fields[f"points_{entry_id}"] = forms.FloatField(
                label=label.format(name), min_value=rules.lowest_correction, max_value=1000, initial=points
            )
        self.order_fields([f"points_{entry_id}" for entry_id in self.entry_ids] + ["reason"])

    def points(self) -> dict[int, float]:
        return {entry_id: self.cleaned_data[f"points_{entry_id}"] for entry_id in self.entry_ids}


def refuse_a_passed_start(starts_at, tournament) -> None:
    """A start time set in the past would start the tournament the moment it is saved, before
    anyone could enter (the dashboard's form and the admin's both ask it)."""
    if starts_at < timezone.now() - PAST_GRACE and starts_at != tournament.starts_at:
        raise forms.ValidationError("That time has passed: choose now or later.")
