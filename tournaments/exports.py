"""Standings and pairings to take away: CSV and JSON downloads, and a printable round sheet."""

import csv
import io

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, render

from tournaments.models import Tournament
from tournaments.standings import TIEBREAK_LABELS, standings, tiebreak_names


def standings_rows(tournament: Tournament) -> tuple[list[str], list[list]]:
    names = [TIEBREAK_LABELS.get(name, name) for name in tiebreak_names(tournament)]
    header = ["place", "player", "points", *names, "played", "withdrawn"]
    rows = [
        [row["place"], row["player"], figure(row["points"]), *map(figure, row["tiebreaks"]), row["played"],
         row["withdrawn"]]
        for row in standings(tournament)
    ]  # fmt: skip
    return header, rows


def figure(value):
    """Points and tiebreaks as people write them: 1.667, not 1.6666666666666665."""
    return round(value, 3) if isinstance(value, float) else value


def pairings_rows(tournament: Tournament) -> tuple[list[str], list[list]]:
    """One row per table: round, table, players in seat order (the first moves first), result."""
    names = dict(tournament.entries.values_list("pk", "user__username"))
    scores: dict = {}
    for table_id, entry_id, earned, kind in tournament.scores.exclude(table=None).values_list(
        "table_id", "entry_id", "points", "kind"
    ):
        scores.setdefault(table_id, {})[entry_id] = (earned, kind)
    header = ["round", "table", "players", "points", "match"]
    rows = []
    for table in tournament.tables.order_by("round", "number"):
        got = scores.get(table.pk, {})
        rows.append(
            [
                table.round,
                table.number,
                " – ".join(names[e] for e in table.seating),
                " – ".join(f"{got[e][0]:g}" if e in got else "" for e in table.seating),
                table.match_id or "",
            ]
        )
    byes = tournament.scores.filter(table=None).values_list("round", "entry_id")
    rows += [[round_number, "", names[entry_id], "bye", ""] for round_number, entry_id in byes]
    return header, sorted(rows, key=lambda row: (row[0], row[1] == "", row[1] or 0))


EXPORTS = {"standings": standings_rows, "pairings": pairings_rows}


def export(request, tournament_id: int, what: str, fmt: str):
    if what not in EXPORTS or fmt not in ("csv", "json"):
        raise Http404("Export standings or pairings, as csv or json.")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    header, rows = EXPORTS[what](tournament)
    filename = f"{tournament.name} {what}".replace(" ", "-").lower()
    if fmt == "json":
        return JsonResponse(
            {"tournament": tournament.name, what: [dict(zip(header, row, strict=True)) for row in rows]},
            json_dumps_params={"ensure_ascii": False},
        )
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(header)
    writer.writerows([["yes" if value is True else "" if value is False else value for value in row] for row in rows])
    response = HttpResponse(out.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


def round_sheet(request, tournament_id: int, round_number: int):
    """A page to print and pin up: every table of the round, who sits where, a box for the result."""
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    names = dict(tournament.entries.values_list("pk", "user__username"))
    tables = [
        {"number": t.number, "players": [names[e] for e in t.seating]}
        for t in tournament.tables.filter(round=round_number).order_by("number")
    ]
    byes = [
        names[e] for e in tournament.scores.filter(round=round_number, table=None).values_list("entry_id", flat=True)
    ]
    return render(
        request,
        "tournaments/round_sheet.html",
        {"tournament": tournament, "round": round_number, "tables": tables, "byes": byes},
    )
