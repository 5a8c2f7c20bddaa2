"""Standings and pairings as CSV and JSON, and the printable round sheet."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(olga):
    cup = Tournament.objects.create(
        name="Winter Swiss", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=2
    )
    for bot in ["heuristic", "random", "heuristic"]:
        services.add_house_bot(cup.pk, bot)
    running.start(cup.pk)
    return running.play_out(cup.pk)


def test_standings_download_as_csv_with_the_tiebreaks_named(client, played):
    response = client.get(f"/tournaments/{played.pk}/standings.csv")
    assert response["Content-Disposition"] == 'attachment; filename="winter-swiss-standings.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "place",
        "player",
        "points",
        "Buchholz cut 1",
        "Buchholz",
        "Sonneborn-Berger",
        "Direct encounter",
        "played",
        "withdrawn",
    ]
    assert len(rows) == 4 and rows[1][0] == "1"
    figures = [cell for row in rows[1:] for cell in row[2:7] if cell]
    assert all(len(cell.partition(".")[2]) <= 3 for cell in figures), figures
    assert {row[8] for row in rows[1:]} <= {"yes", ""}, "withdrawn in words, not True/False"


def test_pairings_download_as_json_with_seat_order_results_and_byes(client, played):
    pairings = client.get(f"/tournaments/{played.pk}/pairings.json").json()["pairings"]
    assert [(p["round"], p["points"]) for p in pairings if p["points"] == "bye"] == [(1, "bye"), (2, "bye")]
    games = [p for p in pairings if p["points"] != "bye"]
    assert len(games) == 2 and all(p["points"] in ("1 – 0", "0 – 1", "0.5 – 0.5") for p in games)


def test_an_unknown_export_is_not_found(client, played):
    assert client.get(f"/tournaments/{played.pk}/secrets.csv").status_code == 404
    assert client.get(f"/tournaments/{played.pk}/standings.xml").status_code == 404


def test_the_round_sheet_lists_each_table_in_seat_order_and_the_bye(client, played):
    page = client.get(f"/tournaments/{played.pk}/round/1/").content.decode()
    table = played.tables.get(round=1)
    names = [played.entries.get(pk=e).user.username for e in table.seating]
    assert f"{names[0]} – {names[1]}" in page and "Bye (one point, no game)" in page
