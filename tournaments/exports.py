"""Standings and pairings to take away: CSV and JSON downloads, and a printable round sheet."""

import csv
import io

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from tournaments import rounds, tiebreaks
from tournaments.models import Tournament
from tournaments.standings import standings, tiebreak_labels
from tournaments.views import with_ratings


def standings_rows(tournament: Tournament) -> tuple[list[str], list[list]]:
    """Place (None for a knockout player still in, as the page's "—"), player, seed, rating (the
    seed's; None unrated), points (a knockout: the round reached, in words), each tiebreak by name."""
    rules = tournament.rules
    games_won = rules.games_won_apart()  # as the page shows them
    names = [column_name(label["label"]) for label in tiebreak_labels(tournament)]
    header = ["place", "player", "seed", "rating", rules.ranked_by(), *(["games won"] * games_won),
              *names, "played", "withdrawn", "entered late"]  # fmt: skip
    rows = [
        [None if row["still_in"] else row["place"], row["player"], row["seed"],
         None if row["rating"] is None else round(row["rating"]),
         row["reached"] if rules.ranks_by_round_reached else numeric(row["points"]), *([row["games_won"]] * games_won),
         *map(numeric, row["tiebreaks"]), row["played"], row["withdrawn"], row["missed"] > 0]
        for row in with_ratings(tournament, standings(tournament))
    ]  # fmt: skip
    return header, rows


# Names a column keeps capitalised, as prose does: every other header word is in lower case.
PROPER_NAMES = ("Buchholz", "Sonneborn-Berger")


def column_name(label: str) -> str:
    """A tiebreak's label as a header, in the case of the others ("played", "entered late"): "Direct
    encounter" -> "direct encounter", "Median Buchholz" -> "median Buchholz"; "Buchholz cut 1" keeps its name."""
    return label if label.startswith(PROPER_NAMES) else label[:1].lower() + label[1:]


def numeric(value):
    """Points and tiebreaks as people write them, one type a column: 1.667, not
    1.6666666666666665, and 1.0 where a count of wins is a whole number; None (blank in the
    CSV, null in JSON) where one does not apply."""
    return round(float(value), 3) if isinstance(value, int | float) and not isinstance(value, bool) else value


def pairing_lines(tournament: Tournament) -> tuple[int, list[rounds.Line]]:
    found = [line for lines in rounds.lines(tournament).values() for line in lines]
    return max([tournament.table_size, *(len(line.players) for line in found)]), found


def pairings_rows(tournament: Tournament, site: str = "") -> tuple[list[str], list[list]]:
    """One row per table or bye: round, table (a knockout's pairing and game), a column per seat
    (in seat order), who starts (so who moved first, a Swiss's colours, can be checked), the points
    per seat, the result in words, the game's page (a link a spreadsheet opens; `site` is the
    address the export was asked at); a Dobble series adds each table's mini-game and who chose it."""
    seats, found = pairing_lines(tournament)
    numbers = range(1, seats + 1)
    series = tournament.rules.chooses_mini_games
    header = ["round", "table", *(f"seat {n}" for n in numbers), "starts", *(f"points {n}" for n in numbers)]
    header += ["result", "game", *["mini-game", "chosen"] * series]
    rows = []
    for line in found:
        padding = [""] * (seats - len(line.players))
        points = ["" if p is None else tiebreaks.figure(p) for p in line.points]
        game = f"{site}/match/{line.table.match_id}/" if line.table and line.table.match_id else ""
        row = [line.round, line.where, *line.players, *padding, starter(line), *points, *padding, line.result, game]
        rows.append(row + [mini_game_name(line), line.chosen] * series)
    return header, rows


def mini_game_name(line: rounds.Line) -> str:
    """A Dobble table's mini-game by its label ("The Well"); "" while its loser chooses it."""
    return rounds.mini_game_label(line.table.mini_game) if line.table and line.table.mini_game else ""


def pairings_json(tournament: Tournament) -> list[dict]:
    """The pairings with each table's seats as a list: seat number, player, points, how they were
    earned; and who starts (null for a bye or a table still waiting for its game)."""
    _, found = pairing_lines(tournament)
    return [
        {
            "round": line.round,
            "table": line.where,
            "seats": [
                {"seat": seat, "player": player, "points": points, "kind": kind or None}
                for seat, (player, points, kind) in enumerate(
                    zip(line.players, line.points, line.states, strict=True), start=1
                )
            ],
            "starts": starter(line) or None,
            "result": line.result,
            **({"mini_game": mini_game_name(line), "chosen": line.chosen} if line.chosen else {}),
            "match": line.table.match_id if line.table else None,
        }
        for line in found
    ]


EXPORTS = ("standings", "pairings")


def export(request, tournament_id: int, what: str, fmt: str):
    if what not in EXPORTS or fmt not in ("csv", "json"):
        raise Http404("Export standings or pairings, as csv or json.")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    filename = f"{tournament.name} {what}{not_final(tournament)}".replace(" ", "-").lower()
    if fmt == "json":
        if what == "pairings":
            found = pairings_json(tournament)
        else:
            header, rows = standings_rows(tournament)
            found = [dict(zip(header, row, strict=True)) for row in rows]
        said = {"tournament": tournament.name, "status": tournament.status, what: found}
        return JsonResponse(said, json_dumps_params={"ensure_ascii": False})
    if what == "pairings":
        header, rows = pairings_rows(tournament, request.build_absolute_uri("/").rstrip("/"))
    else:
        header, rows = standings_rows(tournament)
    out = io.StringIO("\ufeff")  # a byte-order mark: spreadsheets otherwise read UTF-8 as Latin-1 ("Â·")
    out.seek(1)
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([["yes" if value is True else "" if value is False else value for value in row] for row in rows])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def not_final(tournament: Tournament) -> str:
    """What a download's name adds where its standings are not the final ones: a file kept from a
    running or cancelled tournament must not pass for its result."""
    if tournament.status == Tournament.Status.FINISHED:
        return ""
    return " when cancelled" if tournament.status == Tournament.Status.CANCELLED else " so far"


def starter(line: rounds.Line) -> str:
    """Who moves first at a table, as its game deals it from the match's seed and options (the first
    seat wherever the format gives the seat order: games/starting.py), or "everyone at once" in a
    real-time game; "" for a bye or a table still waiting for its game."""
    match = line.table.match if line.table else None
    if match is None:
        return ""
    first = match.engine.to_act(match.new_game())
    return "everyone at once" if len(first) != 1 else line.players[first[0]]


def round_sheet(request, tournament_id: int, round_number: int):
    """A page to print and pin up: every table of the round, who sits where, its result or a box
    for it, and the byes."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    if not 1 <= round_number <= tournament.current_round:
        raise Http404("That round has not been seated")
    found = rounds.lines(tournament, round_number).get(round_number, [])
    return render(
        request,
        "tournaments/round_sheet.html",
        {
            "tournament": tournament,
            "round": round_number,
            "tables": [(line, starter(line)) for line in found if line.table],
            "byes": [line for line in found if not line.table],
        },
    )
