"""An arena's pages (tournaments/arena_pages.py): the page in words, joining, pausing and
rejoining, the leaderboard fragment the page polls, berserk from the table, and the home page."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import lifecycle, presence
from games.matches.models import Match
from tests.tournaments.test_arena_running import at_table, lose, opponent
from tournaments import running, services
from tournaments.arena_pages import leaderboard
from tournaments.formats import arena as arena_format
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # joining seats a wave once the entry commits


@pytest.fixture
def arena(olga):
    tournament = Tournament.objects.create(
        name="Dudo Hourly Arena, Sun 29 Nov, 15:00 UTC", game="dudo", format="arena", organizer=olga,
        starts_at=timezone.now() + timedelta(minutes=30), time_control="3+2", duration_minutes=55,
        options={"dice": 1},
    )  # fmt: skip
    for bot in ("random", "random"):
        services.add_house_bot(tournament.pk, bot)
    return tournament


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_page_says_the_rules_and_the_times_in_words_and_offers_to_join(client, arena, alice):
    client.force_login(alice)
    page = text(client.get(f"/tournaments/{arena.pk}/"))
    assert "Dudo · Arena, 55 minutes at tables of 2 · 3+2 · berserk allowed" in page
    assert "Starts " in page and " and runs until " in page
    assert "A win is worth 2 points, a draw 1, a loss nothing." in page
    assert "Win 2 games in a row and you are on a streak: every game after counts double" in page
    assert "Berserk: before your first move, you may halve your own clock" in page
    assert "Join the arena" in page and "Nobody has joined yet." not in page, "its house bots are listed"


def test_joining_before_the_start_then_at_the_start_sits_the_player_at_a_table(client, arena, alice):
    client.force_login(alice)
    response = client.post(f"/tournaments/{arena.pk}/arena/join/", follow=True)
    assert "You are in: your first game starts as soon as the arena does." in text(response)
    running.start(arena.pk)
    page = text(client.get(f"/tournaments/{arena.pk}/leaderboard/"))
    assert "Your game is on. Play your game" in page
    assert re.search(r"alice · playing 0 none yet", page)


def test_joining_while_it_runs_goes_straight_to_the_table(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    response = client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    table = text(client.get(response["Location"]))
    assert arena.name in table and "Berserk" in table and "a win earns 1 more point" in table


def test_berserk_from_the_table_halves_the_clock_and_says_so(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    page = text(client.post(f"/tournaments/{arena.pk}/berserk/", follow=True))
    assert "Berserk! Your clock is halved: a win earns one more point." in page
    assert match.seats.get(user=alice).clock_ms == 90_000
    again = text(client.post(f"/tournaments/{arena.pk}/berserk/", follow=True))
    assert "You went berserk in this game already." in again


def test_pause_and_rejoin_from_the_page(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    page = text(client.post(f"/tournaments/{arena.pk}/arena/pause/", follow=True))
    assert "Paused: you are not seated again until you rejoin. Your points stay." in page
    presence.connected(match.pk, match.seats.get(user=alice).number, "socket-alice", True)
    lifecycle.leave_match(match.pk, alice)
    running.record_match(match.pk)
    page = text(client.get(f"/tournaments/{arena.pk}/"))
    assert "You are paused: your points stay until you rejoin." in page and "Rejoin the arena" in page
    response = client.post(f"/tournaments/{arena.pk}/arena/rejoin/")
    assert response["Location"].startswith("/match/") and response["Location"] != f"/match/{match.pk}/"


def test_the_leaderboard_marks_doubled_and_berserk_games_and_equal_points_share_a_place(arena, alice):
    services.enter(arena.pk, alice)
    running.start(arena.pk)
    rows = {row.player: row for row in leaderboard(arena)}
    assert {row.place for row in rows.values()} == {1}, "nobody has a point: all share first place"
    assert rows["RandomBot"].bot and rows["alice"].marks == [] and rows["alice"].now == "playing"
    arena_format.go_berserk(arena.pk, alice)
    for _ in range(3):
        match = at_table(arena, alice)
        lose(match, opponent(match, alice))
    rows = {row.player: row for row in leaderboard(arena)}
    assert [(m.points, m.doubled, m.berserk) for m in rows["alice"].marks] == [(3, False, True), (2, False, False),
                                                                               (4, True, False)]  # fmt: skip
    assert rows["alice"].marks[2].words == "won, on a streak (double): 4 points"
    assert (rows["alice"].place, rows["alice"].points, rows["alice"].on_streak) == (1, 9, True)
    assert [m.words for m in rows["RandomBot"].marks] == ["lost: 0 points", "lost: 0 points"]


def test_the_home_page_lists_the_arena_to_join_now(client, arena):
    running.start(arena.pk)
    page = text(client.get("/"))
    assert "Arenas: join any time" in page
    assert f"{arena.name} · Dudo, 3+2 · running until" in page and ": join now" in page


def test_an_organizer_schedules_an_arena_with_a_clock_per_game_and_berserk(client, olga):
    from tests.tournaments.test_dashboard import form_data

    client.force_login(olga)
    form = client.get("/organize/new/dudo/").content.decode()
    assert "Clock per game" in form and "None: seconds per turn" in form and "Allow berserk" in form
    data = form_data(name="Lunch Arena", format="arena", time_control="3+2", duration_minutes="45", berserk="on")
    response = client.post("/organize/new/dudo/", data)
    made = Tournament.objects.get(name="Lunch Arena")
    assert response.status_code == 302, text(response)
    assert (made.format, made.time_control, made.duration_minutes, made.berserk) == ("arena", "3+2", 45, True)
    assert made.clock_label == "3+2" and made.may_berserk and made.format_summary == "Arena, 45 minutes at tables of 2"
    swiss = client.post("/organize/new/dudo/", form_data(name="Swiss with a bank", time_control="5+5", berserk="on"))
    assert swiss.status_code == 302
    made = Tournament.objects.get(name="Swiss with a bank")
    assert (made.clock_label, made.duration_minutes, made.berserk) == ("5+5", 60, True), "settings of other formats"
    assert not made.may_berserk, "berserk is an arena's"


def test_the_organizers_page_and_the_downloads_of_an_arena_with_games_played(client, arena, olga, alice):
    services.enter(arena.pk, alice)
    running.start(arena.pk)
    match = at_table(arena, alice)
    lose(match, opponent(match, alice))
    client.force_login(olga)
    page = text(client.get(f"/organize/{arena.pk}/"))
    assert "runs until" in page and "round 1 of 0" not in page
    assert "One of the series" not in page and "Repeat this tournament" in page
    for what in ("standings.csv", "pairings.json", "standings.json", "pairings.csv"):
        assert client.get(f"/tournaments/{arena.pk}/{what}").status_code == 200, what
    standings = client.get(f"/tournaments/{arena.pk}/standings.json").json()
    assert "alice" in str(standings)


def test_an_organizer_starts_an_arena_nobody_has_joined_yet(client, olga):
    empty = Tournament.objects.create(
        name="Empty Arena", game="dudo", format="arena", organizer=olga, starts_at=timezone.now() + timedelta(hours=1)
    )
    client.force_login(olga)
    page = text(client.post(f"/organize/{empty.pk}/start/", follow=True))
    empty.refresh_from_db()
    assert empty.status == Tournament.Status.RUNNING, page
