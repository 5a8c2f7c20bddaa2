"""Tournaments in the admin, for staff and organizers (their own). Entries change only through the
services every page uses (organizing.enter_player, enter_house_bots, services.withdraw), so one set of
rules holds whichever page changes them: open entries, room, one owner's accounts apart, and a
house bot only ever on its own account's entry (the entry inline let in 3 entries in a max-2
tournament, and could put a house bot on a person's entry)."""

from django import forms
from django.contrib import admin, messages

from games.matches.errors import MatchError
from games.registry import bot_names
from tournaments import organizing
from tournaments.forms import refuse_a_passed_start
from tournaments.models import Entry, ScoreCorrection, Tournament


class AdminTournamentForm(forms.ModelForm):
    add_players = forms.CharField(
        required=False,
        help_text="Registered players to enter when saving, comma-separated usernames: the same rules as "
        "entering themselves (open entries, room, one owner's accounts apart).",
    )
    add_house_bots = forms.CharField(
        required=False,
        help_text="House bots to enter when saving, comma-separated, e.g. heuristic, random, heuristic "
        "(Dobble, weakest first: random, easy, medium, hard).",
    )

    class Meta:
        model = Tournament
        fields = "__all__"

    def clean_starts_at(self):
        starts_at = self.cleaned_data["starts_at"]
        refuse_a_passed_start(starts_at, self.instance)
        return starts_at

    def clean_add_house_bots(self) -> list[str]:
        names = [name.strip() for name in self.cleaned_data["add_house_bots"].split(",") if name.strip()]
        game = self.cleaned_data.get("game")
        unknown = [name for name in names if game and name not in bot_names(game)]
        if unknown:
            raise forms.ValidationError(f"No such house bot: {', '.join(unknown)}.")
        if names and self.instance.pk and not self.instance.is_open:
            raise forms.ValidationError("Entries are closed: the tournament has started.")
        return names

    def clean_add_players(self) -> list[str]:
        return [name.strip() for name in self.cleaned_data["add_players"].split(",") if name.strip()]

    def clean(self):
        cleaned = super().clean()
        adding = len(cleaned.get("add_players") or []) + len(cleaned.get("add_house_bots") or [])
        room = cleaned.get("max_entries")
        entered = self.instance.entries.count() if self.instance.pk else 0
        if adding and room is not None and entered + adding > room:
            raise forms.ValidationError(
                f"{entered} entered and {adding} to add would make {entered + adding}: this tournament takes {room}."
            )
        return cleaned


class EntryInline(admin.TabularInline):
    """Entries, read only: they change through the fields above and the organizer pages, where
    every entry rule applies (see the module's docstring)."""

    model = Entry
    extra = 0
    fields = readonly_fields = ["user", "house_bot", "seed", "rating", "checked_in_at", "withdrawn_after"]

    def has_view_permission(self, request, obj=None):
        return True  # whoever sees the tournament (TournamentAdmin decides) sees who entered it

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = AdminTournamentForm
    list_display = ["name", "game", "format", "starts_at", "status", "organizer"]
    list_filter = ["game", "status", "format"]
    search_fields = ["name"]
    inlines = [EntryInline]
    # The runner sets these; a series' beat, the series.
    readonly_fields = ["status", "started_at", "finished_at", "cancelled_because", "series"]
    # Once started, what the rounds are made of is fixed: the game, its table size, its format...
    # (an organizer changed a running Dudo Swiss to Dobble at tables of 3). Words stay editable.
    EDITABLE_ONCE_STARTED = {"name", "description", "organizer"}

    def get_fields(self, request, obj=None):
        fields = super().get_fields(request, obj)
        adding = ("add_players", "add_house_bots")
        return fields if obj is None or obj.is_open else [name for name in fields if name not in adding]

    def get_readonly_fields(self, request, obj=None):
        if obj is None or obj.is_open:
            return self.readonly_fields
        fixed = [field.name for field in Tournament._meta.fields if field.name not in self.EDITABLE_ONCE_STARTED]
        return [name for name in fixed if name != "id"]
    actions = ["cancel"]

    def get_exclude(self, request, obj=None):
        """Organizers organize their own tournaments; only superusers pick somebody else."""
        return [] if request.user.is_superuser else ["organizer"]

    @admin.action(description="Cancel the selected tournaments that have not finished")
    def cancel(self, request, queryset):
        cancelled, left = [], []
        for tournament in queryset:
            try:
                organizing.cancel(request.user, tournament.pk)  # its entrants hear of it
                cancelled.append(tournament.name)
            except (MatchError, Tournament.DoesNotExist):  # over already, or not this user's
                left.append(tournament.name)
        said = f"Cancelled: {', '.join(cancelled)}." if cancelled else "Nothing was cancelled."
        if left:
            said += f" Left as they were (over already, or not yours): {', '.join(left)}."
        self.message_user(request, said)

    def has_module_permission(self, request):
        return request.user.is_active and (request.user.is_staff or getattr(request.user, "can_organize", False))

    def has_view_permission(self, request, obj=None):
        return self.has_module_permission(request)

    def has_add_permission(self, request):
        return self.has_module_permission(request)

    def has_change_permission(self, request, obj=None):
        return self.has_module_permission(request) and (
            obj is None or request.user.is_superuser or obj.organizer_id == request.user.pk
        )

    def get_actions(self, request):
        """No bulk delete: it would not ask each tournament whether it ever started."""
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    def has_delete_permission(self, request, obj=None):
        """Only one that never started: a started one is cancelled instead, and its record kept
        (an organizer deleted a running event, its results with it, in one click)."""
        never_started = obj is None or obj.status == Tournament.Status.SCHEDULED or (
            obj.status == Tournament.Status.CANCELLED and obj.started_at is None
        )
        return self.has_change_permission(request, obj) and never_started

    def save_model(self, request, obj, form, change):
        if not change and not obj.organizer_id:
            obj.organizer = request.user
        super().save_model(request, obj, form, change)

    def save_related(self, request, form, formsets, change):
        """The entries to add go through the organizer's own services, one at a time: one refused
        (entered already, one owner's accounts) is said, and the others are still entered."""
        super().save_related(request, form, formsets, change)
        tournament_id = form.instance.pk
        for name in form.cleaned_data.get("add_players", []):
            self.refused_said(request, lambda name=name: organizing.enter_player(request.user, tournament_id, name))
        bots = form.cleaned_data.get("add_house_bots", [])
        if bots:
            self.refused_said(request, lambda: organizing.enter_house_bots(request.user, tournament_id, bots))

    def refused_said(self, request, change) -> None:
        try:
            change()
        except MatchError as error:
            self.message_user(request, error.message, messages.ERROR)


@admin.register(ScoreCorrection)
class ScoreCorrectionAdmin(admin.ModelAdmin):
    """The audit trail of result corrections (made with services.correct_result): read only."""

    list_display = ["table", "by", "at", "reason"]
    readonly_fields = ["table", "by", "at", "reason", "before", "after"]

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False
