"""The tournament pages' newer parts in a real browser, under the `strict` guard and axe:
the organizer's result correction through its form, standings with tiebreak columns and the
normalisation note, export links, the printable round sheet, the knockout bracket, late
entrants, and the check-in and withdraw buttons."""

import re
import time
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import lifecycle, wakeups
from games.matches.models import Seat
from tests.browser.conftest import in_thread, log_in, screenshot, socket_heard, socket_open
from tests.browser.test_accessibility_in_browser import BLOCKING, axe_violations, describe
from tournaments import organizing, running, services
from tournaments.models import Score, Tournament

pytestmark = pytest.mark.browser


def played_out(organizer, name, game, bots, **fields) -> Tournament:
    def build():
        # Started here, not by the beat: a start time in the past would let the real stack's
        # tournament tick close entries before the bots are in.
        later = timezone.now() + timedelta(hours=1)
        cup = Tournament.objects.create(name=name, game=game, organizer=organizer, starts_at=later, **fields)
        for bot in bots:
            services.enter_house_bot(cup.pk, bot)
        running.start(cup.pk)
        running.play_out(cup.pk)
        return cup

    return in_thread(build)


def quick_dudo(organizer, player, rounds: int) -> Tournament:
    """A started Swiss of one-die Dudo: the player and three random house bots, a 20-second
    clock, and no wait for a player who does not come (the clock plays her games out, and she
    stays paired though it made every move of hers)."""

    def build():
        cup = Tournament.objects.create(
            name="Quick Dudo", game="dudo", organizer=organizer, starts_at=timezone.now() + timedelta(hours=1),
            rounds=rounds, turn_seconds=20, no_show_minutes=0, withdraw_no_shows=False, options={"dice": 1},
        )  # fmt: skip
        services.enter(cup.pk, player)
        for bot in ["random", "random", "random"]:
            services.enter_house_bot(cup.pk, bot)
        return running.start(cup.pk)

    return in_thread(build)


def assert_accessible(page, where: str) -> None:
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, f"{where}: {describe(blocking)}"


