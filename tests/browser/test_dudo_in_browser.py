"""Dudo's table in chromium: the doubt's verdict in words and its staged reveal."""


import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import lifecycle, presence
from games.matches.actions import submit_action
from tests.browser.conftest import in_thread, log_in

pytestmark = pytest.mark.browser


def test_a_dudo_doubt_that_found_one_die_says_one_two_not_one_twos(site, strict, alice, bob):
    """'Last round: bob lost a die (1 twos found for a bid of 2).'"""

    def bid_two_of_a_face_one_die_shows_then_doubt():
        for seed in range(100):
            match = lifecycle.start_seated_match(
                game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=seed
            )
            state = match.load_state()
            shown = {face: sum(d == face or d == 1 for dice in state.dice for d in dice) for face in range(2, 7)}
            lone = [face for face, count in shown.items() if count == 1]
            if lone:
                bidder = match.engine.to_act(state)[0]
                users = [alice, bob]
                match = submit_action(match.pk, users[bidder], {"type": "bid", "quantity": 2, "face": lone[0]}, 0)
                return submit_action(match.pk, users[1 - bidder], {"type": "doubt"}, match.seq), lone[0]
        raise AssertionError("no seed in 100 shows a face on exactly one die")

    match, face = in_thread(bid_two_of_a_face_one_die_shows_then_doubt)
    word = ["", "one", "two", "three", "four", "five", "six"][face]
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator("#dudo-reveal .verdict")).to_contain_text(f"Bluff! 1 {word} found (ones wild).")
    expect(page.locator(".dudo-status")).to_contain_text("9 dice on the table")
    expect(page.locator("#game-area")).to_contain_text(f"(1 {word} found for a bid of 2)", timeout=10_000)


def test_a_staged_reveal_closes_at_escape_and_stays_closed(site, strict, alice, bob):
    """The reveal lay over the new round's dice for five seconds while the bid bar was live."""

    def a_doubt_then_the_next_round():
        seats = [{"user": alice}, {"user": bob}]
        match = lifecycle.start_seated_match(game="dudo", seats=seats, now=timezone.now(), seed=3)
        match = submit_action(match.pk, alice, {"type": "bid", "quantity": 1, "face": 2}, 0)
        return submit_action(match.pk, bob, {"type": "doubt"}, match.seq)

    match = in_thread(a_doubt_then_the_next_round)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    reveal = page.locator("#dudo-reveal")
    expect(reveal.locator(".reveal-close")).to_have_text("Close (Esc)")
    page.keyboard.press("Escape")
    expect(reveal).to_have_count(0)
    assert page.evaluate("document.activeElement !== document.body"), "the focus stays on the table"
    in_thread(lambda: presence.connected(match.pk, 1, "bobs-tab", True))  # a push redraws the table
    expect(page.locator(".seat[data-seat='1'] .dot")).to_have_attribute("data-presence", "connected")
    assert reveal.count() == 0, "the redraw, within the reveal's five seconds, left it closed"
    expect(page.locator(".cup.me .dice-row .die")).to_have_count(5)
