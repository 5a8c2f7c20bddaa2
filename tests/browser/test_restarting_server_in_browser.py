"""A page that moves on by itself while the web server restarts: its next page answers nothing for
a while (here, route interception refuses it), and the browser sent there would show its own error
page and stay on it. The page waits, says why in words, and goes once the page answers."""

import re
from datetime import timedelta

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import log_in
from tests.browser.test_arena_in_browser import upcoming_dudo_arena
from tests.browser.test_tournament_pages_in_browser import in_thread
from tournaments import running

pytestmark = pytest.mark.browser
TABLE = re.compile(r"/match/\d+/$")


def test_an_arena_page_opens_the_first_game_once_the_restarting_server_answers(site, new_page, make_user):
    olga, _ = make_user("olga", role="organizer"), make_user("alice")
    arena = upcoming_dudo_arena(olga, timedelta(minutes=10))
    page = new_page()
    log_in(page, site, "alice")
    page.goto(f"{site}/tournaments/{arena.pk}/")
    page.click("#arena-join")
    expect(page.locator("#arena-me")).to_have_text("You are in: your first game starts when the arena does.")
    down = {"refused": 0, "down": True}

    def server(route):
        if down["down"]:
            down["refused"] += 1
            route.abort("connectionrefused")
        else:
            route.continue_()

    page.route(TABLE, server)
    in_thread(lambda: running.start(arena.pk))
    said = "The site is restarting: your next game opens as soon as it answers."
    expect(page.locator(".messages li", has_text="restarting")).to_have_text(said, timeout=30_000)
    assert TABLE.search(page.url) is None  # still on the arena's page, not the browser's error page
    expect(page.locator("#arena-live")).to_be_attached()
    down["down"] = False  # the server is back
    page.wait_for_url(TABLE, timeout=30_000)
    expect(page.locator("#occasion")).to_have_text(arena.name)
    assert down["refused"] >= 1
