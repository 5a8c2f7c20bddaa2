"""Whole matches played in chromium between people, watched by a spectator (games against the
computer, from the lobby, are in test_flows_in_browser.py)."""

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.matches import lifecycle
from games.matches.models import Match
from tests.browser.conftest import in_thread, log_in, next_change, screenshot

pytestmark = pytest.mark.browser


def wait_for_result(page, act, limit_seconds=120):
    """Call act() until the result box shows; act does one step of the human's play."""
    deadline = time.monotonic() + limit_seconds
    while not page.locator("#result").is_visible():
        assert time.monotonic() < deadline, "the match did not end in time"
        try:
            act()
        except PlaywrightTimeout:
            pass  # the table was redrawn by a push under the click: look again
        next_change(page)


@pytest.mark.both_stacks
def test_two_people_play_dudo_to_the_end_while_a_spectator_watches(site, strict, alice, bob, carol):
    alice_page, bob_page, watcher = strict.page(), strict.page(), strict.page((390, 844))
    log_in(alice_page, site, "alice")
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("#table_opt_dice", "1")
    alice_page.click("text=Create the table")
    alice_page.wait_for_url("**/match/*/")
    match_id = int(alice_page.url.rstrip("/").rsplit("/", 1)[1])
    log_in(bob_page, site, "bob")
    bob_page.goto(f"{site}/match/{match_id}/")
    bob_page.click("text=Take a seat")
    alice_page.reload()
    alice_page.click("text=Start the match")
    log_in(watcher, site, "carol")
    watcher.goto(f"{site}/match/{match_id}/")
    pages = {"alice": alice_page, "bob": bob_page}

    # Table talk, as text, heard at once and still there after a reload (it was lost on reload).
    alice_page.wait_for_selector("#seats li")
    watcher.wait_for_selector("#seats li")
    alice_page.fill("#chat-input", "<b>good luck</b> & have fun")
    alice_page.press("#chat-input", "Enter")
    alice_page.locator("#chat-input").blur()  # the game's keys, not more chat
    said = "alice: <b>good luck</b> & have fun"
    for page in (bob_page, watcher):
        expect(page.locator("#chat-log li")).to_have_text([said])
    bob_page.reload()
    expect(bob_page.locator("#chat-log li")).to_have_text([said])

    def step():  # by keyboard: D doubts, B bids what the pickers show
        for page in pages.values():
            if page.locator("#dudo-doubt").is_visible():
                page.keyboard.press("d")
                return
            if page.locator("#dudo-bid").is_visible():
                page.keyboard.press("b")
                return

    alice_page.wait_for_selector("#seats li")
    wait_for_result(alice_page, step)
    bob_page.wait_for_selector("#result:not([hidden])")
    watcher.wait_for_selector("#result:not([hidden])")
    screenshot(alice_page, "dudo-table")
    screenshot(watcher, "dudo-spectator-phone")
    assert Match.objects.get(pk=match_id).status == Match.Status.FINISHED
    assert "Result" in watcher.locator("#result").inner_text()


def test_a_player_who_took_a_seat_can_resign_once_the_host_starts_without_a_reload(site, strict, alice, bob):
    """The Resign button was drawn only for a page loaded while the match ran; a waiting 3+2 table
    showed 0:00 on every clock and said it waited 'for the table to fill' when it was full."""
    match = in_thread(lambda: lifecycle.create_match(
        game="dudo", players=2, host=alice, ranked=True, clock="game", clock_initial_ms=180_000,
        clock_increment_ms=2_000,
    ))  # fmt: skip
    host, guest = strict.page(), strict.page()
    log_in(host, site, "alice")
    log_in(guest, site, "bob")
    host.goto(f"{site}/match/{match.pk}/")
    expect(host.locator("#game-area")).to_have_text("Waiting for 1 more player before you can begin.")
    expect(host.locator("button:has-text('Start the match')")).to_be_disabled()
    expect(host.locator("form:has-text('Add bot')")).to_be_visible()
    guest.goto(f"{site}/match/{match.pk}/")
    with guest.expect_navigation():
        guest.click("text=Take a seat")
    expect(guest.locator("#game-area")).to_have_text("Every seat is taken: the host begins when ready.")
    expect(host.locator("#game-area")).to_have_text("Every seat is taken: begin when you are ready.")
    expect(host.locator("form:has-text('Add bot')")).to_be_hidden()
    expect(guest.locator("[data-clock-seat]")).to_have_text(["3:00", "3:00"])
    expect(guest.locator("button:has-text('Resign')")).to_be_hidden()
    with host.expect_navigation():
        host.click("text=Start the match")
    expect(guest.locator("button:has-text('Resign')")).to_be_visible()
    guest.on("dialog", lambda dialog: dialog.accept())
    guest.click("button:has-text('Resign')")
    expect(guest.locator("#result")).to_contain_text("bob (resigned)")


def test_the_host_adds_a_house_bot_with_the_mouse_on_a_wide_screen(site, strict, alice, bob):
    """At 1280 px the long strength name pushed 'Add bot' out of the players' column, under the
    game area: a click at its centre reached the game area and nothing happened."""
    match = in_thread(lambda: lifecycle.create_match(game="doubt-it", players=3, host=alice))
    page = strict.page()
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    # The seats are drawn from the socket's first message and push the form down: measure after it.
    expect(page.locator("#seats li")).to_have_count(1)
    button = page.locator("form:has-text('Add bot') button")
    column = page.locator(".table-side").first.bounding_box()
    box = button.bounding_box()
    assert box["x"] + box["width"] <= column["x"] + column["width"] + 1, "the button stays in the players' column"
    screenshot(page, "add-bot-wide", full_page=False)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#seats li")).to_have_count(2)