def test_the_organizer_corrects_a_result_through_the_form_and_the_record_is_public(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    cup = played_out(olga, "Dudo cup", "dudo", ["heuristic", "random", "heuristic"], rounds=2)
    table = cup.tables.filter(round=1).exclude(match=None).first()
    first, second = table.seating
    names = dict(cup.entries.values_list("pk", "user__username"))
    page = strict.page()
    log_in(page, site, "olga")
    page.goto(f"{site}/organize/{cup.pk}/")
    page.click(f"a[href='/organize/{cup.pk}/tables/{table.pk}/correct/']")
    page.wait_for_selector("#correction-form")
    assert_accessible(page, "correction form")
    page.fill(f"input[name=points_{first}]", "0.5")
    page.fill(f"input[name=points_{second}]", "0.5")
    page.click("#correction-form button[type=submit]")
    assert "This field is required." in page.locator("#correction-form").inner_text(), "a reason is required"
    page.fill("input[name=reason]", "Illegal bid accepted")
    screenshot(page, "screenshots/organizer-correct-result")
    page.click("#correction-form button[type=submit]")
    page.wait_for_selector("text=Round 1, table 1 corrected: the standings are updated.")
    record = page.locator("#corrections").inner_text()
    assert "corrected by olga" in record and "Illegal bid accepted" in record
    assert f"{names[first]}" in record and "→ 0.5" in record
    assert sorted(Score.objects.filter(table=table).values_list("points", flat=True)) == [0.5, 0.5]
    page.click("text=Public page")
    assert "Illegal bid accepted" in page.locator("#corrections").inner_text()
    assert page.locator("text=correct the result").count() == 0
    assert_accessible(page, "public page with corrections")


def test_standings_tiebreaks_exports_and_the_round_sheet(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    cup = played_out(olga, "Dudo cup", "dudo", ["heuristic", "random", "heuristic"], rounds=2)
    page = strict.page()
    page.goto(f"{site}/tournaments/{cup.pk}/")
    headers = page.locator("#standings thead th").all_inner_texts()
    assert headers[:5] == ["Place", "Seed", "Player", "Rating", "Points"]
    assert "Buchholz cut 1" in headers and "Sonneborn-Berger" in headers
    assert len(page.locator("#standings tbody tr").first.locator("td").all()) == len(headers)
    assert "Ties are split by Buchholz cut 1, then Buchholz" in page.locator("main").inner_text()
    for what, fmt, kind in [("standings", "csv", "text/csv"), ("pairings", "json", "application/json")]:
        link = page.locator(f"a[href='/tournaments/{cup.pk}/{what}.{fmt}']")
        assert link.count() == 1
        answer = page.context.request.get(f"{site}/tournaments/{cup.pk}/{what}.{fmt}")
        assert answer.status == 200 and answer.headers["content-type"].startswith(kind)
    assert_accessible(page, "tournament page")
    page.click("text=(printable sheet) >> nth=0")
    page.wait_for_url(f"**/tournaments/{cup.pk}/round/2/")
    sheet = page.locator("main").inner_text()
    assert "Players, in seat order" in sheet and ", 1 point (no game)." in sheet
    screenshot(page, "screenshots/round-sheet")
    assert_accessible(page, "round sheet")


def test_the_normalisation_note_and_the_knockout_bracket(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    totals = played_out(olga, "Buba night", "dudab", ["heuristic"] * 5, format="rounds-total", table_size=3, rounds=1)
    knockout = played_out(olga, "Dudo knockout", "dudo", ["heuristic", "random", "heuristic"], format="knockout")
    page = strict.page()
    page.goto(f"{site}/tournaments/{totals.pk}/")
    assert "Total (lowest wins)" in page.locator("#standings thead").inner_text()
    assert "Tables of different sizes: totals at 2-player tables are multiplied by" in page.locator("main").inner_text()
    assert_accessible(page, "rounds-total standings")
    page.goto(f"{site}/tournaments/{knockout.pk}/")
    bracket = page.locator("#bracket")
    assert bracket.locator("h3").first.inner_text() == "Semi-final" and "Final" in bracket.inner_text()
    assert "(bye)" in bracket.inner_text() and "→" in bracket.inner_text()
    screenshot(page, "screenshots/knockout-bracket")
    assert_accessible(page, "knockout bracket")


def test_a_running_bracket_draws_the_rounds_to_come_on_a_phone_too(site, strict, make_user, settings):
    olga = make_user("olga", role="organizer")
    # The house bots think for an hour: the site's ticker would otherwise play a quarter-final out
    # (someone out, with a place) while a loaded machine still opens the page.
    settings.HOUSE_BOT_THINK_MS = 3_600_000

    def build():
        cup = Tournament.objects.create(
            name="Club cup", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(hours=1),
            format="knockout", best_of=3,
        )  # fmt: skip
        for bot in ["heuristic", "random"] * 3:
            services.enter_house_bot(cup.pk, bot)
        return running.start(cup.pk)

    cup = in_thread(build)
    page = strict.page()
    page.goto(f"{site}/tournaments/{cup.pk}/")
    bracket = page.locator("#bracket")
    assert [h.inner_text() for h in bracket.locator("h3").all()] == ["Quarter-final", "Semi-final", "Final"]
    assert bracket.locator("li.to-come").count() == 3
    places = page.locator("#standings tbody tr td:first-child").all_inner_texts()
    assert places == ["—"] * 6, "nobody is out yet: no place to show, not 1 for the byes"
    assert "winner of semi-final 1 v winner of semi-final 2" in bracket.locator("section").last.inner_text()
    final, first = bracket.locator("li.to-come").last.bounding_box(), bracket.locator("li").first.bounding_box()
    assert final["y"] > first["y"] + first["height"], "the final sits between the pairings it follows"
    screenshot(page, "screenshots/knockout-bracket-running")
    assert_accessible(page, "running bracket")
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the page does not scroll sideways"
    screenshot(page, "screenshots/knockout-bracket-phone")
    page.locator("#standings").evaluate("table => { table.scrollLeft = 1000; }")
    name = page.locator("#standings tbody tr").first.locator("td").nth(2).bounding_box()
    assert 0 <= name["x"] < 390 / 2, "scrolled to the last columns, the player's name stays in view"
    screenshot(page, "screenshots/standings-phone-scrolled")


def test_a_round_robin_crosstable_fits_a_phone(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    cup = played_out(olga, "All-play-all", "dudo", ["heuristic", "random"] * 3, format="round-robin")
    page = strict.page()
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(f"{site}/tournaments/{cup.pk}/")
    crosstable = page.locator("#crosstable")
    assert crosstable.locator("tbody tr").count() == 6
    assert crosstable.locator("tbody tr").first.locator("td").nth(2).inner_text() == "×"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the table scrolls in its box, not the page"
    screenshot(page, "screenshots/round-robin-crosstable-phone")
    assert_accessible(page, "crosstable")


def test_a_finished_knockout_and_a_swiss_in_words(site, strict, make_user):
    """What an outside tester missed: distinct places from the final table's order, the round
    reached, byes and results in the round lists, "—" where direct encounter does not apply, the
    tiebreak legend, seeds."""
    olga = make_user("olga", role="organizer")
    bots = ["heuristic", "random", "heuristic"] * 3
    cup = played_out(olga, "Dudo table knockout", "dudo", bots, format="knockout", table_size=4, advance=2)
    swiss = played_out(olga, "Dudo Swiss", "dudo", ["heuristic", "random", "heuristic"], rounds=2)
    page = strict.page()
    page.goto(f"{site}/tournaments/{cup.pk}/")
    headers = page.locator("#standings thead th").all_inner_texts()
    assert headers == ["Place", "Seed", "Player", "Rating", "Reached", "Wins", "Played"]
    rows = [row.locator("td").all_inner_texts() for row in page.locator("#standings tbody tr").all()]
    assert [row[0] for row in rows[:3]] == ["1", "2", "3"], "the final table's order: places 1, 2, 3 distinct"
    assert [row[4] for row in rows[:2]] == ["Winner", "Final"] and rows[-1][4] == "Round 1"
    assert sorted(int(row[1]) for row in rows) == list(range(1, 10)), "every entrant's seed"
    final = page.locator(f"#round-{cup.rounds}").inner_text()
    assert "1st " in final and "2nd " in final and "3rd " in final, "the final's places in words"
    legend = page.locator("#standings-legend").inner_text()
    assert "Reached" in legend and "Wins" in legend and "finished alone in first place" in legend
    screenshot(page, "screenshots/knockout-standings-in-words")
    assert_accessible(page, "knockout standings")

    page.goto(f"{site}/tournaments/{swiss.pk}/")
    rows = [row.locator("td").all_inner_texts() for row in page.locator("#standings tbody tr").all()]
    headers = page.locator("#standings thead th").all_inner_texts()
    encounter = headers.index("Direct encounter")
    assert "—" in [row[encounter] for row in rows], "direct encounter where it does not apply"
    assert page.locator("""#standings thead abbr[title="the sum of your opponents' points"]""").count() == 1
    legend = page.locator("#standings-legend").inner_text()
    assert "Buchholz cut 1" in legend and "Buchholz without your weakest opponent" in legend
    for number in (1, 2):
        listed = page.locator(f"#round-{number}").inner_text()
        assert "Bye: " in listed and ", 1 point" in listed, f"round {number}: the bye"
        assert "points: " in listed and (" won" in listed or "draw" in listed), f"round {number}: the result"
    screenshot(page, "screenshots/swiss-standings-in-words")
    assert_accessible(page, "Swiss standings")


def test_check_in_withdraw_and_a_late_entry_in_the_browser(site, strict, make_user, alice, bob):
    olga = make_user("olga", role="organizer")

    def build():
        soon = Tournament.objects.create(
            name="Check-in cup",
            game="dudo",
            organizer=olga,
            starts_at=timezone.now() + timedelta(minutes=5),
            check_in_minutes=10,
        )
        running_cup = Tournament.objects.create(
            name="Late cup",
            game="dudo",
            organizer=olga,
            starts_at=timezone.now(),
            rounds=3,
            turn_seconds=0,
            late_entry_rounds=2,
            late_entry_points=0.5,
        )
        for bot in ["heuristic", "heuristic", "random"]:
            services.enter_house_bot(running_cup.pk, bot)
        services.enter(running_cup.pk, bob)  # sits at a table (no bye in a field of 4) and never comes:
        # without a clock round 1 waits for him, so late entry stays open
        running.start(running_cup.pk)
        return soon, running_cup

    soon, late = in_thread(build)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{soon.pk}/")
    page.click("button:has-text('Enter')")
    page.wait_for_selector("text=You are entered. Check in on this page between")
    page.click("button:has-text('Check in')")
    page.wait_for_selector("text=You are checked in")
    assert page.locator(".badge", has_text="checked in").is_visible()
    assert_accessible(page, "check-in")
    page.click("button:has-text('Withdraw')")
    page.wait_for_selector("text=You have withdrawn.")
    assert not soon.entries.filter(user=alice).exists()

    page.goto(f"{site}/tournaments/{late.pk}/")
    page.click("button:has-text('Enter late (from the next round)')")
    page.wait_for_selector("text=You are entered. Good luck!")
    assert Score.objects.get(entry__user=alice, tournament=late).points == 0.5
    row = page.locator("#standings tbody tr", has_text="alice")
    assert row.locator(".badge", has_text="entered late").is_visible()
    assert "Entered late: half a point for each round played before the entry" in page.locator("main").inner_text()
    page.click("text=Withdraw from the next rounds")  # asked first: a mis-tap does not take her out
    page.wait_for_url(f"**/tournaments/{late.pk}/withdraw/")
    assert "Only the organizer, olga, can pair you again" in page.locator("main").inner_text()
    assert_accessible(page, "withdrawal confirmation")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=You have withdrawn.")
    assert page.locator("#standings tbody tr", has_text="alice").locator(".badge", has_text="withdrawn").is_visible()
    assert_accessible(page, "late entry")


def test_a_no_show_opens_her_forfeited_game_and_reads_that_she_never_came(site, strict, make_user, alice):
    """Alice never opened her round-1 table and was forfeited; opening it afterwards, she reads
    that she did not come (not "left"), that the moves were the computer's, and finds the way back
    to the tournament instead of a rematch."""
    olga = make_user("olga", role="organizer")

    def build():
        cup = Tournament.objects.create(
            name="No-show cup", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(hours=1), rounds=2
        )
        for _ in range(3):  # the bots' other tables keep the tournament going without her
            services.enter_house_bot(cup.pk, "random")
        services.enter(cup.pk, alice)
        running.start(cup.pk)
        match = Seat.objects.get(match__tournament_table__tournament=cup, user=alice).match
        type(match).objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(minutes=6))
        running.forfeit_no_shows()
        return cup, match

    cup, match = in_thread(build)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#result:not([hidden])")
    result = page.locator("#result").inner_text()
    assert "alice (did not come" in result and "(left)" not in result, result
    assert "alice never came to the table" in result and "Not rated: fewer than two players came." in result
    assert "You are withdrawn from the next rounds" in page.locator("#occasion-next").inner_text()
    assert page.locator("#rematch").count() == 0
    page.click("#occasion")
    page.wait_for_url(f"{site}/tournaments/{cup.pk}/")
    screenshot(page, "no-show-back-at-the-tournament")


@pytest.mark.both_stacks
def test_a_player_waiting_on_the_tournament_page_is_taken_to_their_next_game_when_it_starts(site, strict, make_user):
    """Nothing told a player that round 2 had been seated: they stayed on the page, and the clock
    played their game for them."""
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")

    cup = quick_dudo(olga, ann, rounds=2)
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/tournaments/{cup.pk}/")
    socket_open(page, "/ws/notices/")
    in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=1)])
    second = in_thread(lambda: Seat.objects.get(match__tournament_table__round=2, user=ann).match_id)
    page.wait_for_url(f"{site}/match/{second}/")
    page.wait_for_selector("#seats li")
    screenshot(page, "tournament-next-game-found")


