from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_POST

from games.engine import get_game
from games.matches.errors import MatchError
from games.matches.models import Match
from ratings.elo import START
from ratings.services import ladder_ratings
from tournaments import arena_pages, rounds, services
from tournaments.formats import dobble_series
from tournaments.formats.arena import Arena
from tournaments.models import ScoreCorrection, Tournament
from tournaments.standings import buchholz_counting, standings, tiebreak_labels


def tournament_list(request):
    entered = (
        set(
            request.user.tournament_entries.filter(withdrawn_after__isnull=True).values_list("tournament_id", flat=True)
        )
        if request.user.is_authenticated
        else set()
    )
    return render(
        request,
        "tournaments/list.html",
        {
            "entered": entered,
            "running": Tournament.objects.filter(status__in=[Tournament.Status.RUNNING, Tournament.Status.PAUSED])
            .select_related("organizer")
            .order_by("starts_at"),
            "upcoming": Tournament.objects.filter(status=Tournament.Status.SCHEDULED)
            .select_related("organizer")
            .order_by("starts_at"),
            "recent": Tournament.objects.filter(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ).order_by("-starts_at")[:20],
        },
    )


# Formats whose page is their own: an arena's players join and leave it, and follow a live leaderboard.
OWN_PAGES = {Arena.slug: arena_pages.arena_page}


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    own_page = OWN_PAGES.get(tournament.format)
    if own_page is not None:
        return own_page(request, tournament)
    entries = tournament.entries.select_related("user")
    mine = entries.filter(user=request.user).first() if request.user.is_authenticated else None
    ratings = entrants_ratings(tournament) if tournament.is_open else {}
    tables = tournament.tables.select_related("match", "chooser__user")
    # A Dobble series table waits for its chooser's mini-game; a knockout's bye has no match and no chooser.
    my_choice = next(
        (
            t
            for t in tables
            if t.match is None
            and t.chooser is not None
            and request.user.is_authenticated
            and t.chooser.user == request.user
        ),
        None,
    )
    # The table where the visitor is to play now: its link leads the page.
    my_table = next(
        (t for t in tables if mine and t.match and t.match.status == Match.Status.RUNNING and mine.pk in t.seating),
        None,
    )
    return render(
        request,
        "tournaments/detail.html",
        {
            "tournament": tournament,
            "my_table": my_table,
            "entries": entries,
            "entered": mine is not None and mine.withdrawn_after is None,
            "mine": mine,
            "accepts_entries": services.accepts_entries(tournament),
            # In the last round only a game under way is left to withdraw from.
            "can_withdraw": tournament.is_open
            or (
                tournament.status in ("running", "paused")
                and tournament.rules.reseats
                and (my_table is not None or tournament.current_round < tournament.rounds)
            ),
            "scoring": tournament.rules.scoring_words(),
            "my_choice": my_choice,
            "mini_games": get_game("dobble").options["mini_game"].named_choices() if my_choice else (),
            "entrants": [(entry, ratings.get(entry.user_id)) for entry in entries] if tournament.is_open else [],
            **results(tournament),
        },
    )


def results(tournament: Tournament) -> dict:
    """Standings (with seeds and ladder ratings) and every round's tables and byes in words,
    for the public page and the organizer's (_results.html), with what the format adds (a
    bracket, a crosstable...)."""
    names = {entry.pk: entry.user.username for entry in tournament.entries.select_related("user")}
    rules = tournament.rules
    headings = rules.round_headings()  # "Round 2: final"
    rows = with_ratings(tournament, standings(tournament)) if tournament.status != Tournament.Status.SCHEDULED else []
    return {
        "standings": rows,
        "late_entrants": any(row["missed"] for row in rows),
        "rounds": [(number, tables, headings.get(number, "")) for number, tables in rounds.lines(tournament).items()],
        "tiebreaks": tiebreak_labels(tournament),
        "buchholz_counting": buchholz_counting(tournament),
        "unplayed_rounds": [row for row in rows if row.get("unplayed")],
        "corrections": correction_rows(tournament, names),
        "starting_rating": round(START),
        "rules": rules,
        **rules.results_parts(rows, names),
    }


