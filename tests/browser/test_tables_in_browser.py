"""Whole matches played in chromium between people, watched by a spectator (games against the
computer, from the lobby, are in test_flows_in_browser.py)."""

import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.matches.models import Match
from tests.browser.conftest import log_in, screenshot

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
        page.wait_for_timeout(60)


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
