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
from tournaments import brackets, rounds, running, services
from tournaments.crosstable import crosstable
from tournaments.models import ScoreCorrection, Tournament
from tournaments.standings import (
    buchholz_counting,
    dobble_points,
    scoring_words,
    size_factors,
    standings,
    tiebreak_labels,
)


def tournament_list(request):
    return render(
        request,
        "tournaments/list.html",
        {
            "upcoming": Tournament.objects.filter(status=Tournament.Status.SCHEDULED).select_related("organizer"),
            "running": Tournament.objects.filter(
                status__in=[Tournament.Status.RUNNING, Tournament.Status.PAUSED]
            ).select_related("organizer"),
            "recent": Tournament.objects.filter(
                status__in=[Tournament.Status.FINISHED, Tournament.Status.CANCELLED]
            ).order_by("-starts_at")[:20],
        },
    )


def tournament_detail(request, tournament_id: int):
    tournament = get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)
    entries = tournament.entries.select_related("user")
    mine = entries.filter(user=request.user).first() if request.user.is_authenticated else None
    ratings = entrants_ratings(tournament) if tournament.is_open else {}
    tables = tournament.tables.select_related("match", "chooser__user")
    # A Dobble series table waits for its chooser's mini-game; a knockout's bye has no match and no chooser.
    my_choice = next(
        (
            t
            for t in tables
            if t.match is None and t.chooser is not None and request.user.is_authenticated
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
                and tournament.format in services.RESEATING
                and (my_table is not None or tournament.current_round < tournament.rounds)
            ),
            "scoring": scoring_words(tournament),
            "my_choice": my_choice,
            "mini_games": get_game("dobble").options["mini_game"].named_choices() if my_choice else (),
            "entrants": [(entry, ratings.get(entry.user_id)) for entry in entries] if tournament.is_open else [],
            **results(tournament),
        },
    )


def results(tournament: Tournament) -> dict:
    """Standings (with seeds and ladder ratings) and every round's tables and byes in words,
    for the public page and the organizer's (_results.html)."""
    names = {entry.pk: entry.user.username for entry in tournament.entries.select_related("user")}
    knockout = tournament.format == Tournament.Format.KNOCKOUT
    found = brackets.bracket(tournament) if knockout else []
    stages = brackets.stage_names(tournament, found) if knockout else {}
    headings = {number: name for number, name in stages.items() if name != f"Round {number}"}  # "Round 2: final"
    rows = with_ratings(tournament, standings(tournament)) if tournament.status != Tournament.Status.SCHEDULED else []
    return {
        "standings": rows,
        "late_entrants": any(row["missed"] for row in rows),
        "rounds": [(number, tables, headings.get(number, "")) for number, tables in rounds.lines(tournament).items()],
        "tiebreaks": tiebreak_labels(tournament),
        "buchholz_counting": buchholz_counting(tournament),
        "unplayed_rounds": [row for row in rows if row.get("unplayed")],
        "size_factors": size_factors(tournament),
        "size_shifts": dobble_shifts(tournament),
        "bracket": bracket_rows(tournament, names, found, stages),
        "games_won_apart": tournament.format == Tournament.Format.KNOCKOUT
        and tournament.table_size == 2
        and tournament.best_of > 1,
        "corrections": correction_rows(tournament, names),
        "crosstable": crosstable(tournament, rows) if tournament.format == Tournament.Format.ROUND_ROBIN else [],
        "starting_rating": round(START),
    }


def dobble_shifts(tournament: Tournament) -> list[dict]:
    """A Dobble series at tables of different sizes: what each mini-game's points are shifted
    by per size, to be shown beside the standings (standings.dobble_points)."""
    if tournament.format != Tournament.Format.DOBBLE_SERIES:
        return []
    _, shifts = dobble_points(tournament)
    return [{"mini_game": mini_game, "size": size, "shift": shift} for (mini_game, size), shift in shifts.items()]


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
    """Every result correction in words: which table, who, when, each player's points before → after, why."""
    rows = []
    for correction in ScoreCorrection.objects.filter(table__tournament=tournament).select_related("table", "by"):
        changes = [
            {"player": names[int(entry_id)], "before": correction.before.get(entry_id), "after": after}
            for entry_id, after in correction.after.items()
            if correction.before.get(entry_id) != after  # only what the correction changed
        ]
        rows.append({"correction": correction, "changes": changes})
    return rows


