"""Organizers run their tournaments in the admin: create, enter house bots, cancel; only their own."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import wakeups
from tournaments import running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def add_form(**fields) -> dict:
    start = timezone.now() + timedelta(days=2)
    return {
        "name": "Olga's Open",
        "game": "dudo",
        "format": "swiss",
        "table_size": 2,
        "rounds": 3,
        "max_entries": 16,
        "turn_seconds": 60,
        "options": "{}",
        "tiebreaks": "[]",
        "accelerated_rounds": 0,
        "forbidden_pairs": "[]",
        "series_ranking": "points",
        "best_of": 1,
        "advance": 0,
        "check_in_minutes": 0,
        "no_show_minutes": 5,
        "late_entry_rounds": 0,
        "late_entry_points": "0.0",
        "time_control": "",
        "duration_minutes": 60,
        "description": "",
        "starts_at_0": start.strftime("%Y-%m-%d"),
        "starts_at_1": start.strftime("%H:%M:%S"),
        "add_house_bots": "",
        "entries-TOTAL_FORMS": "0",
        "entries-INITIAL_FORMS": "0",
        **fields,
    }


def test_an_organizer_creates_a_tournament_of_their_own_with_house_bots(client, olga):
    client.force_login(olga)
    response = client.post(
        "/admin/tournaments/tournament/add/", add_form(add_house_bots="heuristic, random, heuristic")
    )
    assert response.status_code == 302 and "/login/" not in response["Location"], response
    cup = Tournament.objects.get()
    assert cup.organizer == olga and cup.status == Tournament.Status.SCHEDULED
    assert sorted(cup.entries.values_list("house_bot", "user__username")) == [
        ("heuristic", "HeuristicBot"),
        ("heuristic", "HeuristicBot2"),
        ("random", "RandomBot"),
    ]
    page = client.get(f"/admin/tournaments/tournament/{cup.pk}/change/").content.decode()
    assert "Entries" in page and "Entrys" not in page


def test_a_scheduled_tournament_keeps_its_game_while_house_bots_of_it_are_entered(client, olga):
    """The admin turned a Dobble Swiss with EasyBot entered into Dudo, which has no such bot."""
    client.force_login(olga)
    client.post("/admin/tournaments/tournament/add/", add_form(game="dobble", add_house_bots="easy, random"))
    cup = Tournament.objects.get()
    assert cup.entries.count() == 2
    response = client.post(f"/admin/tournaments/tournament/{cup.pk}/change/", add_form(game="dudo"))
    assert "Dudo has no house bot easy: take those entries out first." in response.content.decode()
    cup.refresh_from_db()
    assert cup.game == "dobble"


def test_the_admin_refuses_a_start_time_that_has_passed(client, olga):
    """It saved one, and the tournament started in the middle of the organizer's edits."""
    client.force_login(olga)
    yesterday = timezone.now() - timedelta(days=1)
    form = add_form(starts_at_0=yesterday.strftime("%Y-%m-%d"), starts_at_1=yesterday.strftime("%H:%M:%S"))
    response = client.post("/admin/tournaments/tournament/add/", form)
    assert "That time has passed: choose now or later." in response.content.decode()
    assert not Tournament.objects.exists()


@pytest.mark.parametrize(
    "fields, message",
    [
        ({"add_house_bots": "stockfish"}, "No such house bot: stockfish."),
        ({"format": "dobble-series"}, "A Dobble series is for Dobble."),
        ({"table_size": "12"}, "Dudo is played at 2 to 10 seats."),
        ({"options": '{"dice": 1000000, "evil": 1}'}, "Dudo has no option evil."),
        ({"options": '{"dice": 1000000}'}, "Option dice must be at most 5."),
        ({"options": "[1, 2]"}, "Options are an object of the game"),
    ],
)
def test_the_admin_explains_what_it_refuses(client, olga, fields, message):
    client.force_login(olga)
    response = client.post("/admin/tournaments/tournament/add/", add_form(**fields))
    assert response.status_code == 200 and message in response.content.decode()
    assert not Tournament.objects.exists()


