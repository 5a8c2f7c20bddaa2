"""An organizer runs a tournament from the dashboard, start to finish, in a real browser."""

import re
import time
from datetime import UTC, datetime, timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import GAMES
from tests.browser.conftest import in_thread, log_in, screenshot
from tests.browser.test_accessibility_in_browser import BLOCKING, axe_violations, describe
from tournaments import running, services
from tournaments.models import Tournament

pytestmark = pytest.mark.browser


def wait_for_status(page, wanted: str, seconds: float = 90) -> None:
    """The dashboard page does not update itself: once the tournament is `wanted` (the ticker runs it),
    the organizer reloads it and reads so."""
    pk = int(re.search(r"/organize/(\d+)/", page.url).group(1))
    deadline = time.monotonic() + seconds
    while Tournament.objects.get(pk=pk).get_status_display() != wanted:
        assert time.monotonic() < deadline, f"still {Tournament.objects.get(pk=pk).get_status_display()}"
        time.sleep(0.1)
    page.reload()
    expect(page.locator("#tournament-status")).to_have_text(wanted)


@pytest.mark.both_stacks
def test_an_organizer_creates_a_house_bot_tournament_that_starts_and_finishes(site, strict, make_user):
    make_user("olga", role="organizer")
    make_user("otto", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    page.click("nav >> text=Organize")
    page.click("#new-tournament >> text=Dudo")
    page.fill("input[name=name]", "Lunchtime Dudo")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=starts_at]", timezone.now().strftime("%Y-%m-%dT%H:%M"))
    page.fill("input[name=opt_dice]", "2")
    page.fill("input[name=bots_heuristic]", "2")
    page.fill("input[name=bots_random]", "1")
    screenshot(page, "organizer-new-tournament")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=Lunchtime Dudo is scheduled.")
    assert page.locator("#entries li").count() == 3
    wait_for_status(page, "Finished")
    assert page.locator("#standings tbody tr").count() == 3
    assert page.get_by_role("heading", name="Round 2").first.is_visible()
    screenshot(page, "organizer-finished-tournament")
    page.click("text=Public page")
    assert page.locator("#standings tbody tr").count() == 3

    cup = Tournament.objects.get(name="Lunchtime Dudo")
    assert cup.organizer.username == "olga" and cup.options["dice"] == 2
    other = strict.page()
    log_in(other, site, "otto")
    other.goto(f"{site}/organize/")
    assert "Lunchtime Dudo" not in other.locator("main").inner_text()
    # With otto's session, outside the page (a page showing the 404 would log it as a console error).
    assert other.context.request.get(f"{site}/organize/{cup.pk}/edit/").status == 404
    assert other.context.request.get(f"{site}/organize/{cup.pk}/").status == 404


def test_an_organizer_in_tokyo_schedules_in_tokyo_time_and_a_player_in_paris_reads_it_in_theirs(
    site, strict, make_user
):
    """Every time was UTC: an organizer who typed 19:00 for an evening event set it for 04:00 in Tokyo."""
    make_user("olga", role="organizer")
    make_user("pierre")
    page = strict.page(timezone_id="Asia/Tokyo")
    log_in(page, site, "olga")
    page.click("nav >> text=Organize")
    page.click("#new-tournament >> text=Dudo")
    expect(page.locator("label[for=id_starts_at]")).to_contain_text("Starts at (Asia/Tokyo time)")
    page.fill("input[name=name]", "Evening Dudo")
    page.fill("input[name=starts_at]", "2031-01-10T19:00")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=Evening Dudo is scheduled.")
    cup = Tournament.objects.get(name="Evening Dudo")
    assert cup.starts_at == datetime(2031, 1, 10, 10, 0, tzinfo=UTC)
    page.click("text=Public page")
    expect(page.locator("#tournament-when")).to_have_text("starts Fri 10 Jan 2031, 19:00 JST")

    player = strict.page(timezone_id="Europe/Paris")
    log_in(player, site, "pierre")
    player.goto(f"{site}/tournaments/{cup.pk}/")
    expect(player.locator("#tournament-when")).to_have_text("starts Fri 10 Jan 2031, 11:00 CET")
    screenshot(player, "tournament-in-the-players-time-zone")


