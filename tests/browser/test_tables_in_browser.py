"""Whole matches played in chromium: people against each other and against house bots."""

import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.matches import lifecycle
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


def table_with_bots(host, game, bots, options=None, seed=11):
    """Set up in another thread: this one runs Playwright's event loop, which the service's
    broadcasts (async_to_sync) must not share."""

    def create():
        match = lifecycle.create_match(game=game, players=1 + len(bots), host=host, options=options, seed=seed)
        for name in bots:
            lifecycle.add_house_bot(match.pk, host, name)
        return match

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(create).result()


def hosts_page(site, new_page, match):
    """alice's browser on her table, after pressing Start."""
    page = new_page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.click("text=Start the match")
    return page


def test_two_people_play_dudo_to_the_end_while_a_spectator_watches(site, new_page, alice, bob, carol):
    alice_page, bob_page, watcher = new_page(), new_page(), new_page((390, 844))
    log_in(alice_page, site, "alice")
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("input[name='opt:dice']", "1")
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


def test_a_person_plays_i_doubt_it_against_house_bots_to_the_end(site, new_page, alice):
    match = table_with_bots(alice, "doubt-it", ["heuristic", "random"], {"max_plays": 20})
    page = hosts_page(site, new_page, match)

    def step():
        if page.locator("#pass").is_visible():
            page.keyboard.press("p")
        elif page.locator("#play-cards").is_visible():
            page.locator("#my-hand button").first.click()
            page.click("#play-cards")

    wait_for_result(page, step)
    screenshot(page, "doubt-it-table")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_person_plays_dubito_against_a_house_bot_to_the_end(site, new_page, alice):
    match = table_with_bots(alice, "dubito", ["heuristic"], {"empty_pile": "stop"})
    page = hosts_page(site, new_page, match)

    def step():
        playable = page.locator("#my-hand button:not([disabled])")
        if playable.count():
            playable.first.click()
            page.locator(".dubito-row.droppable").first.click()

    wait_for_result(page, step, limit_seconds=180)
    screenshot(page, "dubito-table")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED


def test_a_person_plays_a_dobble_mini_game_against_a_house_bot(site, new_page, alice):
    match = table_with_bots(alice, "dobble", ["easy"])
    page = hosts_page(site, new_page, match)

    def step():
        # Both cards read in one go: a redraw between two reads would pair an old card with a new one.
        symbol = page.evaluate("""() => {
            const cards = document.querySelectorAll(".dobble-card");
            if (cards.length < 2) return null;
            const ids = (card) => [...card.querySelectorAll("[data-symbol]")].map((e) => e.dataset.symbol);
            const mine = ids(cards[0]);
            return ids(cards[1]).find((id) => mine.includes(id)) || null;
        }""")
        if symbol is not None:
            button = page.locator(".dobble-card").nth(1).locator(f"[data-symbol='{symbol}']")
            if button.is_enabled():
                button.click(timeout=1000)

    page.wait_for_selector(".dobble-card")
    screenshot(page, "dobble-table")
    wait_for_result(page, step, limit_seconds=240)
    screenshot(page, "dobble-result")
    result = Match.objects.get(pk=match.pk).result
    assert result["ranking"][0] == [0]


def test_a_person_plays_dudab_buba_against_house_bots_to_the_end(site, new_page, alice):
    match = table_with_bots(alice, "dudab", ["heuristic"])
    page = hosts_page(site, new_page, match)

    def step():
        playable = page.locator("#my-hand button:not([disabled])")
        if playable.count() and not page.locator("#dudab-choices [data-action=play]").count():
            playable.first.click(timeout=2000)
        choices = page.locator("#dudab-choices button")
        if choices.count():
            choices.first.click(timeout=2000)

    page.wait_for_selector(".dudab-column")
    screenshot(page, "dudab-table")
    wait_for_result(page, step, limit_seconds=300)
    screenshot(page, "dudab-result")
    assert Match.objects.get(pk=match.pk).status == Match.Status.FINISHED