def at_a_casual_table_as_round_2_starts(site, strict, make_user, settings):
    """ann plays a casual game against a house bot while Quick Dudo's round 2 is seated (three
    rounds); her page has told her so. (page, olga, the tournament, the casual match, her round 2 match)."""
    settings.HOUSE_BOT_THINK_MS = 60_000  # her casual game waits on its bot's turn or on hers
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")
    cup = quick_dudo(olga, ann, rounds=3)
    casual = in_thread(
        lambda: lifecycle.start_seated_match(
            game="dudo",
            now=timezone.now(),
            seats=[{"user": ann}, {"user": lifecycle.house_bot_user("random"), "house_bot": "random"}],
        )
    )
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/match/{casual.pk}/")
    page.wait_for_selector("#seats li")
    socket_open(page, "/ws/notices/")
    in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=1)])
    second = in_thread(lambda: Seat.objects.get(match__tournament_table__round=2, user=ann).match_id)
    notice = page.locator(".messages li").first
    expect(notice).to_have_text("Round 2 of Quick Dudo: your game has started, go to its table")
    assert notice.locator("a").get_attribute("href") == f"/match/{second}/"
    return page, olga, cup, casual, second


def test_a_player_at_another_table_hears_which_tournament_game_started_and_that_it_was_cancelled(
    site, strict, make_user, settings
):
    """The notice said only "Your next game has started", and a cancelled tournament told its entrants nothing."""
    page, olga, cup, casual, _ = at_a_casual_table_as_round_2_starts(site, strict, make_user, settings)
    assert page.url == f"{site}/match/{casual.pk}/", "she stays at the game she is playing"
    in_thread(lambda: organizing.cancel(olga, cup.pk))
    cancelled = page.locator(".messages li").nth(1)
    expect(cancelled).to_have_text(
        "Quick Dudo was cancelled. Your game of it still under way is played to the end and rated, "
        "but no longer counts. See the tournament"
    )
    assert cancelled.locator("a").get_attribute("href") == f"/tournaments/{cup.pk}/"
    screenshot(page, "tournament-cancelled-notice")


