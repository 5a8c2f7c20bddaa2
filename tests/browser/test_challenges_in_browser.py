"""Challenges in chromium: one reaches the challenged player's header on any page at once and is
answered there; one sent waits on the sender's lobby with a Cancel, and cancelling it takes it off
the challenged player's header at once, on the lobby as on any other page (issue 35)."""


import pytest

from games.lobby.models import Challenge
from games.matches.models import Match
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("bob_on", ["/play/dudo/", "/tournaments/"], ids=["lobby", "other-page"])
def test_a_sent_challenge_waits_with_a_cancel_that_takes_it_off_the_other_players_page(site, strict, alice, bob,
                                                                                      bob_on):
    alice_page, bob_page = strict.page(), strict.page((390, 844))
    log_in(alice_page, site, "alice")
    log_in(bob_page, site, "bob")
    bob_page.goto(f"{site}{bob_on}")
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.select_option("#challenge_time_control", "none")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("#challenges-sent >> text=Your challenge to bob (casual, no clock) waits")
    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dudo (casual, no clock)")
    screenshot(alice_page, "screenshots/challenge-waiting-with-cancel", full_page=False)
    alice_page.click("#challenges-sent button:text('Cancel')")
    alice_page.wait_for_selector("text=Challenge cancelled.")
    assert alice_page.locator("#challenges-sent").count() == 0
    bob_page.wait_for_selector("#challenges", state="detached")
    assert Challenge.objects.get().status == Challenge.Status.CANCELLED


@pytest.mark.both_stacks
def test_a_challenge_reaches_the_player_on_any_page_and_is_answered_from_the_header(site, strict, alice, bob, carol):
    alice_page, bob_page = strict.page(), strict.page()
    log_in(alice_page, site, "alice")
    log_in(bob_page, site, "bob")
    bob_page.goto(f"{site}/leaderboards/")  # neither game's lobby
    assert bob_page.locator("#challenges").count() == 0
    alice_page.goto(f"{site}/play/dobble/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("text=Challenge sent to bob")
    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dobble (casual)")  # at once
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.select_option("#challenge_time_control", "5+5")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("text=Challenge sent to bob")

    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dudo (ranked, 5+5)")
    notice = bob_page.locator("#challenges")
    assert "alice challenges you to Dobble (casual)" in notice.inner_text()
    assert "alice challenges you to Dudo (ranked, 5+5)" in notice.inner_text()
    screenshot(bob_page, "flows-challenge-in-header")
    notice.locator("li", has_text="Dobble").locator("button[value=decline]").click()
    bob_page.wait_for_url(f"{site}/leaderboards/")  # declining keeps the player where they were
    alice_page.wait_for_selector(".messages >> text=bob declined your Dobble challenge.")  # told at once
    assert "Dobble" not in bob_page.locator("#challenges").inner_text()
    bob_page.click("#challenges button[value=accept]")
    bob_page.wait_for_url("**/match/*/")
    match = Match.objects.get()
    assert (match.game, match.ranked, match.clock_label) == ("dudo", True, "5+5")
    assert bob_page.locator("#challenges").count() == 0
