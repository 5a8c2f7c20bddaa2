"""Standings and pairings as CSV and JSON, and the printable round sheet."""

import csv
import io
from datetime import timedelta

import pytest
from django.utils import timezone

from ratings.models import Rating
from tournaments import running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def played(olga):
    cup = Tournament.objects.create(
        name="Winter Swiss", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=2
    )
    for bot in ["heuristic", "random", "heuristic"]:
        services.enter_house_bot(cup.pk, bot)
    Rating.objects.create(user=cup.entries.get(user__username="RandomBot").user, game="dudo", elo=1612.4, games=9)
    running.start(cup.pk)
    return running.play_out(cup.pk)


def test_standings_download_as_csv_with_seeds_and_the_tiebreaks_named(client, played):
    response = client.get(f"/tournaments/{played.pk}/standings.csv")
    assert response["Content-Disposition"] == 'attachment; filename="winter-swiss-standings.csv"'
    assert response.content.startswith("\ufeff".encode()), "a byte-order mark: spreadsheets then read UTF-8"
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0] == [
        "place",
        "player",
        "seed",
        "rating",
        "points",
        "Buchholz cut 1",
        "Buchholz",
        "Sonneborn-Berger",
        "direct encounter",
        "played",
        "withdrawn",
        "entered late",
    ]
    assert len(rows) == 4 and rows[1][0] == "1"
    assert sorted(row[2] for row in rows[1:]) == ["1", "2", "3"], "each entrant's seed"
    ratings = {row[1]: row[3] for row in rows[1:]}
    assert ratings == {"RandomBot": "1612", "HeuristicBot": "", "HeuristicBot2": ""}, "unrated: blank"
    figures = [cell for row in rows[1:] for cell in row[4:9] if cell]
    assert all(len(cell.partition(".")[2]) <= 3 for cell in figures), figures
    assert {row[10] for row in rows[1:]} <= {"yes", ""}, "withdrawn in words, not True/False"


