"""A programmer plays a bot through their own server from the Bots page, then puts it on the ladder."""

import pytest

from botapi.models import BotProfile
from games.matches.models import Match, MatchAction
from tests.botapi.webhook_server import BotServer
from tests.browser.conftest import log_in, screenshot

pytestmark = pytest.mark.browser


@pytest.fixture
def bot_server(settings):
    settings.BOT_WEBHOOK_ALLOW_PRIVATE = True
    running = BotServer()
    yield running
    running.close()


def test_a_programmer_names_an_endpoint_watches_it_play_and_opts_it_into_the_ladder(site, new_page, alice, bot_server):
    page = new_page()
    log_in(page, site, "alice")
    page.goto(f"{site}/bots/")
    page.fill("#new-bot input[name=name]", "Hookbot")
    page.click("#new-bot button")
    card = page.locator("#bot-Hookbot")
    card.locator("input[name=endpoint]").fill(bot_server.url)
    card.locator("text=Check and use this endpoint").click()
    assert "Hookbot v1 answered the check and plays through it now." in page.inner_text("body")
    assert bot_server.url in page.locator("#bot-Hookbot").inner_text()
    page.locator("#bot-Hookbot select[name=opponent]").select_option("dudo:heuristic")
    page.locator("#bot-Hookbot button:has-text('Start')").click()
    page.wait_for_url("**/match/*/")
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    screenshot(page, "webhook-bot-match")
    match = Match.objects.get()
    assert MatchAction.objects.filter(match=match, source=MatchAction.Source.API).exists()
    page.goto(f"{site}/bots/")
    ladder = page.locator("#bot-Hookbot form:has(input[name=ladder])")
    ladder.locator("input[name=ladder]").check()
    ladder.locator("select[name=game]").select_option("dudo")
    ladder.locator("button").click()
    assert "Hookbot plays Dudo ladder matches by itself." in page.inner_text("body")
    assert BotProfile.objects.get(bot__username="Hookbot").ladder_game == "dudo"