def bracket_rows(tournament: Tournament, names: dict[int, str], found: list, stages: dict[int, str]) -> list[dict]:
    """The knockout bracket in words: each round's pairings, games won, who went through (the final: who won)."""
    rows = []
    for index, slots in enumerate(found):
        pairings = []
        seated_next = {p for slot in found[index + 1] for p in slot.players} if index + 1 < len(found) else set()
        for slot in slots:
            wins = [sum(1 for w in slot.game_winners if w == p) for p in slot.players]
            won_final = tournament.status == Tournament.Status.FINISHED and slots is found[-1] and slot.finish
            through = [slot.winner] if slot.winner else slot.finish[0] if won_final else slot.through
            places = won_final and tournament.table_size > 2  # the final table's order gives the podium
            pairings.append(
                {
                    "players": [names[p] for p in slot.players],
                    "score": series_score(tournament, slot, wins),
                    "through": [names[p] for p in through if p],
                    "places": rounds.places_words(slot.finish, names) if places else "",
                    "by_seed": f"level after {len(slot.game_winners)} games: the higher seed goes through"
                    if slot.by_seed
                    else "",
                    # too few went through to fill a table: the best next places joined them (brackets.following_round)
                    "joined": [names[p] for p in slot.players if p in seated_next and p not in through],
                }
            )
        rows.append({"round": slots[0].round, "name": stages[slots[0].round], "pairings": pairings})
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED) and rows:
        rows += rounds_to_come(rows, stages) if tournament.table_size == 2 else tables_to_come(tournament, rows, stages)
    return rows


def series_score(tournament: Tournament, slot, wins: list[int]) -> str:
    """A two-seat pairing's games won ("2–1"), or "walkover" where it was not played over the
    board (a forfeit read as "1–0", a win at the table)."""
    if tournament.table_size != 2 or len(wins) < 2:
        return ""
    return "walkover" if slot.walkover() else "–".join(str(won) for won in wins)


def tables_to_come(tournament: Tournament, rows: list[dict], stages: dict[int, str]) -> list[dict]:
    """A multi-table knockout's rounds not yet seated: who they will be is known only once the
    tables before are played (the players going through are dealt again by seed), so each says
    where its players come from."""
    through = tournament.advance or tournament.table_size // 2
    top = "the winner" if through == 1 else f"the top {through}"
    to_come = []
    for number in range(rows[-1]["round"] + 1, tournament.rounds + 1):
        before = stages.get(number - 1, f"round {number - 1}").lower()
        words = f"{top} of each table of {before}, dealt again by seed"
        pairing = {"players": [words], "to_come": True}
        to_come.append({"round": number, "name": stages.get(number, ""), "pairings": [pairing]})
    return to_come


def rounds_to_come(rows: list[dict], stages: dict[int, str]) -> list[dict]:
    """A bracket's rounds not yet seated, as a club draws them on the wall: neighbouring pairings'
    winners meet (knockout.next_round), named where already known, else "winner of semi-final 2"."""
    to_come = []
    last = rows[-1] if rows else None
    while last and len(last["pairings"]) > 1:
        feeders = [
            item["through"][0] if item.get("through") else f"winner of {last['name'].lower()} {number}"
            for number, item in enumerate(last["pairings"], start=1)
        ]
        pairings = [{"players": feeders[i : i + 2], "to_come": True} for i in range(0, len(feeders), 2)]
        last = {"round": last["round"] + 1, "name": stages.get(last["round"] + 1, ""), "pairings": pairings}
        to_come.append(last)
    return to_come


@require_POST
@login_required
def choose_mini_game(request, tournament_id: int):
    """From the table of the mini-game the chooser lost, or the tournament page: chosen, they go
    straight to the new game's table (it starts at once)."""
    try:
        table = running.choose(tournament_id, request.user, request.POST.get("mini_game", ""))
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