def test_pairings_download_as_csv_with_a_column_per_seat_results_and_byes(client, played):
    text = client.get(f"/tournaments/{played.pk}/pairings.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["round", "table", "seat 1", "seat 2", "starts", "points 1", "points 2", "result", "game"]
    names = dict(played.entries.values_list("pk", "user__username"))
    for table in played.tables.all():
        row = next(r for r in rows[1:] if r[0] == str(table.round) and r[1] == f"Table {table.number}")
        assert row[2:4] == [names[e] for e in table.seating], "one player per cell, in seat order"
        assert row[4] == row[2], "a Swiss gives the seat order, so the first seat starts"
        assert row[5:7] in (["1", "0"], ["0", "1"], ["0.5", "0.5"])
        assert (
            row[7].startswith(("draw", f"{row[2]} won", f"{row[3]} won"))
            and row[8] == f"http://testserver/match/{table.match_id}/"
        )
    byes = [r for r in rows[1:] if r[1] == ""]
    assert [(r[0], r[4], r[7]) for r in byes] == [(r[0], "", f"bye: {r[2]}, 1 point") for r in byes] and len(byes) == 2


def test_standings_download_as_json_with_numbers_and_null_where_nothing_applies(client, played):
    rows = client.get(f"/tournaments/{played.pk}/standings.json").json()["standings"]
    assert rows[0]["place"] == 1 and all(isinstance(row["place"], int) for row in rows)
    assert sorted(row["rating"] for row in rows if row["rating"] is not None) == [1612], "unrated: null"
    assert all(isinstance(row["points"], int | float) for row in rows)
    assert all(row["direct encounter"] is None or isinstance(row["direct encounter"], int | float) for row in rows)
    for column in ("points", "Buchholz", "Sonneborn-Berger"):  # one type a column: 0.0, not 0 beside 1.5
        assert all(isinstance(row[column], float) for row in rows), column


def test_a_download_of_a_tournament_not_finished_says_so(client, played, olga):
    """Standings downloaded from a cancelled tournament looked like its final result."""
    assert client.get(f"/tournaments/{played.pk}/standings.json").json()["status"] == "finished"
    cup = Tournament.objects.create(
        name="Spring Swiss", game="dudo", organizer=olga, starts_at=timezone.now(), rounds=2
    )
    for bot in ["heuristic", "random", "heuristic"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    response = client.get(f"/tournaments/{cup.pk}/pairings.csv")
    assert response["Content-Disposition"] == 'attachment; filename="spring-swiss-pairings-so-far.csv"'
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.CANCELLED)
    response = client.get(f"/tournaments/{cup.pk}/standings.csv")
    assert response["Content-Disposition"] == 'attachment; filename="spring-swiss-standings-when-cancelled.csv"'
    assert client.get(f"/tournaments/{cup.pk}/standings.json").json()["status"] == "cancelled"


def test_pairings_download_as_json_with_a_list_of_seats(client, played):
    pairings = client.get(f"/tournaments/{played.pk}/pairings.json").json()["pairings"]
    byes = [p for p in pairings if p["table"] == ""]
    assert [(p["round"], len(p["seats"]), p["seats"][0]["kind"]) for p in byes] == [(1, 1, "bye"), (2, 1, "bye")]
    games = [p for p in pairings if p["table"]]
    assert len(games) == 2
    assert [p["starts"] for p in byes] == [None, None]
    for game in games:
        assert [seat["seat"] for seat in game["seats"]] == [1, 2]
        assert game["starts"] == game["seats"][0]["player"], "the first seat starts: the Swiss gave the seat order"
        assert sorted(seat["points"] for seat in game["seats"]) in ([0.0, 1.0], [0.5, 0.5])
        assert all(isinstance(seat["player"], str) for seat in game["seats"]) and game["match"]


def test_an_unknown_export_is_not_found(client, played):
    assert client.get(f"/tournaments/{played.pk}/secrets.csv").status_code == 404
    assert client.get(f"/tournaments/{played.pk}/standings.xml").status_code == 404


def test_the_round_sheet_lists_each_table_in_seat_order_its_result_and_the_bye(client, played):
    page = client.get(f"/tournaments/{played.pk}/round/1/").content.decode()
    table = played.tables.get(round=1)
    names = [played.entries.get(pk=e).user.username for e in table.seating]
    assert f"{names[0]} (0) – {names[1]} (0)" in page, "seat order, and the points going into round 1"
    assert f"{names[0]} won" in page or f"{names[1]} won" in page or "draw" in page
    bye = played.scores.get(round=1, table=None).entry.user.username
    assert f"Bye: {bye}, 1 point (no game)." in page


def test_the_round_sheet_names_who_starts_as_the_game_deals_it(client, olga):
    """The sheet names the player the game deals the first move: a rounds total gives the seat order,
    so its first seat starts, though Dudab Buba at a table among players draws who starts."""
    cup = Tournament.objects.create(
        name="buba", game="dudab", organizer=olga, starts_at=timezone.now(), format="rounds-total", table_size=4,
        rounds=1,
    )  # fmt: skip
    for bot in ["heuristic", "random"] * 2:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    table = cup.tables.get()
    match = table.match
    first_seat = match.engine.to_act(match.new_game())[0]
    assert first_seat == 0 and match.options["starter"] == "first_seat"
    starter = cup.entries.get(pk=running.seat_order_of(cup, table)[first_seat]).user.username
    page = client.get(f"/tournaments/{cup.pk}/round/1/").content.decode()
    row = page.partition("<tbody>")[2].partition("</tr>")[0]
    assert row.count("<td>") >= 3 and f"<td>{starter}</td>" in row


@pytest.mark.parametrize(
    "format_fields",
    [{"rounds": 2}, {"format": "knockout"}, {"format": "round-robin"}],
    ids=["swiss", "knockout", "round-robin"],
)
def test_every_export_s_headers_are_in_one_case_with_the_byte_order_mark_kept(client, olga, format_fields):
    """Lower case, as "played" and "entered late", but for the names of people (Buchholz,
    Sonneborn-Berger): "Direct encounter", "Wins" and "Pairings won" stood out in a spreadsheet."""
    cup = Tournament.objects.create(
        name="Cased cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1),
        tiebreaks=["wins"] if format_fields.get("format") == "knockout" else [
            "median-buchholz", "direct-encounter", "wins", "placements"
        ], **format_fields,
    )  # fmt: skip
    for bot in ["heuristic", "random", "heuristic", "random"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    running.play_out(cup.pk)
    for what in ("standings", "pairings"):
        content = client.get(f"/tournaments/{cup.pk}/{what}.csv").content
        assert content.startswith("\ufeff".encode()), what
        header = next(csv.reader(io.StringIO(content.decode("utf-8-sig"))))
        for column in header:
            kept = column.replace("Sonneborn-Berger", "").replace("Buchholz", "")
            assert kept == kept.lower(), f"{what}: {column}"
        json_rows = client.get(f"/tournaments/{cup.pk}/standings.json").json()["standings"]
        if what == "standings":
            assert list(json_rows[0]) == header, "the JSON's keys are the CSV's columns"
    standings_header = client.get(f"/tournaments/{cup.pk}/standings.csv").content.decode("utf-8-sig").split("\r\n")[0]
    if format_fields.get("format") == "knockout":
        assert standings_header.endswith(",reached,pairings won,played,withdrawn,entered late")
    else:
        assert "median Buchholz,direct encounter,wins,sum of places,played" in standings_header
