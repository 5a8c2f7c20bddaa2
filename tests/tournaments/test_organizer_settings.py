"""The organizer's form sets every format's settings in words; the organizer withdraws entrants
and sees who has checked in (the dashboard, tournaments/forms.py and organizing.py)."""

import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.engine import GAMES
from tests.tournaments.test_dashboard import form_data, initial_post
from tournaments import organizing, running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


def post(**changes) -> dict:
    """What the Dudo form sends with every setting filled in: a Swiss at two seats, no house bots."""
    settings = {
        "name": "Club night", "rounds": "3", "opt_dice": "5", "opt_palifico_wild": None, "opt_starter": "drawn",
        "check_in_minutes": "0",
        "accelerated_rounds": "0", "forbidden_pairs": "", "late_entry_rounds": "0", "late_entry_points": "0.0",
        "best_of": "1", "advance": "0", "tiebreak_1": "", "tiebreak_2": "", "tiebreak_3": "",
        "bots_heuristic": None, "bots_random": None,
    }
    return form_data(**{**settings, **changes})


def test_knockout_is_offered_for_every_game(client, olga):
    client.force_login(olga)
    for game in GAMES:
        assert 'value="knockout"' in client.get(f"/organize/new/{game}/").content.decode(), game


def test_a_swiss_with_tiebreak_order_forbidden_pairs_check_in_and_acceleration(client, olga, alice, bob, carol):
    client.force_login(olga)
    page = client.get("/organize/new/dudo/").content.decode()
    assert "Buchholz: the sum of your opponents&#x27; points" in page and ">buchholz<" not in page
    assert "First tiebreak" in page and "Third tiebreak" in page and "Series points" not in page
    response = client.post(
        "/organize/new/dudo/",
        post(
            tiebreak_1="sonneborn-berger",
            tiebreak_2="buchholz",
            forbidden_pairs="Alice, bob\n\n carol ,alice ",
            check_in_minutes="20",
            accelerated_rounds="2",
        ),
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    night = Tournament.objects.get()
    assert night.tiebreaks == ["sonneborn-berger", "buchholz"]
    assert night.forbidden_pairs == [["alice", "bob"], ["carol", "alice"]], "usernames as spelled on the site"
    assert (night.check_in_minutes, night.accelerated_rounds) == (20, 2)
    edit = client.get(f"/organize/{night.pk}/edit/").content.decode()
    assert "alice, bob\ncarol, alice</textarea>" in edit
    assert re.search(r'<option value="sonneborn-berger"[^>]* selected[ >]', edit)


def test_an_unknown_name_or_a_line_without_two_names_is_shown_on_the_field(client, olga, alice):
    client.force_login(olga)
    unknown = client.post("/organize/new/dudo/", post(forbidden_pairs="alice, zed\nquinn, alice")).content.decode()
    assert "No player is called zed or quinn: check the spelling of the username." in unknown
    lonely = client.post("/organize/new/dudo/", post(forbidden_pairs="alice bob")).content.decode()
    assert "Line 1 (&quot;alice bob&quot;): give two names" in lonely
    twice = client.post("/organize/new/dudo/", post(forbidden_pairs="alice, Alice")).content.decode()
    assert "Line 1: alice is named twice." in twice
    assert not Tournament.objects.exists()


def test_tiebreaks_are_chosen_first_to_last_and_each_once(client, olga):
    client.force_login(olga)
    gap = client.post("/organize/new/dudo/", post(tiebreak_2="wins")).content.decode()
    assert "Choose the first tiebreak before the second and third." in gap
    again = client.post("/organize/new/dudo/", post(tiebreak_1="wins", tiebreak_2="wins")).content.decode()
    assert "Each tiebreak counts once" in again
    slug = client.post("/organize/new/dudo/", post(tiebreak_1="points")).content.decode()
    assert "Select a valid choice" in slug, "series points are for Dobble only"
    assert not Tournament.objects.exists()
    client.post("/organize/new/dudo/", post(tiebreak_1="", tiebreak_2=""))
    assert Tournament.objects.get().tiebreaks == [], "empty: the format's usual order"


def test_a_knockout_takes_best_of_at_two_seats_and_who_goes_through_at_larger_tables(client, olga):
    client.force_login(olga)
    client.post("/organize/new/dudo/", post(name="Cup", format="knockout", best_of="3", advance="1",
                                           accelerated_rounds="2", forbidden_pairs="nobody, at all"))
    cup = Tournament.objects.get(name="Cup")
    assert (cup.format, cup.best_of, cup.advance) == ("knockout", 3, 0), "no advancing at two seats"
    assert (cup.accelerated_rounds, cup.forbidden_pairs) == (0, []), "Swiss settings do not apply"
    client.post("/organize/new/dudo/", post(name="Tables", format="knockout", table_size="4", best_of="5",
                                           advance="2"))
    tables = Tournament.objects.get(name="Tables")
    assert (tables.table_size, tables.best_of, tables.advance) == (4, 1, 2)
    too_many = client.post("/organize/new/dudo/", post(name="Too", format="knockout", table_size="3", advance="3"))
    page = too_many.content.decode()
    problem = "At tables of 3, at most 2 can go through from each: choose fewer."
    assert problem in page and page.index('id="form-problems"') < page.index('name="name"'), "said at the top too"


def test_the_no_show_time_is_set_in_minutes_and_left_out_where_the_game_has_no_turns(client, olga):
    client.force_login(olga)
    page = client.get("/organize/new/dudo/").content.decode()
    assert "No-show forfeit (minutes)" in page and "neither opened their table nor moved" in page
    assert client.post("/organize/new/dudo/", post(name="Strict", no_show_minutes="2")).status_code == 302
    assert Tournament.objects.get(name="Strict").no_show_minutes == 2
    assert client.post("/organize/new/dudo/", post(name="Usual")).status_code == 302
    assert Tournament.objects.get(name="Usual").no_show_minutes == 5, "left out: the default"
    assert "No-show forfeit" not in client.get("/organize/new/dobble/").content.decode()


def test_a_swiss_chooses_whether_a_no_show_is_paired_again(client, olga):
    client.force_login(olga)
    assert "Withdraw the player from the following rounds" in client.get("/organize/new/dudo/").content.decode()
    client.post("/organize/new/dudo/", post(name="Forgiving", withdraw_no_shows="False"))
    client.post("/organize/new/dudo/", post(name="Usual"))
    client.post("/organize/new/dudo/", post(name="Knockout", format="knockout", withdraw_no_shows="False"))
    chosen = dict(Tournament.objects.values_list("name", "withdraw_no_shows"))
    assert chosen == {"Forgiving": False, "Usual": True, "Knockout": True}, "a knockout keeps the default"


def test_a_dobble_series_is_ranked_by_mini_games_won_with_series_points_next(client, olga):
    client.force_login(olga)
    page = client.get("/organize/new/dobble/").content.decode()
    assert "Rank the series" in page and "Series points: points by the Dobble point system" in page
    data = {**initial_post(client, "dobble"), "format": "dobble-series", "series_ranking": "wins"}
    data["tiebreak_1"] = "points"
    response = client.post("/organize/new/dobble/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    series = Tournament.objects.get()
    assert (series.series_ranking, series.tiebreaks) == ("wins", ["points"])


def swiss_with(olga, players, **fields) -> Tournament:
    fields = {"format": "swiss", "table_size": 2, "rounds": 3, "starts_at": timezone.now() + timedelta(minutes=10),
              **fields}
    night = organizing.create(olga, "dudo", {"name": "Night", **fields}, ["heuristic", "random"])
    for player in players:
        services.enter(night.pk, player)
    return night


def test_the_organizer_removes_before_the_start_after_a_confirmation(client, olga, alice):
    night = swiss_with(olga, [alice])
    entry = night.entries.get(user=alice)
    client.force_login(olga)
    url = f"/organize/{night.pk}/entries/{entry.pk}/remove/"
    assert url in client.get(f"/organize/{night.pk}/").content.decode()
    ask = client.get(url).content.decode()
    assert "Remove alice?" in ask and "Keep them in" in ask
    assert night.entries.filter(user=alice).exists(), "asking changes nothing"
    response = client.post(url, follow=True)
    assert "alice is no longer entered." in response.content.decode()
    assert not night.entries.filter(user=alice).exists()


def test_the_organizer_withdraws_a_player_between_rounds_as_the_player_would(client, olga, alice, bob):
    night = swiss_with(olga, [alice, bob])
    running.start(night.pk)
    entry = night.entries.get(user=alice)
    client.force_login(olga)
    url = f"/organize/{night.pk}/entries/{entry.pk}/remove/"
    assert "Withdraw alice?" in client.get(url).content.decode()
    response = client.post(url, follow=True).content.decode()
    assert "alice is withdrawn: not paired again, still in the standings." in response
    entry.refresh_from_db()
    assert entry.withdrawn_after == 1
    assert "withdrawn after round 1" in client.get(f"/organize/{night.pk}/").content.decode()
    again = client.post(url, follow=True).content.decode()
    assert "alice has already withdrawn." in again
    with pytest.raises(Exception, match="You are not entered"):
        services.withdraw(night.pk, alice)


def test_a_withdrawal_refused_says_why(client, olga, alice, otto_organizer):
    fields = {"name": "Spot it", "format": "dobble-series", "table_size": 2, "rounds": 2, "starts_at": timezone.now()}
    series = organizing.create(olga, "dobble", fields, ["hard"])
    services.enter(series.pk, alice)
    running.start(series.pk)
    entry = series.entries.get(user=alice)
    client.force_login(olga)
    page = client.get(f"/organize/{series.pk}/").content.decode()
    why = "Players can no longer withdraw once the tournament has started: a series keeps its tables together."
    assert why in page and f"/entries/{entry.pk}/remove/" not in page
    response = client.post(f"/organize/{series.pk}/entries/{entry.pk}/remove/", follow=True).content.decode()
    assert why in response
    entry.refresh_from_db()
    assert entry.withdrawn_after is None
    night = swiss_with(olga, [alice], name="Paused night")
    running.start(night.pk)
    organizing.pause(olga, night.pk)
    paused = night.entries.get(user=alice)
    client.post(f"/organize/{night.pk}/entries/{paused.pk}/remove/", follow=True)
    paused.refresh_from_db()
    assert paused.withdrawn_after == 1, "a pause is when an arbiter takes withdrawals"
    page = client.get(f"/organize/{night.pk}/").content.decode()
    assert "Pair again" in page, "and reinstates a player"
    client.force_login(otto_organizer)
    assert client.post(f"/organize/{night.pk}/entries/{paused.pk}/remove/").status_code == 404


@pytest.fixture
def otto_organizer(make_user):
    return make_user("otto", role="organizer")


def test_the_entry_list_shows_who_checked_in_and_when(client, olga, alice, bob):
    night = swiss_with(olga, [alice, bob], check_in_minutes=30)
    at = night.starts_at - timedelta(minutes=5)
    services.check_in(night.pk, alice, now=at)
    client.force_login(olga)
    page = client.get(f"/organize/{night.pk}/").content.decode()
    assert "1 of 2 checked in" in page and "House bots need not check in." in page
    assert f"checked in at {at:%H:%M}" in page and "not checked in" in page
    plain = swiss_with(olga, [], name="No check-in")
    assert "checked in" not in client.get(f"/organize/{plain.pk}/").content.decode()


@pytest.mark.parametrize(
    "changes,field,words",
    [
        ({"rounds": "0"}, "rounds", "Play at least one round."),
        ({"max_entries": "1"}, "max_entries", "Allow at least two entries"),
        ({"max_entries": "3", "table_size": "4"}, "max_entries", "Tables of 4 need at least 4 entries."),
        ({"max_entries": "4", "rounds": "50"}, "rounds", "play at most 3 rounds, or allow more entries"),
        ({"max_entries": "2", "rounds": "3"}, "rounds", "each meets at most 1 other: play at most 1 round, or"),
        ({"accelerated_rounds": "9"}, "accelerated_rounds", "Accelerate at most the 3 rounds played."),
        ({"late_entry_rounds": "9"}, "late_entry_rounds", "at most until round 3, the last"),
        ({"turn_seconds": "1"}, "turn_seconds", "at least 5 seconds a move"),
        ({"bots_random": "40", "max_entries": "32"}, "bots_random", "40 house bots do not fit in 32 entries"),
    ],
)
def test_numbers_that_cannot_make_an_event_are_refused_beside_their_field(client, olga, changes, field, words):
    client.force_login(olga)
    page = client.post("/organize/new/dudo/", post(**changes)).content.decode()
    assert not Tournament.objects.exists() and 'id="form-problems"' in page
    assert words in page.replace("&#x27;", "'")
    problems = page[page.index('id="form-problems"') :]
    assert f'href="#id_{field}"' in problems, "the summary links to the field"


def test_a_dobble_series_is_not_offered_the_tiebreaks_that_weigh_the_opponents_met(client, olga):
    """Its tables keep their players: Buchholz and Sonneborn-Berger would weigh the table, and
    within a table Buchholz ranks the weaker above the stronger. Another format of the same game
    (a Swiss) still offers them."""
    client.force_login(olga)
    page = client.get("/organize/new/dobble/").content.decode()
    buchholz = re.search(r'<option value="buchholz" data-tiebreak-formats="([^"]*)"', page)
    assert buchholz and "dobble-series" not in buchholz.group(1).split() and "swiss" in buchholz.group(1).split()
    places = re.search(r'<option value="placements" data-tiebreak-formats="([^"]*)"', page)
    assert places and "dobble-series" in places.group(1).split(), "a player's own places at their table"
    data = {**initial_post(client, "dobble"), "format": "dobble-series", "tiebreak_1": "wins",
            "tiebreak_2": "sonneborn-berger"}  # fmt: skip
    refused = client.post("/organize/new/dobble/", data).content.decode()
    assert "Sonneborn-Berger is not offered for this format, Dobble series (its tables keep their players" in refused
    assert not Tournament.objects.exists()
    swiss = {**initial_post(client, "dobble"), "name": "Dobble Swiss", "format": "swiss", "tiebreak_1": "buchholz"}
    assert client.post("/organize/new/dobble/", swiss).status_code == 302
    assert Tournament.objects.get().tiebreaks == ["buchholz"]
    series = Tournament(name="S", game="dobble", format="dobble-series", organizer=olga, tiebreaks=["buchholz"])
    with pytest.raises(ValidationError, match="List tiebreaks in order, from: direct-encounter, wins"):
        series.clean()


def test_a_knockout_is_offered_only_the_tiebreak_its_standings_show(client, olga):
    """It ranks by the round reached and the place at the last table, and players out together share
    a place: Buchholz, Sonneborn-Berger and the rest were offered to split nothing."""
    client.force_login(olga)
    page = client.get("/organize/new/dudo/").content.decode()
    offered = {
        name: formats.split()
        for name, formats in re.findall(r'<option value="([a-z0-9-]+)" data-tiebreak-formats="([^"]*)"', page)
    }
    assert [name for name, formats in offered.items() if "knockout" in formats] == ["wins"]
    assert "knockout" not in offered["buchholz"] and "swiss" in offered["buchholz"]
    data = {**initial_post(client, "dudo"), "format": "knockout", "tiebreak_1": "sonneborn-berger"}
    refused = client.post("/organize/new/dudo/", data).content.decode()
    assert "Sonneborn-Berger is not offered for this format, Knockout (it ranks by the round reached" in refused
    assert "choose from Wins." in refused
    assert not Tournament.objects.exists()
