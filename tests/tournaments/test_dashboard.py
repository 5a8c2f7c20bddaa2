"""The organizer dashboard: organizers create and run their own tournaments, and only theirs."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import GAMES
from games.matches import wakeups
from games.matches.errors import MatchError
from games.matches.models import Match
from tournaments import organizing, running, services
from tournaments.models import Score, Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


@pytest.fixture
def otto(make_user):
    return make_user("otto", role="organizer")


def form_data(**changes) -> dict:
    data = {
        "name": "Friday Dudo",
        "format": "swiss",
        "table_size": "2",
        "rounds": "2",
        "max_entries": "16",
        "turn_seconds": "30",
        "starts_at": (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M"),
        "description": "",
        "opt_dice": "4",
        "opt_palifico_wild": "on",
        "opt_starter": "drawn",
        "bots_heuristic": "2",
        "bots_random": "1",
    }
    data.update(changes)
    return {key: value for key, value in data.items() if value is not None}


def make(olga, bots=("heuristic", "random"), **fields) -> Tournament:
    fields = {"format": "swiss", "table_size": 2, "rounds": 2, "starts_at": timezone.now(), **fields}
    return organizing.create(olga, "dudo", {"name": "Cup", **fields}, list(bots))


def test_an_organizer_schedules_a_tournament_with_options_and_house_bots(client, olga):
    client.force_login(olga)
    response = client.post("/organize/new/dudo/", form_data())
    cup = Tournament.objects.get(name="Friday Dudo")
    assert response.status_code == 302 and response.url == f"/organize/{cup.pk}/"
    assert cup.organizer == olga and cup.status == Tournament.Status.SCHEDULED
    assert cup.options == {"dice": 4, "palifico_wild": True, "opening_ones": False, "starter": "drawn"}
    assert sorted(cup.entries.values_list("house_bot", flat=True)) == ["heuristic", "heuristic", "random"]
    page = client.get(response.url).content.decode()
    assert "HeuristicBot2" in page and "Start now" in page
    public = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert f'href="/organize/{cup.pk}/">Manage this tournament' in public


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_game_option_is_a_form_field_and_the_defaults_are_accepted(client, olga, game):
    client.force_login(olga)
    page = client.get(f"/organize/new/{game}/").content.decode()
    assert 'name="options"' not in page
    for name in GAMES[game].options:
        if name != "last_winner":  # set by the series itself, not by the organizer
            assert f'name="opt_{name}"' in page
    response = client.post(f"/organize/new/{game}/", initial_post(client, game))
    assert response.status_code == 302, response.content.decode()[:3000]
    cup = Tournament.objects.get(game=game)
    assert GAMES[game].clean_options(cup.table_size, cup.options) == cup.options


def initial_post(client, game: str) -> dict:
    """What the form sends when the organizer only types a name: every field at its initial value."""
    from tournaments.forms import HouseBotsForm, TournamentForm

    form, bots = TournamentForm(game=game), HouseBotsForm(game=game)
    data = {}
    for bound in [*form, *bots]:
        value = bound.value()
        if value is None or value is False:
            continue
        data[bound.html_name] = "on" if value is True else bound.field.widget.format_value(value) or ""
    return {**data, "name": f"{GAMES[game].name} open"}


def test_a_bad_option_is_shown_on_its_field(client, olga):
    client.force_login(olga)
    response = client.post("/organize/new/dudo/", form_data(opt_dice="9"))
    assert response.status_code == 200
    assert "Ensure this value is less than or equal to 5." in response.content.decode()
    assert not Tournament.objects.exists()


def test_a_format_the_game_cannot_play_is_refused(client, olga):
    client.force_login(olga)
    response = client.post("/organize/new/dudo/", form_data(format="dobble-series"))
    assert response.status_code == 200 and not Tournament.objects.exists()


def test_a_start_time_long_past_is_refused(client, olga):
    client.force_login(olga)
    past = (timezone.now() - timedelta(hours=2)).strftime("%Y-%m-%dT%H:%M")
    response = client.post("/organize/new/dudo/", form_data(starts_at=past))
    assert "That time has passed" in response.content.decode()


def test_another_organizer_can_neither_see_nor_change_it(client, olga, otto):
    cup = make(olga)
    client.force_login(otto)
    assert "Cup" not in client.get("/organize/").content.decode()
    assert client.get(f"/organize/{cup.pk}/").status_code == 404
    assert client.get(f"/organize/{cup.pk}/edit/").status_code == 404
    assert client.post(f"/organize/{cup.pk}/edit/", form_data(name="Mine now")).status_code == 404
    for action in ("start", "pause", "cancel"):
        assert client.post(f"/organize/{cup.pk}/{action}/").status_code == 404
        assert client.get(f"/organize/{cup.pk}/{action}/").status_code == 404
    assert client.post(f"/organize/{cup.pk}/bots/", {"bots_random": "3"}).status_code == 404
    entry = cup.entries.first()
    assert client.post(f"/organize/{cup.pk}/entries/{entry.pk}/remove/").status_code == 404
    assert client.post(f"/organize/{cup.pk}/entries/{entry.pk}/check-in/").status_code == 404
    assert client.post(f"/organize/{cup.pk}/entries/", {"username": "otto"}).status_code == 404
    cup.refresh_from_db()
    assert (cup.name, cup.status, cup.entries.count()) == ("Cup", Tournament.Status.SCHEDULED, 2)


def test_players_get_no_dashboard_and_no_header_link(client, alice, olga):
    client.force_login(alice)
    response = client.get("/organize/")
    assert response.status_code == 403 and "ask the staff for the organizer role" in response.content.decode()
    assert client.post("/organize/new/dudo/", form_data()).status_code == 403
    assert 'href="/organize/"' not in client.get("/").content.decode()
    client.force_login(olga)
    assert 'href="/organize/"' in client.get("/").content.decode()


def test_staff_see_every_tournament_but_only_superusers_change_others(client, olga, make_user):
    cup = make(olga)
    staff = make_user("stella", role="staff", is_staff=True)
    client.force_login(staff)
    assert "Cup" in client.get("/organize/").content.decode()
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert "HeuristicBot" in page and "Start now" not in page
    assert client.post(f"/organize/{cup.pk}/cancel/").status_code == 404
    boss = make_user("boss", is_superuser=True, is_staff=True)
    client.force_login(boss)
    client.post(f"/organize/{cup.pk}/cancel/")
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED


def test_editing_changes_a_scheduled_tournament_and_stops_once_it_runs(client, olga):
    cup = make(olga)
    client.force_login(olga)
    client.post(f"/organize/{cup.pk}/edit/", form_data(name="Renamed", opt_dice="3", bots_heuristic=None))
    cup.refresh_from_db()
    assert cup.name == "Renamed" and cup.options["dice"] == 3 and cup.game == "dudo"
    organizing.enter_house_bots(olga, cup.pk, ["random", "random"])
    entered = cup.entries.count()
    fewer = form_data(name="Renamed again", max_entries=str(entered - 1), rounds="2")
    fewer = client.post(f"/organize/{cup.pk}/edit/", fewer)
    page = fewer.content.decode()
    assert fewer.status_code == 200 and 'id="form-problems"' in page, "the form stays, with what was typed"
    assert f"{entered} have entered already: allow at least {entered} entries." in page and "Renamed again" in page
    cup.refresh_from_db()
    assert cup.max_entries >= entered and cup.name == "Renamed"
    both = form_data(name="Renamed again", max_entries=str(entered - 1), rounds="0")
    page = client.post(f"/organize/{cup.pk}/edit/", both).content.decode()
    assert f"allow at least {entered} entries." in page, "told together with the rounds' problem, not after it"
    assert page.count('class="errorlist') >= 2, page
    client.post(f"/organize/{cup.pk}/start/")
    response = client.get(f"/organize/{cup.pk}/edit/", follow=True)
    assert "can no longer be edited" in response.content.decode()


def test_house_bots_are_entered_and_entries_removed_from_the_list_before_the_start(client, olga):
    cup = make(olga, bots=())
    client.force_login(olga)
    client.post(f"/organize/{cup.pk}/bots/", {"bots_heuristic": "1", "bots_random": "2"})
    assert sorted(cup.entries.values_list("house_bot", flat=True)) == ["heuristic", "random", "random"]
    client.post(f"/organize/{cup.pk}/entries/{cup.entries.first().pk}/remove/")
    assert cup.entries.count() == 2


def test_start_now_seats_round_one_and_too_few_entries_wait_for_more(client, olga):
    cup = make(olga, starts_at=timezone.now() + timedelta(days=2))
    client.force_login(olga)
    response = client.post(f"/organize/{cup.pk}/start/", follow=True)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.tables.filter(round=1).count() == 1
    assert "Started" in response.content.decode()
    lonely = make(olga, bots=("random",), name="Lonely")
    response = client.post(f"/organize/{lonely.pk}/start/", follow=True)
    assert "Too few to start: 1 of 1 entered would play, at least 2 needed." in response.content.decode()
    lonely.refresh_from_db()
    assert lonely.status == Tournament.Status.SCHEDULED, "still open for entries, not cancelled"


def test_starting_and_cancelling_ask_first_and_say_who_is_left_out(client, olga, alice, bob):
    cup = make(olga, bots=("random",), starts_at=timezone.now() + timedelta(days=1), check_in_minutes=30)
    for player in (alice, bob):
        services.enter(cup.pk, player)
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/start/").content.decode()
    assert "Start Cup now?" in page and "Not checked in, so left out: alice, bob." in page
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.SCHEDULED, "asking changes nothing"
    page = client.get(f"/organize/{cup.pk}/cancel/").content.decode()
    assert "Cancel Cup?" in page and "Keep it" in page
    refused = client.post(f"/organize/{cup.pk}/start/", follow=True).content.decode()
    assert "Too few to start: 1 of 3 entered would play (2 not checked in), at least 2 needed." in refused
    assert cup.entries.count() == 3, "nobody is dropped by a start that did not happen"
    client.post(f"/organize/{cup.pk}/entries/{cup.entries.get(user=bob).pk}/check-in/")
    assert "left out: alice." in client.get(f"/organize/{cup.pk}/start/").content.decode()
    client.post(f"/organize/{cup.pk}/start/")
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING
    assert sorted(cup.entries.values_list("user__username", flat=True)) == ["RandomBot", "bob"]
    again = client.get(f"/organize/{cup.pk}/start/", follow=True).content.decode()
    assert "Cup is running: nothing to start." in again and "Start Cup now?" not in again
    assert "Resume Cup?" not in client.get(f"/organize/{cup.pk}/resume/", follow=True).content.decode()
    assert client.get(f"/tournaments/{cup.pk}/round/1/").status_code == 200
    assert client.get(f"/tournaments/{cup.pk}/round/9/").status_code == 404, "no sheet for a round never seated"
    assert client.get(f"/tournaments/{cup.pk}/round/0/").status_code == 404


def test_the_organizer_enters_a_registered_player_and_checks_them_in(client, olga, alice, make_user):
    cup = make(olga, bots=(), starts_at=timezone.now() + timedelta(days=1), check_in_minutes=30)
    client.force_login(olga)
    response = client.post(f"/organize/{cup.pk}/entries/", {"username": " ALICE "}, follow=True)
    assert "alice is entered." in response.content.decode()
    again = client.post(f"/organize/{cup.pk}/entries/", {"username": "alice"}, follow=True).content.decode()
    assert "alice is already entered." in again
    nobody = client.post(f"/organize/{cup.pk}/entries/", {"username": "zed"}, follow=True).content.decode()
    assert "Nobody is registered as “zed”." in nobody
    entry = cup.entries.get(user=alice)
    assert entry.checked_in_at is None, "entered is not checked in: the day may be far"
    response = client.post(f"/organize/{cup.pk}/entries/{entry.pk}/check-in/", follow=True)
    assert "alice is checked in." in response.content.decode()
    entry.refresh_from_db()
    assert entry.checked_in_at is not None
    make_user("bea")
    organizing.enter_house_bots(olga, cup.pk, ["random"])
    organizing.start_now(olga, cup.pk)
    late = client.post(f"/organize/{cup.pk}/entries/", {"username": "bea"}, follow=True).content.decode()
    assert "Entries for this tournament are closed." in late
    closed = client.post(f"/organize/{cup.pk}/entries/{entry.pk}/check-in/", follow=True).content.decode()
    assert "Check-in is over, or this tournament does not ask for it." in closed


def test_a_paused_tournament_seats_no_new_round_until_it_resumes(client, olga):
    cup = make(olga)
    running.start(cup.pk)
    organizing.pause(olga, cup.pk)
    assert "Cup</a> — Dudo, Swiss rounds · paused by its organizer" in client.get("/tournaments/").content.decode()
    said = "paused in round 1 of 2 (games under way play on; no new round starts)"
    assert said in client.get(f"/tournaments/{cup.pk}/").content.decode(), "not 'after round 1' while it plays"
    wakeups.play_out(cup.tables.get(round=1).match_id)
    assert cup.tables.get(round=1).match.status == Match.Status.FINISHED
    assert not cup.tables.filter(round=2).exists()
    assert cup.scores.filter(round=1).count() == 2  # the standings count a finished table at once
    running.start_due()  # the beat does not touch it either
    assert Tournament.objects.get(pk=cup.pk).status == Tournament.Status.PAUSED
    organizing.resume(olga, cup.pk)
    assert cup.scores.filter(round=1).count() == 2 and cup.tables.filter(round=2).exists()
    assert running.play_out(cup.pk).status == Tournament.Status.FINISHED


def test_tables_that_finish_during_a_pause_seat_the_next_round_once_on_resume(olga):
    cup = make(olga, bots=("heuristic", "random", "heuristic", "random"))
    running.start(cup.pk)
    organizing.pause(olga, cup.pk)
    for table in cup.tables.filter(round=1):
        wakeups.play_out(table.match_id)
    assert cup.scores.filter(round=1).count() == 4 and not cup.tables.filter(round=2).exists()
    organizing.resume(olga, cup.pk)
    assert cup.tables.filter(round=2).count() == 2
    assert running.play_out(cup.pk).status == Tournament.Status.FINISHED


def test_pause_and_resume_refuse_the_wrong_state(olga):
    cup = make(olga)
    with pytest.raises(MatchError, match="Only a running tournament"):
        organizing.pause(olga, cup.pk)
    with pytest.raises(MatchError, match="Only a paused tournament"):
        organizing.resume(olga, cup.pk)
    organizing.cancel(olga, cup.pk)
    with pytest.raises(MatchError, match="already over"):
        organizing.cancel(olga, cup.pk)


def test_the_organizer_sees_standings_and_tables_when_it_is_over(client, olga):
    cup = make(olga)
    running.start(cup.pk)
    running.play_out(cup.pk)
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert 'id="standings"' in page and "Round 2" in page and "Finished" in page


def test_tables_name_dobble_mini_games_in_words_and_matches_without_ids(client, olga):
    fields = {"name": "Series", "format": "dobble-series", "table_size": 2, "rounds": 1, "starts_at": timezone.now()}
    cup = organizing.create(olga, "dobble", fields, ["hard", "easy"])
    running.start(cup.pk)
    running.play_out(cup.pk)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    match_id = cup.tables.get().match_id
    assert "The Towering Inferno" in page and "towering-inferno" not in page
    assert f"#{match_id}" not in page and "how it ended" in page


def test_a_real_time_game_has_no_turn_clock_field(client, olga):
    client.force_login(olga)
    assert 'name="turn_seconds"' not in client.get("/organize/new/dobble/").content.decode()
    assert 'name="turn_seconds"' in client.get("/organize/new/dudo/").content.decode()


def test_the_organizer_corrects_a_finished_table_on_a_page_and_everyone_sees_the_record(client, olga, otto):
    cup = make(olga)
    running.start(cup.pk)
    table = cup.tables.get(round=1)
    wakeups.play_out(table.match_id)
    table.refresh_from_db()
    first, second = table.seating
    names = dict(cup.entries.values_list("pk", "user__username"))
    client.force_login(olga)
    url = f"/organize/{cup.pk}/tables/{table.pk}/correct/"
    assert url in client.get(f"/organize/{cup.pk}/").content.decode()
    page = client.get(url).content.decode()
    assert f"Points for {names[first]}" in page and f"Points for {names[second]}" in page
    missing = client.post(url, {f"points_{first}": "0.5", f"points_{second}": "0.5", "reason": ""})
    assert "This field is required" in missing.content.decode() and not cup.scores.filter(points=0.5).exists()
    before = dict(cup.scores.filter(table=table).values_list("entry_id", "points"))
    done = client.post(url, {f"points_{first}": "0.5", f"points_{second}": "0.5", "reason": "Illegal bid accepted"})
    assert done.status_code == 302 and done.url == f"/organize/{cup.pk}/"
    assert dict(cup.scores.filter(table=table).values_list("entry_id", "points")) == {first: 0.5, second: 0.5}
    public = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Result corrections" in public and "corrected by olga" in public and "Illegal bid accepted" in public
    change = f"{names[first]} {before[first]:g} → 0.5"
    assert change in public
    assert f"points (corrected by the organizer): {names[first]} 0.5, {names[second]} 0.5" in public
    assert "at the table: " in public, "the game's own result is told apart from the corrected points"
    assert url not in public, "only the organizer's page links the correction form"
    client.force_login(otto)
    assert client.get(url).status_code == 404


def test_a_table_still_being_played_cannot_be_corrected(client, olga):
    cup = make(olga)
    running.start(cup.pk)
    table = cup.tables.get(round=1)
    client.force_login(olga)
    response = client.get(f"/organize/{cup.pk}/tables/{table.pk}/correct/", follow=True)
    assert "That table has no result to correct yet." in response.content.decode()


def test_an_organizer_stops_a_dead_table_and_the_round_goes_on(client, olga, alice, bob):
    """Everyone at the table is gone and the clock crawls through their turns: the organizer stops
    the game, it counts for nobody, the next round is seated, and the result can be corrected."""
    cup = make(olga, bots=(), starts_at=timezone.now(), rounds=2)
    for player in (alice, bob):
        services.enter(cup.pk, player)
    running.start(cup.pk)
    table = cup.tables.get(round=1)
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert f"/organize/{cup.pk}/tables/{table.pk}/stop/" in page and "stop this game" in page
    asked = client.get(f"/organize/{cup.pk}/tables/{table.pk}/stop/").content.decode()
    assert "Stop round 1, table 1?" in asked and "alice, bob" in asked
    assert Match.objects.get(pk=table.match_id).status == Match.Status.RUNNING, "asking changes nothing"
    done = client.post(f"/organize/{cup.pk}/tables/{table.pk}/stop/", follow=True).content.decode()
    assert "Round 1, table 1 stopped: it counts for nobody." in done
    table.refresh_from_db()
    assert table.scored and Match.objects.get(pk=table.match_id).status == Match.Status.ABORTED
    assert set(Score.objects.filter(table=table).values_list("kind", flat=True)) == {"unplayed"}
    assert cup.tables.filter(round=2).exists(), "the round went on"
    assert "stopped with no result: it counts for nobody" in client.get(f"/tournaments/{cup.pk}/").content.decode()
    again = client.post(f"/organize/{cup.pk}/tables/{table.pk}/stop/", follow=True).content.decode()
    assert "That table has no game under way." in again
    at_table = Score.objects.filter(table=table).select_related("entry__user")
    scores = {score.entry.user.username: score.entry_id for score in at_table}
    services.correct_result(table.pk, olga, {scores["alice"]: 0, scores["bob"]: 0}, "double forfeit")
    assert sorted(Score.objects.filter(table=table).values_list("points", flat=True)) == [0.0, 0.0]


def test_a_dobble_table_is_corrected_with_the_negative_points_its_mini_games_give(client, olga, alice):
    """Hot potato and the well take points away: a correction form that refused anything below 0
    could not even be sent back unchanged (outside tester 17)."""
    fields = {"name": "Spot it", "format": "dobble-series", "table_size": 2, "rounds": 2, "starts_at": timezone.now()}
    cup = organizing.create(olga, "dobble", fields, ["hard"])
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    table = cup.tables.get(round=1)
    wakeups.play_out(table.match_id)
    client.force_login(olga)
    form = client.get(f"/organize/{cup.pk}/tables/{table.pk}/correct/").content.decode()
    order = running.seat_order_of(cup, table)
    assert form.index(f"points_{order[0]}") < form.index(f"points_{order[1]}"), "players in their seat order"
    corrected = {f"points_{order[0]}": "-20", f"points_{order[1]}": "10", "reason": "the well, mis-scored"}
    done = client.post(f"/organize/{cup.pk}/tables/{table.pk}/correct/", corrected, follow=True).content.decode()
    assert "corrected: the standings are updated" in done
    assert sorted(Score.objects.filter(table=table).values_list("points", flat=True)) == [-20.0, 10.0]


def test_a_name_taken_in_the_game_is_said_on_the_form(client, olga):
    client.force_login(olga)
    assert client.post("/organize/new/dudo/", form_data(name="Same Cup")).status_code == 302
    again = client.post("/organize/new/dudo/", form_data(name="Same Cup"))
    assert again.status_code == 200
    assert "There is a Dudo tournament called Same Cup already: choose another name." in again.content.decode()