def test_a_player_who_resigns_her_other_game_is_taken_to_her_tournament_game(site, strict, make_user, settings):
    """A tester's player heard that round 2 had started while in a casual game, resigned it, and
    stayed at the finished table while the clock played her tournament game: the resignation
    reloaded the page, which forgot that it was to move on once the game there ended."""
    page, _, _, _, second = at_a_casual_table_as_round_2_starts(site, strict, make_user, settings)
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Resign')")
    expect(page.locator("#result")).to_contain_text("ann (resigned)")
    page.wait_for_url(f"{site}/match/{second}/", timeout=10_000)


def test_a_player_sees_her_game_end_is_not_taken_from_a_form_she_is_filling_and_hears_the_end(site, strict, make_user):
    """A tester's player was taken to round 3 within a second of her round 2 ending, never seeing
    who won; another lost a half-typed new password to the move; nobody heard the tournament end."""
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")

    def her_table(round_number):
        return in_thread(lambda: Seat.objects.get(match__tournament_table__round=round_number, user=ann).match_id)

    def play_round(round_number):
        in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=round_number)])

    cup = quick_dudo(olga, ann, rounds=3)
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/match/{her_table(1)}/")
    page.wait_for_selector("#seats li")
    socket_open(page, "/ws/notices/")
    play_round(1)
    expect(page.locator(".messages li")).to_have_text(
        "Round 2 of Quick Dudo: your game has started, taking you there in 5 seconds, or go to its table"
    )
    assert page.url == f"{site}/match/{her_table(1)}/", "a moment to see how her game ended"
    page.wait_for_url(f"{site}/match/{her_table(2)}/", timeout=10_000)

    page.goto(f"{site}/accounts/password/")
    page.fill("input[name=old_password]", "half a passw")
    socket_open(page, "/ws/notices/")
    play_round(2)
    notice = page.locator(".messages li")
    expect(notice).to_have_text("Round 3 of Quick Dudo: your game has started, go to its table")
    play_round(3)
    expect(notice.last).to_have_text("Quick Dudo is over. See the final standings")  # heard after round 3's notice
    assert page.url == f"{site}/accounts/password/" and page.input_value("input[name=old_password]") == "half a passw"
    expect(notice).to_have_count(2)
    screenshot(page, "tournament-over-notice")


