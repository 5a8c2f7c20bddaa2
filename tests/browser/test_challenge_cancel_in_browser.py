"""Issue 35: a challenge sent waits on the sender's lobby with a Cancel, and cancelling it takes it
off the challenged player's header at once, on the lobby as on any other page."""

import pytest

from games.lobby.models import Challenge
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
