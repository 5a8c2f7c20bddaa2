"""The organizer dashboard: thin views over organizing.py (the Django admin stays for staff)."""

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from games.engine import GAMES
from games.matches.errors import MatchError
from games.matches.models import Match
from tournaments import organizing, running, series, services
from tournaments.forms import CorrectionForm, HouseBotsForm, TournamentForm
from tournaments.models import Score, Series, Tournament, may_organize
from tournaments.views import results

Status = Tournament.Status
ACTIONS = {
    "start": (organizing.start_now, "Started: round 1 is being seated."),
    "pause": (organizing.pause, "Paused: matches under way finish, no new table is seated."),
    "resume": (organizing.resume, "Resumed."),
    "cancel": (organizing.cancel, "Cancelled."),
}

# What each action can change: asked on any other tournament, the page says so instead of asking.
ACTS_ON = {
    "start": {Status.SCHEDULED},
    "pause": {Status.RUNNING},
    "resume": {Status.PAUSED},
    "cancel": {Status.SCHEDULED, Status.RUNNING, Status.PAUSED},
}


def organizer_required(view):
    @login_required
    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not may_organize(request.user):
            # A page that says why, not a PermissionDenied: that would log a traceback for a mere 403.
            return render(request, "tournaments/dashboard/organizers_only.html", status=403)
        return view(request, *args, **kwargs)

    return wrapped


def managed(request, tournament_id: int) -> Tournament:
    """A tournament the user may manage; anybody else's is as missing as one that does not exist."""
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    if not tournament.managed_by(request.user):
        raise Http404("No tournament of yours")
    return tournament


@organizer_required
def dashboard(request):
    mine = organizing.visible_to(request.user).order_by("-starts_at")
    return render(
        request,
        "tournaments/dashboard/index.html",
        {
            "games": GAMES.values(),
            "sees_all": organizing.sees_all(request.user),
            "current": [t for t in mine if t.status in (Status.SCHEDULED, Status.RUNNING, Status.PAUSED)],
            "past": [t for t in mine if t.status in (Status.FINISHED, Status.CANCELLED)][:50],
        },
    )


@organizer_required
@require_http_methods(["GET", "POST"])
def new(request, game: str):
    if game not in GAMES:
        raise Http404("No such game")
    post = request.POST if request.method == "POST" else None
    form, bots = TournamentForm(post, game=game), HouseBotsForm(post, game=game)
    if post and form.is_valid() and bots.is_valid():
        bots.fit(form.cleaned_data["max_entries"])
    if post and form.is_valid() and bots.is_valid():
        try:
            tournament = organizing.create(request.user, game, form.changes(), bots.names())
        except MatchError as error:
            form.add_error(None, error.message)
        else:
            messages.info(request, f"{tournament.name} is scheduled.")
            return redirect("organize-tournament", tournament_id=tournament.pk)
    context = {"form": form, "bots": bots, "engine": GAMES[game], "tournament": None}
    return render(request, "tournaments/dashboard/form.html", context)


@organizer_required
@require_http_methods(["GET", "POST"])
def edit(request, tournament_id: int):
    tournament = managed(request, tournament_id)
    if tournament.status != Status.SCHEDULED:
        messages.error(request, "The tournament has started: it can no longer be edited.")
        return redirect("organize-tournament", tournament_id=tournament.pk)
    form = TournamentForm(request.POST or None, instance=tournament, game=tournament.game)
    if request.method == "POST" and form.is_valid():
        try:
            organizing.edit(request.user, tournament.pk, form.changes())
        except MatchError as error:  # e.g. more entered meanwhile than it now allows: the form stays
            form.add_error("max_entries" if error.code == "too_many_entered" else None, error.message)
        else:
            messages.info(request, "Saved.")
            return redirect("organize-tournament", tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/dashboard/form.html",
        {"form": form, "bots": None, "engine": GAMES[tournament.game], "tournament": tournament},
    )


@organizer_required
def manage(request, tournament_id: int):
    tournament = get_object_or_404(organizing.visible_to(request.user), pk=tournament_id)
    entries = list(tournament.entries.select_related("user"))
    players = [entry for entry in entries if not entry.house_bot]  # house bots need not check in
    return render(
        request,
        "tournaments/dashboard/manage.html",
        {
            "tournament": tournament,
            "may_manage": tournament.managed_by(request.user),
            "sees_all": organizing.sees_all(request.user),
            "entries": entries,
            "checked_in": sum(1 for entry in players if entry.checked_in_at),
            "players": len(players),
            "withdrawal_refused": services.withdrawal_refused(tournament),
            "accepts_entries": services.accepts_entries(tournament),
            "may_pair_again": not services.pairing_again_refused(tournament),
            "bots": HouseBotsForm(game=tournament.game),
            "every": Series.Every.choices,
            **results(tournament),
        },
    )