def test_a_player_typing_in_her_finished_tables_chat_is_not_taken_away(site, strict, make_user):
    """A tester's "gg, well pla" was lost: the countdown to the next round's table moved her
    while she typed in the chat of the game that had just ended."""
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")
    cup = quick_dudo(olga, ann, rounds=2)
    first = in_thread(lambda: Seat.objects.get(match__tournament_table__round=1, user=ann).match_id)
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/match/{first}/")
    page.wait_for_selector("#seats li")
    socket_open(page, "/ws/notices/")
    in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=1)])
    notice = page.locator(".messages li")
    expect(notice).to_contain_text("taking you there in 5 seconds")
    page.click("#chat-input")
    page.keyboard.type("gg, well pla")
    # The five seconds are up: the notice keeps its link instead of taking her there.
    expect(notice).to_have_text("Round 2 of Quick Dudo: your game has started, go to its table", timeout=15_000)
    assert page.url == f"{site}/match/{first}/" and page.input_value("#chat-input") == "gg, well pla"


def test_a_finished_tables_line_follows_what_the_tournament_tells(site, strict, make_user, settings):
    """Under a tester's cancel notice her finished table still said the tournament would seat her
    next game: the line was drawn once, when the page loaded."""
    settings.HOUSE_BOT_THINK_MS = 60_000  # the other table of the round stays in play
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")
    cup = quick_dudo(olga, ann, rounds=2)
    first = in_thread(lambda: Seat.objects.get(match__tournament_table__round=1, user=ann).match_id)
    in_thread(lambda: wakeups.play_out(first))
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/match/{first}/")
    line = page.locator("#occasion-next")
    expect(line).to_have_text("Back to Quick Dudo. The tournament seats your next game when this round ends.")
    socket_open(page, "/ws/notices/")
    in_thread(lambda: organizing.cancel(olga, cup.pk))
    expect(line).to_have_text("Back to Quick Dudo. The organizer cancelled the tournament: it has no final standings.")


