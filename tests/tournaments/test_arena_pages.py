"""An arena's pages (tournaments/arena_pages.py): the page in words, joining, pausing and
rejoining, the leaderboard fragment the page polls, berserk from the table, and the home page."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import lifecycle, presence, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match
from tests.tournaments.test_arena_running import at_table, lose, opponent, won_by_the_clock
from tournaments import running, services, tasks
from tournaments.arena_pages import leaderboard
from tournaments.formats import arena as arena_format
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # joining seats a wave once the entry commits


@pytest.fixture
def arena(olga):
    tournament = Tournament.objects.create(
        name="Dudo Hourly Arena", game="dudo", format="arena", organizer=olga,
        starts_at=timezone.now() + timedelta(minutes=30), time_control="3+2", duration_minutes=55,
        options={"dice": 1},
    )  # fmt: skip
    for bot in ("random", "random"):
        services.enter_house_bot(tournament.pk, bot)
    return tournament


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


def test_the_page_says_the_rules_and_the_times_in_words_and_offers_to_join(client, arena, alice):
    client.force_login(alice)
    page = text(client.get(f"/tournaments/{arena.pk}/"))
    assert "Dudo · Arena, 55 minutes at tables of 2 · 3+2 · berserk allowed" in page
    assert "Starts " in page and " and runs until " in page
    assert re.search(r"Starts in (29|30) minutes \(\d\d:\d\d UTC\)\.", page), "a countdown to the start"
    assert "A win is worth 2 points, a draw 1, a loss nothing." in page
    assert "Win 2 games in a row and you are on a streak: every game after counts double" in page
    assert "Berserk: before your first move, you may halve your own clock" in page
    assert "Join the arena" in page and "Nobody has joined yet." not in page, "its house bots are listed"


def test_joining_before_the_start_is_said_once_and_leaving_before_it_is_not_pausing(client, arena, alice):
    client.force_login(alice)
    page = text(client.post(f"/tournaments/{arena.pk}/arena/join/", follow=True))
    assert page.count("You are in: your first game starts when the arena does.") == 1, "said once, not twice"
    assert "Leave the arena" in page and "Leaving before the start takes you off the list of players" in page
    assert "Pause" not in page.split("How an arena works")[0], "no pausing before the start"
    page = text(client.post(f"/tournaments/{arena.pk}/arena/leave/", follow=True))
    assert "You have left the arena before its start: you are no longer entered." in page
    assert "Join the arena" in page and not arena.entries.filter(user=alice).exists()


def test_joining_before_the_start_then_at_the_start_sits_the_player_at_a_table(client, arena, alice):
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    running.start(arena.pk)
    page = text(client.get(f"/tournaments/{arena.pk}/leaderboard/"))
    assert "Your game is waiting: go to table" in page and "Starts in" not in page
    assert re.search(r"alice · playing 0 none yet", page)


def test_joining_while_it_runs_goes_straight_to_the_table(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    response = client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"
    table = text(client.get(response["Location"]))
    assert arena.name in table and "Berserk" in table and "a win earns 1 more point" in table


def test_joining_goes_straight_to_the_table_before_a_worker_has_run_the_queued_wave(client, arena, alice, monkeypatch):
    """On the real stack the queued wave runs on a Celery worker after the answer went out."""
    running.start(arena.pk)
    monkeypatch.setattr(tasks.arena_wave, "delay", lambda tournament_id: None)  # the worker is not there yet
    client.force_login(alice)
    response = client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    assert response.status_code == 302 and response["Location"] == f"/match/{match.pk}/"


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


def test_berserk_is_offered_only_before_the_player_s_first_move(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    offer = "Halve your clock now, before your first move"
    assert offer in text(client.get(f"/match/{match.pk}/"))
    seat = match.seats.get(user=alice).number
    if seat not in match.engine.to_act(match.load_state()):
        wakeups.wake_all_due(match.pk, now=timezone.now() + timedelta(seconds=10))  # the bot opens
    match.refresh_from_db()
    submit_action(match.pk, alice, match.engine.legal_actions(match.load_state(), seat)[0], match.seq)
    assert offer not in text(client.get(f"/match/{match.pk}/")), "after her first move, no berserk button"


def test_pause_and_rejoin_from_the_page(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = Match.objects.get(seats__user=alice)
    page = text(client.get(f"/tournaments/{arena.pk}/"))
    assert "Pausing is not leaving: you keep your points and your place on the leaderboard" in page
    assert "Leave the arena" not in page.split("How an arena works")[0]
    refused = text(client.post(f"/tournaments/{arena.pk}/entry/", {"withdraw": "1"}, follow=True))
    assert "In an arena you pause instead: your points stay" in refused
    page = text(client.post(f"/tournaments/{arena.pk}/arena/pause/", follow=True))
    paused = "You are paused: your points and your place stay; press “Rejoin the arena” to be seated again."
    after_this_game = "You are paused: your points and your place stay; after this game nobody seats you until you"
    assert page.count(after_this_game) == 1, "the card says it, no message repeats it"
    assert "withdrawn" not in page
    presence.connected(match.pk, match.seats.get(user=alice).number, "socket-alice", True)
    lifecycle.leave_match(match.pk, alice)
    running.record_match(match.pk)
    page = text(client.get(f"/tournaments/{arena.pk}/"))
    assert paused in page and "Rejoin the arena" in page
    ended = text(client.get(f"/match/{match.pk}/"))
    assert arena_format.PAUSED in ended and "seats you again as soon as" not in ended, "paused: no seat is promised"
    response = client.post(f"/tournaments/{arena.pk}/arena/rejoin/")
    assert response["Location"].startswith("/match/") and response["Location"] != f"/match/{match.pk}/"
    assert "Welcome back: your next game is on." in text(client.get(response["Location"]))


def test_an_arena_table_says_where_its_player_stands_and_who_went_berserk(client, arena, alice):
    running.start(arena.pk)
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    match = at_table(arena, alice)
    page = text(client.get(f"/match/{match.pk}/"))
    assert re.search(r"Dudo Hourly Arena · you: 0 points, 1st of 3 · (54|55) minutes left", page), page
    lose(match, opponent(match, alice))
    client.post(f"/tournaments/{arena.pk}/berserk/")
    match = at_table(arena, alice)
    lose(match, opponent(match, alice))
    match = at_table(arena, alice)
    page = text(client.get(f"/match/{match.pk}/"))
    assert re.search(r"you: 5 points, 1st of 3 · on a streak · (54|55) minutes left", page), page
    client.post(f"/tournaments/{arena.pk}/berserk/")
    seat = match.seats.get(user=alice).number
    html = client.get(f"/match/{match.pk}/").content.decode()
    assert f'data-seat-note="{seat}">berserk<' in html, "everyone at the table sees who went berserk"
    assert "you:" not in text(client.logout() or client.get(f"/match/{match.pk}/")), "a visitor has no standing"


def test_the_leaderboard_s_key_says_what_each_game_is_worth_in_words(client, arena):
    page = text(client.get(f"/tournaments/{arena.pk}/leaderboard/"))
    assert "How the points are counted" in page
    assert "a win 2 points, a draw 1, a loss 0" in page
    assert "Win 2 games in a row and you are on a streak: every game after counts double (a win 4, a draw 2)" in page
    assert "Berserk (halving your own clock before your first move) adds 1 point to a win: 3, or 5 on a streak" in page
    assert "Every game played berserk is underlined, won or not: a berserk win 3 , a berserk loss 0 ." in page
    assert "A dash (–) is a game that did not happen, because the other player never came" in page
    arena.berserk = False
    arena.save(update_fields=["berserk"])
    assert "Berserk" not in text(client.get(f"/tournaments/{arena.pk}/leaderboard/"))


def test_a_player_in_one_arena_is_refused_an_overlapping_one_with_a_sentence_until_they_pause(
    client, arena, olga, alice
):
    later = Tournament.objects.create(
        name="Dubito Hourly Arena", game="dubito", format="arena", organizer=olga, time_control="3+2",
        starts_at=arena.starts_at + timedelta(minutes=12), duration_minutes=55,
    )  # fmt: skip
    services.enter_house_bot(later.pk, "random")
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    page = text(client.post(f"/tournaments/{later.pk}/arena/join/", follow=True))
    assert re.search(
        r"You are already in Dudo Hourly Arena, from \d\d:\d\d to \d\d:\d\d UTC, which overlaps this arena: you play "
        r"one arena at a time\. Leave that one on its page first",
        page,
    ), page
    assert not later.entries.filter(user=alice).exists()
    running.start(arena.pk)
    running.start(later.pk)
    page = text(client.post(f"/tournaments/{later.pk}/arena/join/", follow=True))
    assert "You are playing in Dudo Hourly Arena until" in page and "Pause there first (your points stay)" in page
    client.post(f"/tournaments/{arena.pk}/arena/pause/")
    client.post(f"/tournaments/{later.pk}/arena/join/")
    assert later.entries.filter(user=alice, paused=False).exists(), "paused in one, she plays the other"
    page = text(client.post(f"/tournaments/{arena.pk}/arena/rejoin/", follow=True))
    assert "You are playing in Dubito Hourly Arena until" in page, "nor does she come back to the first meanwhile"
    assert arena.entries.get(user=alice).paused


def test_an_arena_after_the_other_ends_does_not_overlap(client, arena, olga, alice):
    after = Tournament.objects.create(
        name="Dobble Hourly Arena", game="dobble", format="arena", organizer=olga,
        starts_at=arena.ends_at, duration_minutes=55,
    )  # fmt: skip
    services.enter(arena.pk, alice)
    services.enter(after.pk, alice)
    assert after.entries.filter(user=alice).exists()


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


def test_the_play_page_points_to_the_arena_to_join_next(client, arena):
    page = text(client.get("/play/"))
    starts = r"starts \w{3} \d+ \w{3}, \d\d:\d\d UTC\."
    assert re.search(rf"Or play an arena: .* Dudo Hourly Arena \(Dudo, 3\+2\) {starts} All tournaments", page), page
    running.start(arena.pk)
    assert re.search(r"Dudo Hourly Arena \(Dudo, 3\+2\) runs until \d\d:\d\d UTC: join now", text(client.get("/play/")))
    arena.delete()
    assert "Or play an arena" not in text(client.get("/play/")), "no arena, no line"


def test_the_home_page_and_the_tournament_list_count_down_to_an_arena_s_start(client, arena):
    assert re.search(r"Dudo Hourly Arena · Dudo, 3\+2 · starts \w{3} \d+ \w{3}, \d\d:\d\d UTC \(in (29|30) minutes\)",
                     text(client.get("/")))  # fmt: skip
    listed = text(client.get("/tournaments/"))
    starts = r"\w{3} \d+ \w{3} \d{4}, \d\d:\d\d UTC \(in (29|30) minutes\)"
    assert re.search(rf"Dudo Hourly Arena Dudo Arena {starts} olga", listed)


def test_the_tournament_list_shows_what_runs_first_then_what_comes_soonest_first(client, arena, olga):
    def make(name, minutes):
        return Tournament.objects.create(
            name=name, game="dudo", format="arena", organizer=olga, duration_minutes=30,
            starts_at=timezone.now() + timedelta(minutes=minutes),
        )  # fmt: skip

    make("Late Arena", 240)
    make("Soon Arena", 10)
    running.start(make("Lunch Arena", 5).pk)
    page = text(client.get("/tournaments/"))
    order = ["Running now", "Lunch Arena", "Coming up, soonest first", "Soon Arena", "Dudo Hourly Arena", "Late Arena"]
    assert [page.index(words) for words in order] == sorted(page.index(words) for words in order), page


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


@pytest.mark.parametrize(
    ("left", "words"),
    [
        (timedelta(minutes=54, seconds=5), "54 minutes left"),  # a tester saw "55" here
        (timedelta(minutes=1), "1 minute left"),
        (timedelta(seconds=59), "less than a minute left"),
        (timedelta(0), "time is up: the last games are being played out"),
    ],
)
def test_the_time_left_counts_whole_minutes_still_to_play(left, words):
    now = timezone.now()
    started = now + left - timedelta(minutes=55)
    arena = Tournament(status=Tournament.Status.RUNNING, started_at=started, duration_minutes=55)
    assert arena_format.time_left(arena, now) == words


def test_a_game_left_to_the_clock_is_said_in_words_beside_the_sheet_not_only_in_a_tooltip(client, arena, alice):
    client.force_login(alice)
    client.post(f"/tournaments/{arena.pk}/arena/join/")
    running.start(arena.pk)
    match = won_by_the_clock(at_table(arena, alice), alice)
    running.record_match(match.pk)
    page = text(client.get(f"/tournaments/{arena.pk}/leaderboard/"))
    assert re.search(r"alice · \w+ 0 0 · game 1: no move of their own, counted as a forfeit", page)
    assert "A game in which a player came but made no move of their own (the clock made every one) is counted" in page