def test_an_organizer_cannot_change_someone_else_s_tournament(client, olga, make_user):
    other = make_user("otto", role="organizer")
    theirs = Tournament.objects.create(name="Otto's", game="dudo", organizer=other, starts_at=timezone.now())
    client.force_login(olga)
    page = client.get(f"/admin/tournaments/tournament/{theirs.pk}/change/")
    assert page.status_code == 200 and 'name="_save"' not in page.content.decode(), "she may look, not change"
    client.post("/admin/tournaments/tournament/", {"action": "cancel", "_selected_action": [theirs.pk]})
    theirs.refresh_from_db()
    assert theirs.status == Tournament.Status.SCHEDULED


def started_bot_swiss(olga, name: str) -> Tournament:
    """A three-round Dudo Swiss of two house bots, started."""
    cup = Tournament.objects.create(name=name, game="dudo", organizer=olga, starts_at=timezone.now(), rounds=3)
    for bot in ["heuristic", "random"]:
        services.enter_house_bot(cup.pk, bot)
    return running.start(cup.pk)


@pytest.mark.django_db(transaction=True)
def test_a_cancelled_tournament_stops_seating_rounds(client, olga):
    cup = started_bot_swiss(olga, "Short")
    over = started_bot_swiss(olga, "Over")
    Tournament.objects.filter(pk=over.pk).update(status=Tournament.Status.FINISHED)
    client.force_login(olga)
    said = client.post(
        "/admin/tournaments/tournament/", {"action": "cancel", "_selected_action": [cup.pk, over.pk]}, follow=True
    ).content.decode()
    assert "Cancelled: Short. Left as they were (over already, or not yours): Over." in said
    first = wakeups.play_out(cup.tables.get(round=1).match_id)
    assert running.record_match(first.pk) is False
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.CANCELLED and cup.tables.count() == 1 and not cup.scores.exists()


@pytest.mark.django_db(transaction=True)
def test_once_started_only_the_words_of_a_tournament_change_in_the_admin(client, olga):
    """An organizer turned a running Dudo Swiss into Dobble at tables of 3 from the admin."""
    cup = started_bot_swiss(olga, "Live")
    client.force_login(olga)
    page = client.get(f"/admin/tournaments/tournament/{cup.pk}/change/").content.decode()
    assert 'name="name"' in page and 'name="description"' in page
    assert 'name="game"' not in page and 'name="table_size"' not in page and 'name="rounds"' not in page
    assert 'name="entries-0-withdrawn_after"' not in page, "entries change on the dashboard once it runs"
    assert 'name="add_house_bots"' not in page
    client.post(f"/admin/tournaments/tournament/{cup.pk}/change/", add_form(name="Live!", game="dobble", table_size=3))
    cup.refresh_from_db()
    assert (cup.name, cup.game, cup.table_size, cup.rounds) == ("Live!", "dudo", 2, 3)


@pytest.mark.django_db(transaction=True)
def test_a_started_tournament_cannot_be_deleted_only_cancelled(client, olga):
    """An organizer deleted a running tournament, its results with it, in one click."""
    cup = started_bot_swiss(olga, "Live")
    planned = Tournament.objects.create(name="Later", game="dudo", organizer=olga, starts_at=timezone.now())
    client.force_login(olga)
    assert client.get(f"/admin/tournaments/tournament/{cup.pk}/delete/").status_code == 403
    client.post(f"/admin/tournaments/tournament/{cup.pk}/delete/", {"post": "yes"})
    listing = client.get("/admin/tournaments/tournament/").content.decode()
    assert 'value="delete_selected"' not in listing
    client.post(f"/admin/tournaments/tournament/{planned.pk}/delete/", {"post": "yes"})
    assert list(Tournament.objects.values_list("name", flat=True)) == ["Live"]


def entry_form(cup: Tournament, entries: list[dict], **fields) -> dict:
    """The change form of `cup` as posted, with `entries` as new rows of the entry inline."""
    known = {"name": cup.name, "game": cup.game, "max_entries": cup.max_entries, "rounds": cup.rounds}
    data = add_form(**{**known, **fields})
    data["entries-TOTAL_FORMS"] = str(len(entries))
    for i, entry in enumerate(entries):
        data.update({f"entries-{i}-{key}": value for key, value in entry.items()})
    return data


