"""An arena in a real browser, on a desktop and on a phone: a player finds it on the home page,
joins, is seated against a house bot, goes berserk, plays the game to its end, is seated again
on their own, and sees the leaderboard move on the arena page while a watcher's page follows it
live (no reload)."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import wakeups
from games.matches.models import Match
from tests.browser.conftest import log_in, screenshot, socket_open, table_socket
from tests.browser.test_flows_in_browser import dudo_step, play_to_the_end
from tests.browser.test_tournament_pages_in_browser import assert_accessible, in_thread
from tournaments import running, series, services
from tournaments.models import Series, Tournament

pytestmark = pytest.mark.browser
VIEWPORTS = {"desktop": (1280, 900), "phone": (390, 844)}


def hourly_dudo_arena(organizer) -> Tournament:
    """A series' running arena of one-die Dudo at "3+2", with two random house bots to fill."""

    def build():
        first = Tournament.objects.create(
            name="Dudo Hourly Arena, now", game="dudo", format="arena", organizer=organizer, options={"dice": 1},
            time_control="3+2", duration_minutes=55, starts_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
        for bot in ("random", "random"):
            services.enter_house_bot(first.pk, bot)
        series.start_series(first, Series.Every.HOUR, name="Dudo Hourly Arena")
        return running.start(first.pk)

    return in_thread(build)


def upcoming_dudo_arena(organizer, starts_in: timedelta) -> Tournament:
    """An arena of Dudo at "3+2" that has not started, with a random house bot to fill."""

    def build():
        arena = Tournament.objects.create(
            name="Dudo Hourly Arena", game="dudo", format="arena", organizer=organizer, time_control="3+2",
            duration_minutes=55, starts_at=timezone.now() + starts_in,
        )  # fmt: skip
        services.enter_house_bot(arena.pk, "random")
        return arena

    return in_thread(build)


def match_id(page) -> int:
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


@pytest.mark.parametrize("viewport", VIEWPORTS)
def test_a_player_finds_an_arena_joins_plays_a_house_bot_is_seated_again_and_the_leaderboard_moves(
    site, strict, make_user, viewport
):
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = hourly_dudo_arena(olga)
    size = VIEWPORTS[viewport]

    # A visitor who keeps the arena's page open: in the dark theme on the phone, the light one on a desktop.
    watcher = strict.page(size, color_scheme="dark" if viewport == "phone" else "light")
    watcher.goto(f"{site}/tournaments/{arena.pk}/")
    expect(watcher.locator("#leaderboard")).to_contain_text("RandomBot")

    page = strict.page(size)
    log_in(page, site, "alice")
    page.goto(f"{site}/")
    arenas = page.locator("#arenas")
    expect(arenas).to_contain_text("running until")
    arenas.get_by_role("link", name=arena.name).click()
    page.wait_for_url(f"**/tournaments/{arena.pk}/")
    expect(page.locator("#arena-rules")).to_contain_text("A win is worth 2 points")
    expect(page.locator("#arena-rules")).to_contain_text("Berserk")
    assert "3+2" in page.locator("main p.muted").first.inner_text()
    assert_accessible(page, f"arena page ({viewport})")
    screenshot(page, f"screenshots/arena-{viewport}")
    page.click("#arena-join")

    page.wait_for_url("**/match/*/")  # seated against a house bot at once
    first = match_id(page)
    expect(page.locator("#occasion")).to_have_text(arena.name)
    expect(page.locator("#occasion")).to_be_visible()  # on a phone too: the line the rest of the head folds into
    standing = re.compile(r"^you: 0 points, 1st of 3 · 5[45] minutes left$")
    expect(page.locator("#occasion-standing")).to_have_text(standing)
    expect(page.locator("#sound-ask")).to_be_visible()  # asked once on this browser, left unanswered
    expect(page.locator("#seats li")).to_have_count(2)
    expect(page.locator("#occasion-offer")).to_contain_text("a win earns 1 more point")
    screenshot(page, f"screenshots/arena-table-{viewport}")
    page.click("#occasion-offer button")  # berserk, before the first move
    expect(page.locator(".messages")).to_contain_text("Berserk! Your clock is halved")
    assert Match.objects.get(pk=first).seats.get(user__username="alice").clock_ms == 90_000
    expect(page.locator("#seats li")).to_have_count(2)
    expect(page.locator("#occasion-offer")).to_have_count(0)
    expect(page.locator("#seats li.me .seat-event-note")).to_have_text("berserk")  # everyone at the table sees it
    screenshot(page, f"screenshots/arena-berserk-{viewport}")
    expect(watcher.locator("#leaderboard")).to_contain_text("playing")
    # Her own arena page, kept open in a second tab: it shows her next game but does not go there.
    standings = page.context.new_page()
    standings.goto(f"{site}/tournaments/{arena.pk}/")
    expect(standings.locator("#arena-me")).to_contain_text("Your game is waiting: go to table")

    play_to_the_end(page, dudo_step)
    finished = Match.objects.get(pk=first)
    won = finished.result["ranking"][0] == [finished.seats.get(user__username="alice").number]
    # The line is drawn again as the game ends: her points are there before the next game takes her on.
    expect(page.locator("#occasion-standing")).to_contain_text(f"you: {3 if won else 0} points")
    # Drawn again as the game ends: the arena seats her at once, so the line soon links to her next game.
    expect(page.locator("#occasion-next")).to_contain_text(
        re.compile(r"The arena seats you again|: your game has started, go to its table")
    )
    page.wait_for_url(lambda url: "/match/" in url and f"/match/{first}/" not in url, timeout=30_000)
    assert match_id(page) != first, "seated again on their own, at a new table"
    expect(page.locator("#sound-toggle")).to_be_visible()  # not asked again at the next table
    expect(page.locator("#sound-ask")).to_be_hidden()
    # Said by its leaderboard's refresh or by the notices socket, whichever hears first.
    expect(standings.locator(".messages")).to_contain_text(re.compile("your game has started", re.IGNORECASE))
    expect(standings.locator(".messages a", has_text="go to")).to_have_attribute("href", f"/match/{match_id(page)}/")
    assert standings.url == f"{site}/tournaments/{arena.pk}/", "the standings stay where she left them"
    expect(standings.locator("#leaderboard")).to_be_visible()

    alice_row = watcher.locator("#leaderboard tbody tr", has_text="alice")
    expect(alice_row.locator(".arena-sheet .mark")).to_have_count(1, timeout=30_000)  # moved without a reload
    expect(alice_row.locator("td").nth(2)).to_have_text("3" if won else "0")
    # Measured in one step: the page replaces the leaderboard every few seconds.
    right = watcher.locator("#leaderboard").evaluate("board => board.getBoundingClientRect().right")
    assert right <= size[0], "the leaderboard fits the screen, no sideways scroll"
    screenshot(watcher, f"screenshots/arena-leaderboard-{viewport}")
    assert_accessible(watcher, f"arena leaderboard ({viewport}, {'dark' if viewport == 'phone' else 'light'} theme)")

    # At her second table she does not go berserk: once she has moved, the table takes the offer away.
    offer = page.locator("#occasion-offer")
    expect(offer).to_be_visible()
    expect(page.locator("#dudo-bid, #dudo-doubt").first).to_be_visible(timeout=30_000)
    dudo_step(page)
    expect(offer).to_have_count(0)


def test_before_the_start_the_arena_counts_down_and_joining_is_said_once(site, strict, make_user):
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = upcoming_dudo_arena(olga, timedelta(minutes=14, seconds=30))
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{arena.pk}/")
    expect(page.locator("#arena-countdown")).to_contain_text("Starts in 15 minutes")
    assert "Hourly Arena" in page.locator("h1").inner_text() and ":" not in page.locator("h1").inner_text()
    page.click("#arena-join")
    expect(page.locator("#arena-me")).to_have_text("You are in: your first game starts when the arena does.")
    expect(page.locator("main")).to_contain_text("Leaving before the start takes you off the list of players")
    assert page.locator("main").inner_text().count("your first game starts") == 1, "said once, not twice"
    expect(page.locator("#arena-legend")).to_contain_text("a win 2 points, a draw 1, a loss 0")
    page.click("#arena-leave")
    expect(page.locator(".messages")).to_contain_text("You have left the arena before its start")
    expect(page.locator("#arena-join")).to_be_visible()


def test_at_the_start_the_arena_page_takes_its_player_to_her_first_game(site, strict, make_user):
    """With no table of hers open in another tab, the arena's page is where she waits for the start:
    it opens her first game (her clock runs from the start), as a Lichess arena's page does."""
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = upcoming_dudo_arena(olga, timedelta(minutes=10))
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{arena.pk}/")
    page.click("#arena-join")
    expect(page.locator("#arena-me")).to_have_text("You are in: your first game starts when the arena does.")
    watcher = strict.page()  # a visitor's page, open since before the start
    watcher.goto(f"{site}/tournaments/{arena.pk}/")
    expect(watcher.locator("#tournament-status")).to_have_text("Open for entries")
    in_thread(lambda: running.start(arena.pk))
    page.wait_for_url("**/match/*/", timeout=30_000)
    expect(page.locator("#occasion")).to_have_text(arena.name)
    # The page above the leaderboard follows the start too (its status, what may be done), unreloaded by hand.
    expect(watcher.locator("#tournament-status")).to_have_text("Running", timeout=30_000)
    expect(watcher.locator("main")).to_contain_text("Running until")


def seated_in_the_arena(strict, site: str, arena) -> tuple:
    """alice joins the arena from its page and is seated at once: her table's page and match id."""
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{arena.pk}/")
    page.click("#arena-join")
    page.wait_for_url("**/match/*/")
    return page, match_id(page)


def test_a_player_coming_back_to_the_arena_page_is_taken_to_her_game_under_way(site, strict, make_user):
    """Her clock runs whether she comes or not: a tester who came back to the arena's page while
    seated was left on the standings for over 90 s. With no table of hers open elsewhere, the page
    says where her game is and takes her there as it opens."""
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = hourly_dudo_arena(olga)
    first, table = seated_in_the_arena(strict, site, arena)
    first.context.close()  # she went away

    page = strict.page()  # and comes back on another browser, to the arena's page
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{arena.pk}/")
    link = page.locator("#arena-me a[data-my-table]")
    assert link.inner_text() == "go to table" and link.get_attribute("href") == f"/match/{table}/"
    assert page.locator("#arena-me").inner_text().startswith("Your game is waiting: go to table")
    page.wait_for_url(f"**/match/{table}/", timeout=10_000)


def test_a_finished_arena_game_she_left_to_the_clock_says_in_words_that_it_counted_as_a_forfeit(
    site, strict, make_user, settings
):
    """She came to the table and let the clock make every move: the match ranks her last and the
    arena counts a forfeit, which the finished table says beside her name, not only in a tooltip."""
    # The clock does not count her out first ("timed out" would say it instead): how many of its moves
    # that takes against the game's length depends on the deal, which differs from run to run.
    settings.MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT = 10_000
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = hourly_dudo_arena(olga)
    page, table = seated_in_the_arena(strict, site, arena)
    socket_open(page, table_socket(page))  # she came: her table's socket is open
    finished = in_thread(lambda: wakeups.play_out(table))
    assert finished.result["idle"] == [finished.seats.get(user__username="alice").number]
    page.context.close()  # the arena seats her again: this page would move on to that game
    looking = strict.page()
    log_in(looking, site, "alice")
    looking.goto(f"{site}/match/{table}/")
    expect(looking.locator("#result ol")).to_contain_text("(no move of their own: counted as a forfeit)")
    assert looking.locator("#result ol li").last.inner_text().startswith("alice")


def test_a_player_who_pauses_in_another_tab_is_told_so_at_her_table_when_its_game_ends(site, strict, make_user):
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = hourly_dudo_arena(olga)
    page, first = seated_in_the_arena(strict, site, arena)
    standings = page.context.new_page()
    standings.goto(f"{site}/tournaments/{arena.pk}/")
    standings.click("#arena-pause")
    expect(standings.locator("#arena-me")).to_contain_text("You are paused: your points and your place stay")

    play_to_the_end(page, dudo_step)  # the table was drawn before the pause: its lines are drawn again now
    paused = "You are paused: your points stay; press “Rejoin the arena” on its page to be seated again."
    expect(page.locator("#occasion-next")).to_contain_text(paused)
    expect(page.locator("#occasion-standing")).to_contain_text(" · paused · ")
    assert "seats you again" not in page.locator("#occasion-next").inner_text()
    assert match_id(page) == first, "nobody seats a paused player"


def test_the_opponent_sees_at_once_that_a_player_went_berserk(site, strict, make_user):
    olga, alice, bob = make_user("olga", role="organizer"), make_user("alice"), make_user("bob")

    def build():
        arena = Tournament.objects.create(
            name="Dudo Duel Arena", game="dudo", format="arena", organizer=olga, options={"dice": 1},
            time_control="3+2", duration_minutes=30, starts_at=timezone.now() + timedelta(hours=1),
        )  # fmt: skip
        for player in (alice, bob):
            services.enter(arena.pk, player)
        return running.start(arena.pk)

    arena = in_thread(build)
    match = Match.objects.get(seats__user=alice, status=Match.Status.RUNNING)
    pages = {}
    for name in ("alice", "bob"):
        pages[name] = strict.page()
        log_in(pages[name], site, name)
        pages[name].goto(f"{site}/match/{match.pk}/")
        expect(pages[name].locator("#seats li")).to_have_count(2)
    bobs_view = pages["bob"].locator("#seats li", has_text="alice")
    expect(bobs_view.locator(".seat-event-note")).to_have_count(0)
    pages["alice"].click("#occasion-offer button")
    expect(pages["alice"].locator(".messages")).to_contain_text("Berserk! Your clock is halved")
    expect(bobs_view.locator(".seat-event-note")).to_have_text("berserk")  # no reload on his side
    expect(pages["bob"].locator(".messages")).to_contain_text(f"{arena.name}: alice went berserk")