@pytest.mark.both_stacks
def test_a_page_opened_later_still_hears_the_round_and_the_end_it_missed_once(site, strict, make_user):
    """A player who resigned reloaded the table as the next round was seated and heard nothing of
    it, or of the tournament's end: a notice that went out while a page loaded was lost."""
    olga = make_user("olga", role="organizer")
    ann = make_user("ann")
    cup = quick_dudo(olga, ann, rounds=2)
    in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=1)])
    seats = Seat.objects.filter(match__tournament_table__round=2, user=ann).values_list("match", flat=True)
    second = None
    deadline = time.monotonic() + 30
    while second is None:  # the ticker seats round 2 once round 1's results are in
        assert time.monotonic() < deadline, "round 2 was never seated"
        second = in_thread(seats.first)
    page = strict.page()
    log_in(page, site, "ann")
    page.goto(f"{site}/tournaments/{cup.pk}/")
    reminder = page.locator(".messages li", has_text="your game is on")
    expect(reminder).to_have_text("Round 2 of Quick Dudo: your game is on, go to its table")
    assert reminder.locator("a").get_attribute("href") == f"/match/{second}/"
    assert page.url == f"{site}/tournaments/{cup.pk}/", "a reminder takes nobody anywhere"
    page.goto("about:blank")  # no page of the site open while the last round ends
    in_thread(lambda: [wakeups.play_out(table.match_id) for table in cup.tables.filter(round=2)])
    page.goto(f"{site}/tournaments/")
    expect(page.locator(".messages li")).to_have_text(["Quick Dudo is over. See the final standings"])
    another_tab = page.context.new_page()
    another_tab.goto(f"{site}/accounts/u/ann/")
    socket_heard(another_tab, "/ws/notices/", "notice")  # the end's notice, sent again as its socket opens
    expect(another_tab.locator(".messages li")).to_have_count(0)  # shown once, not in every tab