def test_an_organizer_pauses_resumes_and_cancels_from_the_dashboard(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    tomorrow = timezone.now() + timedelta(days=1)  # so the ticker does not start it before the button does
    cup = Tournament.objects.create(
        name="Slow Cup", game="dudo", organizer=olga, starts_at=tomorrow, rounds=3, turn_seconds=0
    )
    page.goto(f"{site}/organize/{cup.pk}/")
    page.fill("input[name=bots_heuristic]", "2")
    page.click("#add-house-bots button")
    page.wait_for_selector("text=2 house bots entered.")
    page.click("text=Start now")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=Started: round 1 is being seated.")
    page.click("#organizer-actions >> text=Pause")
    assert page.locator("#tournament-status").inner_text() == "Paused"
    page.click("#organizer-actions >> text=Resume")
    assert page.locator("#tournament-status").inner_text() in ("Running", "Finished")
    if page.locator("#tournament-status").inner_text() == "Running":
        page.click("text=Cancel the tournament")
        assert page.locator("h1").inner_text() == "Cancel Slow Cup?"
        page.click("#confirm-form button[type=submit]")
        assert page.locator("#tournament-status").inner_text() == "Cancelled"


def test_an_organizer_sets_up_a_knockout_and_a_swiss_by_the_form_and_withdraws_an_entrant(
    site, strict, make_user, alice, bob
):
    make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    tomorrow = (timezone.now() + timedelta(days=1)).strftime("%Y-%m-%dT%H:%M")
    page.click("nav >> text=Organize")
    page.click("#new-tournament >> text=Dudo")
    page.fill("input[name=name]", "Dudo cup")
    page.select_option("select[name=format]", "knockout")
    assert page.locator("select[name=best_of]").is_visible(), "two seats: games per pairing"
    assert not page.locator("select[name=advance]").is_visible() and not page.locator("input[name=rounds]").is_visible()
    assert not page.locator("textarea[name=forbidden_pairs]").is_visible(), "a Swiss setting"
    page.select_option("select[name=table_size]", "4")
    assert page.locator("select[name=advance]").is_visible() and not page.locator("select[name=best_of]").is_visible()
    enabled = "s => [...s.options].filter(o => !o.disabled).map(o => o.text)"
    offered = page.eval_on_selector("select[name=advance]", enabled)
    assert offered == ["Half the table (rounded down)", "1", "2", "3"], "fewer than a table of 4 go through"
    page.select_option("select[name=table_size]", "2")
    page.select_option("select[name=best_of]", label="Best of 3")
    page.fill("input[name=starts_at]", tomorrow)
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=Dudo cup is scheduled.")
    page.click("text=Public page")
    assert "Knockout" in page.locator("main").inner_text()

    page.goto(f"{site}/organize/")
    page.click("#new-tournament >> text=Dudo")
    page.fill("input[name=name]", "Club Swiss")
    page.select_option("select[name=format]", "swiss")
    assert not page.locator("select[name=best_of]").is_visible()
    page.select_option("select[name=tiebreak_1]", label="Sonneborn-Berger: each opponent's points, counted in full "
                       "for a win and half for a draw (a round without a game: against a stand-in, as FIDE counts it)")
    page.select_option("select[name=tiebreak_2]", label="Buchholz: the sum of your opponents' points")
    page.fill("textarea[name=forbidden_pairs]", "alice, zed")
    page.fill("input[name=check_in_minutes]", "30")
    page.fill("input[name=starts_at]", (timezone.now() + timedelta(minutes=10)).strftime("%Y-%m-%dT%H:%M"))
    page.fill("input[name=bots_heuristic]", "2")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=No player is called zed")
    page.fill("textarea[name=forbidden_pairs]", "alice, bob")
    screenshot(page, "organizer-swiss-settings")
    assert_accessible(page)
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=Club Swiss is scheduled.")
    swiss = Tournament.objects.get(name="Club Swiss")
    assert swiss.tiebreaks == ["sonneborn-berger", "buchholz"] and swiss.forbidden_pairs == [["alice", "bob"]]
    assert swiss.check_in_minutes == 30

    services.enter(swiss.pk, alice)
    services.check_in(swiss.pk, alice)
    page.reload()
    page.fill("#enter-username", "Bob")  # bob signs up at the desk
    page.click("#enter-player button[type=submit]")
    page.wait_for_selector("text=bob is entered.")
    assert page.locator("#check-in-count").inner_text().startswith("1 of 2 checked in")
    assert page.locator("#entries li", has_text="bob").locator("text=not checked in").is_visible()
    page.click("text=Start now")
    assert page.locator("#left-out").inner_text().startswith("Not checked in, so left out: bob.")
    page.click("text=Not now")
    page.click("#entries li:has-text('bob') >> button:has-text('Check in')")
    page.wait_for_selector("text=bob is checked in.")
    assert page.locator("#check-in-count").inner_text().startswith("2 of 2 checked in")
    assert_accessible(page)
    page.click("text=Public page")
    assert "Club Swiss" in page.locator("h1").inner_text()
    page.go_back()

    page.click("text=Start now")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=Started: round 1 is being seated.")
    page.click("#entries li:has-text('bob') >> text=withdraw")
    assert page.locator("h1").inner_text() == "Withdraw bob?"
    page.click("text=Keep them in")
    assert swiss.entries.get(user=bob).withdrawn_after is None
    page.click("#entries li:has-text('bob') >> text=withdraw")
    screenshot(page, "organizer-withdraw-confirmation")
    page.click("#withdraw-form button[type=submit]")
    page.wait_for_selector("text=bob is withdrawn: not paired again, still in the standings.")
    bob_row = page.locator("#entries li", has_text="bob")
    assert bob_row.locator(".badge", has_text="withdrawn after round 1").is_visible()
    assert swiss.entries.get(user=bob).withdrawn_after == 1
    bob_row.get_by_role("button", name="Pair again bob").click()  # bob explains and comes back
    page.wait_for_selector("text=bob is paired again from the next round.")
    assert not page.locator("#entries li", has_text="bob").locator(".badge", has_text="withdrawn").count()
    assert swiss.entries.get(user=bob).withdrawn_after is None


def assert_accessible(page) -> None:
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def test_an_organizer_stops_a_dead_table_and_its_player_reads_that_it_counts_for_nobody(
    site, strict, make_user, alice, bob
):
    olga = make_user("olga", role="organizer")
    cup = in_thread(lambda: started_with(olga, [alice, bob]))
    table = cup.tables.get(round=1)
    player = strict.page()
    log_in(player, site, "alice")
    player.goto(f"{site}/match/{table.match_id}/")
    player.wait_for_selector("#seats li")
    page = strict.page()
    log_in(page, site, "olga")
    page.goto(f"{site}/organize/{cup.pk}/")
    page.click("#round-1 >> text=stop this game")
    assert "counts for nobody" in page.locator("main").inner_text()
    assert_accessible(page)
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=Round 1, table 1 stopped: it counts for nobody.")
    # Round 2 is seated at once, and she is taken to her new table; the stopped one says what happened.
    second = cup.tables.get(round=2).match_id
    player.wait_for_url(f"{site}/match/{second}/")
    player.goto(f"{site}/match/{table.match_id}/")
    player.wait_for_selector("#result >> text=Stopped")
    assert "not rated" in player.locator("#result").inner_text()
    screenshot(player, "stopped-table")


def started_with(organizer, players) -> Tournament:
    cup = Tournament.objects.create(
        name="Dead table cup", game="dudo", organizer=organizer, starts_at=timezone.now() + timedelta(hours=1), rounds=2
    )
    for player in players:
        services.enter(cup.pk, player)
    return running.start(cup.pk)


def test_only_formats_a_game_can_be_played_in_are_offered_and_others_are_refused_in_words(site, strict, make_user):
    make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    offered = {}
    for game in GAMES:
        page.goto(f"{site}/organize/new/{game}/")
        offered[game] = page.locator("select[name=format] option").evaluate_all("options => options.map(o => o.value)")
    assert "round-robin" not in offered["doubt-it"] and "round-robin" in offered["dudo"]
    assert all("swiss" in formats for formats in offered.values())

    page.goto(f"{site}/organize/new/doubt-it/")  # a form posted with the format it does not offer
    page.fill("input[name=name]", "Three a side")
    page.evaluate("""() => {
        const select = document.querySelector("select[name=format]");
        select.add(new Option("Round robin", "round-robin"));
        select.value = "round-robin";
    }""")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    errors = page.locator(".errorlist").inner_text()
    assert "I Doubt It is not played in that format: choose Swiss rounds, Knockout or Arena." in errors
    assert "round-robin" not in errors
    assert not Tournament.objects.exists()


def test_a_tournament_started_now_says_when_it_started_and_which_round_runs(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    planned = timezone.now() + timedelta(days=2)
    cup = Tournament.objects.create(
        name="Early Cup", game="dudo", organizer=olga, starts_at=planned, rounds=3, turn_seconds=0
    )
    page.goto(f"{site}/organize/{cup.pk}/")
    assert "starts " in page.locator("#tournament-when").inner_text()
    page.fill("input[name=bots_heuristic]", "2")
    page.click("#add-house-bots button")
    page.wait_for_selector("text=2 house bots entered.")
    page.click("text=Start now")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=Started: round 1 is being seated.")
    for url in (f"{site}/organize/{cup.pk}/", f"{site}/tournaments/{cup.pk}/"):
        page.goto(url)
        when = page.locator("#tournament-when").inner_text()
        assert "starts" not in when and planned.strftime("%-d %b") not in when
        assert "round 1 of 3 under way" in when or when.startswith("played "), when


def test_a_knockout_form_offers_only_the_tiebreak_its_standings_show(site, strict, make_user):
    """A knockout ranks by the round reached and shares the places of players out together:
    Buchholz and Sonneborn-Berger were offered for nothing. A Swiss of the same game offers them."""
    make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    page.goto(f"{site}/organize/new/dudo/")
    enabled = "s => [...s.options].filter(o => !o.disabled && !o.hidden).map(o => o.value)"
    page.select_option("select[name=format]", "swiss")
    page.select_option("select[name=tiebreak_1]", "sonneborn-berger")
    page.select_option("select[name=format]", "knockout")
    for field in ("tiebreak_1", "tiebreak_2", "tiebreak_3"):
        assert page.eval_on_selector(f"select[name={field}]", enabled) == ["", "wins"]
    assert page.eval_on_selector("select[name=tiebreak_1]", "s => s.value") == "", "a tiebreak chosen before is unset"
    page.select_option("select[name=format]", "swiss")
    assert "sonneborn-berger" in page.eval_on_selector("select[name=tiebreak_1]", enabled)


def test_a_dobble_series_form_offers_only_the_tiebreaks_of_fixed_tables(site, strict, make_user):
    """Buchholz and Sonneborn-Berger weigh the opponents met, who at a fixed table are the same every
    round: not offered for a Dobble series, offered again for a Swiss of the same game."""
    make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    page.goto(f"{site}/organize/new/dobble/")
    enabled = "s => [...s.options].filter(o => !o.disabled && !o.hidden).map(o => o.value)"
    page.select_option("select[name=format]", "swiss")
    page.select_option("select[name=tiebreak_1]", "buchholz")
    page.select_option("select[name=format]", "dobble-series")
    offered = page.eval_on_selector("select[name=tiebreak_1]", enabled)
    assert offered == ["", "direct-encounter", "wins", "placements", "points"]
    assert page.eval_on_selector("select[name=tiebreak_1]", "s => s.value") == "", "a Buchholz chosen before is unset"
    page.select_option("select[name=format]", "swiss")
    assert "buchholz" in page.eval_on_selector("select[name=tiebreak_1]", enabled)
    assert "points" not in page.eval_on_selector("select[name=tiebreak_1]", enabled), "series points are the series'"