@organizer_required
@require_http_methods(["GET", "POST"])
def repeat(request, tournament_id: int):
    """Asks first (GET: one click would make a series without end, and the button sits under Pause
    and Cancel), then repeats the tournament every hour, day or week (the zone is the organizer's
    own); or stops its series."""
    if request.method == "GET":
        tournament = managed(request, tournament_id)
        every = request.GET.get("every", "")
        refused = "" if every in Series.Every.values else "Repeat it every hour, every day or every week."
        if tournament.series_id:
            refused = f"{tournament.name} is already one of the series {tournament.series}."
        if refused:
            messages.error(request, refused)
            return redirect("organize-tournament", tournament_id=tournament_id)
        planned = Series(name=tournament.name, every=every, time_zone=timezone.get_current_timezone_name())
        context = {"tournament": tournament, "series": planned, "every": planned.get_every_display().lower(),
                   "next_start": series.next_start(planned, tournament.starts_at, timezone.now())}  # fmt: skip
        return render(request, "tournaments/dashboard/repeat.html", context)
    try:
        if request.POST.get("stop"):
            made = organizing.stop_repeating(request.user, tournament_id)
            messages.info(request, f"The series {made.name} creates no more events.")
        else:
            zone = timezone.get_current_timezone_name()
            made = organizing.repeat(request.user, tournament_id, request.POST.get("every", ""), zone)
            every = made.get_every_display().lower()
            messages.info(request, f"Repeated {every}: the next event is listed one period ahead.")
    except Tournament.DoesNotExist:
        raise Http404("No tournament of yours") from None
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("organize-tournament", tournament_id=tournament_id)


@organizer_required
@require_http_methods(["GET", "POST"])
def act(request, tournament_id: int, action: str):
    """Asks first (GET) for what cannot be undone, starting and cancelling; then does it."""
    if action not in ACTIONS:
        raise Http404("No such action")
    if request.method == "GET":
        tournament = managed(request, tournament_id)
        if tournament.status not in ACTS_ON[action]:
            status = tournament.get_status_display().lower()
            messages.error(request, f"{tournament.name} is {status}: nothing to {action}.")
            return redirect("organize-tournament", tournament_id=tournament_id)
        context = {
            "tournament": tournament,
            "action": action,
            "entered": tournament.entries.count(),
            "left_out": organizing.left_out_at_start(tournament) if action == "start" else [],
            "tables_under_way": tournament.tables.filter(match__status=Match.Status.RUNNING).count(),
        }
        return render(request, "tournaments/dashboard/confirm.html", context)
    change, done = ACTIONS[action]
    try:
        tournament = change(request.user, tournament_id)
    except Tournament.DoesNotExist:
        raise Http404("No tournament of yours") from None
    except MatchError as error:
        messages.error(request, error.message)
    else:
        if action == "start" and tournament.status == Status.CANCELLED:
            messages.error(request, "Too few entries to start: the tournament was cancelled.")
        else:
            messages.info(request, done)
    return redirect("organize-tournament", tournament_id=tournament_id)


@organizer_required
@require_POST
def add_bots(request, tournament_id: int):
    tournament = managed(request, tournament_id)
    form = HouseBotsForm(request.POST, game=tournament.game)
    if not form.is_valid():
        messages.error(request, "Give each number of house bots as a whole number from 0 to 64.")
    else:
        try:
            entered = organizing.enter_house_bots(request.user, tournament.pk, form.names())
            messages.info(request, f"{entered} house bot{'s' if entered != 1 else ''} entered.")
        except MatchError as error:
            messages.error(request, error.message)
    return redirect("organize-tournament", tournament_id=tournament.pk)