def test_the_loser_of_a_dobble_mini_game_chooses_the_next_one_at_her_table(site, strict, make_user):
    """An organizer's series never asked its losers: the table said the tournament would seat the
    next game, the choice was only on the tournament page, and the default was always applied.
    Now the finished table asks the loser (ann resigns), with her seconds counting down, and tells
    the other player who is choosing; both are taken to the mini-game she chose."""
    olga = make_user("olga", role="organizer")
    players = [make_user("ann"), make_user("ben")]

    def build():
        later = timezone.now() + timedelta(hours=1)
        cup = Tournament.objects.create(
            name="Spot it", game="dobble", organizer=olga, starts_at=later, format="dobble-series", rounds=2
        )
        for player in players:
            services.enter(cup.pk, player)
        return running.start(cup.pk)

    cup = in_thread(build)
    first = in_thread(lambda: cup.tables.get(round=1).match_id)
    # A notice redraws the finished table's line by fetching its page; the choice's form, sent
    # meanwhile, cuts that fetch off: an aborted fetch of the page being left, not a fault.
    strict.expect(rf"/match/{first}/$")
    pages = {}
    for player in players:
        pages[player.username] = page = strict.page()
        log_in(page, site, player.username)
        page.goto(f"{site}/match/{first}/")
        expect(page.locator("#seats li")).to_have_count(2)
    mine, theirs, loser = pages["ann"], pages["ben"], "ann"
    mine.on("dialog", lambda dialog: dialog.accept())
    mine.click("button:has-text('Resign')")  # last place: she chooses
    expect(mine.locator(".messages li")).to_contain_text("you lost the last mini-game, so you choose the next one")
    choice = mine.locator("#occasion-choice")
    expect(choice).to_be_visible()
    expect(choice.locator("h2")).to_have_text("Choose the next mini-game")
    expect(choice.locator("[data-seconds-left]")).to_have_text(re.compile(r"^(2\d|30) seconds left$"))
    expect(mine.locator("#occasion-next")).to_contain_text("You lost this mini-game, so you choose the next one.")
    expect(theirs.locator("#occasion-next")).to_contain_text(f"{loser} lost this mini-game and is choosing the next")
    expect(theirs.locator("#occasion-choice")).to_have_count(0)
    assert_accessible(mine, "the choice at the finished table")
    screenshot(mine, "screenshots/dobble-series-choice-at-the-table")

    choice.locator("button", has_text="Hot Potato").click()
    second = in_thread(lambda: cup.tables.get(round=2).match_id)
    mine.wait_for_url(f"{site}/match/{second}/")
    theirs.wait_for_url(f"{site}/match/{second}/", timeout=10_000)
    chosen = in_thread(lambda: cup.tables.select_related("match").get(round=2))
    assert chosen.match.options["mini_game"] == "hot-potato" and chosen.choice == "chosen"
    mine.goto(f"{site}/tournaments/{cup.pk}/")
    expect(mine.locator("#round-2")).to_contain_text(f"Hot Potato (chosen by {loser})")


def test_the_list_of_tournaments_fits_a_phone_organizer_and_countdown_included(site, strict, make_user):
    """A tester found the Organizer column cut off at 390 px: each tournament is now a block of words."""
    organizer = make_user("Organizer_with_a_long_name", role="organizer")
    soon = timezone.now() + timedelta(minutes=20)
    named = [("Dudo Winter Championship Qualifier", "dudo"), ("Spot it Sunday", "dobble")]
    in_thread(lambda: [
        Tournament.objects.create(name=name, game=game, organizer=organizer, starts_at=soon + timedelta(hours=hours))
        for hours, (name, game) in enumerate(named)
    ])  # fmt: skip
    for width, height in ((390, 844), (1280, 900)):
        page = strict.page((width, height))
        page.goto(f"{site}/tournaments/")
        rows = page.locator("#upcoming tbody tr")
        expect(rows).to_have_count(2)
        expect(rows.first).to_contain_text("(in 20 minutes)")
        for cell in page.locator("#upcoming td").all():
            box = cell.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (width, cell.inner_text(), box)
        assert page.evaluate("document.documentElement.scrollWidth") <= width, "nothing to scroll sideways to"
        organizer_cell = rows.first.locator("td").nth(4)
        expect(organizer_cell).to_be_visible()
        if width < 700:
            said = organizer_cell.evaluate("cell => getComputedStyle(cell, '::before').content")
            assert said == '" · organized by "', "the organizer is named as such, the column heading hidden"
            screenshot(page, "screenshots/tournament-list-phone")
        else:
            expect(page.locator("#upcoming thead th").nth(4)).to_have_text("Organizer")
        assert_accessible(page, f"tournament list ({width} px)")