def test_the_admin_keeps_the_entry_rules_of_every_other_page(client, olga, alice, bob, carol):
    """The admin's entry inline let in 3 entries in a max-2 tournament: entries now change through
    the organizer's services only, which count the room."""
    cup = Tournament.objects.create(
        name="Two only", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(days=1), max_entries=2,
        rounds=1,
    )
    client.force_login(olga)
    rows = [{"user": user.pk, "tournament": cup.pk} for user in (alice, bob, carol)]
    response = client.post(f"/admin/tournaments/tournament/{cup.pk}/change/", entry_form(cup, rows))
    assert response.status_code == 302 and cup.entries.count() == 0, "the inline adds nobody"
    too_many = client.post(
        f"/admin/tournaments/tournament/{cup.pk}/change/", entry_form(cup, [], add_players="alice, bob, carol")
    )
    assert "0 entered and 3 to add would make 3: this tournament takes 2." in too_many.content.decode()
    assert cup.entries.count() == 0
    url = f"/admin/tournaments/tournament/{cup.pk}/change/"
    response = client.post(url, entry_form(cup, [], add_players="alice, bob"))
    assert response.status_code == 302, response.context["adminform"].form.errors
    assert sorted(cup.entries.values_list("user__username", flat=True)) == ["alice", "bob"]
    client.post(f"/admin/tournaments/tournament/{cup.pk}/change/", entry_form(cup, [], add_house_bots="random"))
    assert cup.entries.count() == 2


def test_nobody_seats_a_house_bot_on_a_person_s_seat(client, olga, alice, bob):
    """The admin could set a person's entry to be played by HardBot: a rated seat moved by 20
    points with neither of them moving."""
    from django.core.exceptions import ValidationError

    from games.matches import lifecycle
    from games.matches.errors import MatchError
    from tournaments.models import Entry

    cup = Tournament.objects.create(name="Cup", game="dudo", organizer=olga, starts_at=timezone.now())
    client.force_login(olga)
    entry = services.enter(cup.pk, alice)
    change = entry_form(cup, [], max_entries=16)
    change.update({"entries-INITIAL_FORMS": "1", "entries-TOTAL_FORMS": "1", "entries-0-id": entry.pk,
                   "entries-0-tournament": cup.pk, "entries-0-user": alice.pk, "entries-0-house_bot": "heuristic"})
    assert client.post(f"/admin/tournaments/tournament/{cup.pk}/change/", change).status_code == 302
    entry.refresh_from_db()
    assert entry.house_bot == ""
    with pytest.raises(ValidationError, match="never a person's"):
        Entry(tournament=cup, user=bob, house_bot="heuristic").full_clean()
    with pytest.raises(MatchError, match="never a person's"):
        lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice, "house_bot": "heuristic"}, {"user": bob}], now=timezone.now(),
            ranked=True, clock="turn", clock_initial_ms=30_000,
        )  # fmt: skip


def test_an_organizer_enters_another_owner_s_bot_only_with_its_owner_s_consent(client, olga, make_user):
    """A tester as olga entered dave's bot into an event; its failures there suspended it within a
    minute, in a match its owner never chose (issue 30's consent)."""
    from botapi.models import BotProfile

    dave = make_user("dave")
    bot = make_user("DaveBot", is_bot=True, bot_owner=dave)
    cup = Tournament.objects.create(
        name="Open", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(days=1), rounds=1
    )
    client.force_login(olga)
    url = f"/admin/tournaments/tournament/{cup.pk}/change/"
    refused = client.post(url, entry_form(cup, [], add_players="DaveBot"), follow=True)
    assert "belongs to dave, who has not opened it" in refused.content.decode()
    assert not cup.entries.exists()
    BotProfile.objects.create(bot=bot, open_to_challenges=True)
    client.post(url, entry_form(cup, [], add_players="DaveBot"))
    assert list(cup.entries.values_list("user__username", flat=True)) == ["DaveBot"]