@organizer_required
@require_http_methods(["GET", "POST"])
def withdraw_entry(request, tournament_id: int, entry_id: int):
    """Ask first, then take the entrant out: removed before the start, withdrawn between rounds."""
    tournament = managed(request, tournament_id)
    entry = get_object_or_404(tournament.entries.select_related("user"), pk=entry_id)
    if request.method == "GET":
        context = {"tournament": tournament, "entry": entry, "refused": services.withdrawal_refused(tournament)}
        return render(request, "tournaments/dashboard/withdraw.html", context)
    try:
        entry = services.withdraw(tournament.pk, request.user, entry.pk)
    except MatchError as error:
        messages.error(request, error.message)
    else:
        if entry.withdrawn_after is None:
            messages.info(request, f"{entry.user.username} is no longer entered.")
        else:
            messages.info(request, f"{entry.user.username} is withdrawn: not paired again, still in the standings.")
    return redirect("organize-tournament", tournament_id=tournament.pk)


@organizer_required
@require_POST
def enter_player(request, tournament_id: int):
    username = request.POST.get("username", "")
    return change_entry(
        request,
        tournament_id,
        lambda tournament: organizing.enter_player(request.user, tournament.pk, username),
        "{} is entered.",
    )


@organizer_required
@require_POST
def check_in(request, tournament_id: int, entry_id: int):
    return change_entry(
        request,
        tournament_id,
        lambda tournament: services.check_in(tournament.pk, request.user, entry_id),
        "{} is checked in.",
    )


@organizer_required
@require_POST
def pair_again(request, tournament_id: int, entry_id: int):
    """Pair a withdrawn player again (one button: it undoes nothing that cannot be withdrawn again)."""
    return change_entry(
        request,
        tournament_id,
        lambda tournament: organizing.pair_again(request.user, tournament.pk, entry_id),
        "{} is paired again from the next round.",
    )


def change_entry(request, tournament_id: int, change, done: str):
    """One organizer's change to one entry, then back to the tournament saying what became of
    the player (`done` names them) or why nothing did."""
    tournament = managed(request, tournament_id)
    try:
        entry = change(tournament)
    except MatchError as error:
        messages.error(request, error.message)
    else:
        messages.info(request, done.format(entry.user.username))
    return redirect("organize-tournament", tournament_id=tournament.pk)


@organizer_required
@require_http_methods(["GET", "POST"])
def stop_table(request, tournament_id: int, table_id: int):
    """Asks first (GET), then stops a table's game for nobody (organizing.stop_table)."""
    tournament = managed(request, tournament_id)
    table = get_object_or_404(tournament.tables.select_related("match"), pk=table_id)
    if request.method == "GET":
        names = dict(tournament.entries.filter(pk__in=table.seating).values_list("pk", "user__username"))
        players = [names[e] for e in table.seating]
        return render(request, "tournaments/dashboard/stop_table.html", {"tournament": tournament, "table": table,
                                                                          "players": players})  # fmt: skip
    try:
        organizing.stop_table(request.user, tournament.pk, table.pk)
    except MatchError as error:
        messages.error(request, error.message)
    else:
        messages.info(
            request,
            f"Round {table.round}, table {table.number} stopped: it counts for nobody. "
            "Correct its result to give points.",
        )
    return redirect("organize-tournament", tournament_id=tournament.pk)


@organizer_required
@require_http_methods(["GET", "POST"])
def correct(request, tournament_id: int, table_id: int):
    """Correct a finished table's points with a reason; the standings are recomputed from them."""
    tournament = managed(request, tournament_id)
    table = get_object_or_404(tournament.tables, pk=table_id)
    if not table.scored or len(table.seating) < 2:
        messages.error(request, "That table has no result to correct yet.")
        return redirect("organize-tournament", tournament_id=tournament.pk)
    if tournament.rules.corrections_refused:
        messages.error(request, tournament.rules.corrections_refused)
        return redirect("organize-tournament", tournament_id=tournament.pk)
    names = dict(tournament.entries.filter(pk__in=table.seating).values_list("pk", "user__username"))
    points = dict(Score.objects.filter(table=table).values_list("entry_id", "points"))
    seats = running.seat_order_of(tournament, table)  # as they sat at this table: fixed tables turn each round
    form = CorrectionForm(
        request.POST or None, players=[(e, names[e], points.get(e, 0.0)) for e in seats], tournament=tournament
    )
    if request.method == "POST" and form.is_valid():
        try:
            services.correct_result(table.pk, request.user, form.points(), form.cleaned_data["reason"])
        except MatchError as error:
            form.add_error(None, error.message)
        else:
            messages.info(request, f"Round {table.round}, table {table.number} corrected: the standings are updated.")
            return redirect("organize-tournament", tournament_id=tournament.pk)
    return render(
        request,
        "tournaments/dashboard/correct.html",
        {"tournament": tournament, "table": table, "form": form, "players": [names[e] for e in seats]},
    )