def with_ratings(tournament: Tournament, rows: list[dict]) -> list[dict]:
    """Standings rows with each player's rating: the one their seed was made by (Entry.rating),
    a late entrant's now; None for a player with no rated game."""
    ratings = entrants_ratings(tournament)
    for row in rows:
        entry = row["entry"]
        row["rating"] = entry.rating if entry.seed is not None else ratings.get(entry.user_id)
    return rows


def entrants_ratings(tournament: Tournament) -> dict[int, float]:
    """Each entrant's rating on the game's ladder now, by account: before the start, and for late
    entrants, who have no seed (the seeded show the rating their seed was made by, Entry.rating)."""
    return ladder_ratings(tournament.game, tournament.entries.values("user_id"))


def correction_rows(tournament: Tournament, names: dict[int, str]) -> list[dict]:
    """Every result correction in words: which table, who, when, each player's points before → after
    (those it changed; all of them where it changed how the points count, not the figures: a
    walkover made a game played, or an older correction of a stopped game, stored as 0 → 0), why."""
    rows = []
    for correction in ScoreCorrection.objects.filter(table__tournament=tournament).select_related("table", "by"):
        changes = [
            {"player": names[int(entry_id)], "before": correction.before.get(entry_id), "after": after}
            for entry_id, after in correction.after.items()
        ]
        changed = [change for change in changes if change["before"] != change["after"]]
        double = ""
        if tournament.rules.double_forfeit(correction.after):
            double = f"a double forfeit: no game for {'either' if len(changes) == 2 else 'anyone'}"
        rows.append({"correction": correction, "changes": changed or changes, "double_forfeit": double})
    return rows


@require_POST
@login_required
def choose_mini_game(request, tournament_id: int):
    """From the table of the mini-game the chooser lost, or the tournament page: chosen, they go
    straight to the new game's table (it starts at once)."""
    try:
        table = dobble_series.choose(tournament_id, request.user, request.POST.get("mini_game", ""))
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("tournament", tournament_id=tournament_id)
    messages.info(request, "Chosen: the next mini-game starts now.")
    return redirect("table", match_id=table.match_id)


def entered_words(tournament: Tournament) -> str:
    """What a new entrant must still do: check in, when the tournament asks for it."""
    if tournament.is_open and tournament.check_in_minutes:
        starts = timezone.localtime(tournament.starts_at)
        opens = starts - timedelta(minutes=tournament.check_in_minutes)
        return (
            f"You are entered. Check in on this page between {opens:%H:%M} and the start at "
            f"{starts:%H:%M} {starts.tzname()}, or you will not be paired."
        )
    return "You are entered. Good luck!"


@login_required
def confirm_withdrawal(request, tournament_id: int):
    """Withdrawing from a running tournament is asked first, as the organizer's withdrawal is:
    one mis-tap on a phone would take a player out of the event."""
    tournament = get_object_or_404(Tournament, pk=tournament_id, entries__user=request.user)
    return render(request, "tournaments/withdraw.html", {"tournament": tournament})


@require_POST
@login_required
def enter_or_withdraw(request, tournament_id: int):
    try:
        if request.POST.get("withdraw"):
            services.withdraw(tournament_id, request.user)
            messages.info(request, "You have withdrawn.")
        elif request.POST.get("check_in"):
            services.check_in(tournament_id, request.user)
            messages.info(request, "You are checked in: you will be paired when the tournament starts.")
        else:
            entry = services.enter(tournament_id, request.user)
            messages.info(request, entered_words(entry.tournament))
    except MatchError as error:
        messages.error(request, error.message)
    return redirect("tournament", tournament_id=tournament_id)
