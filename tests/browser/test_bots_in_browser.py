"""A programmer brings a bot in the browser: create it, upload its code, watch it play a house bot."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from botapi import services
from botapi.models import BotCode, BotFailure
from games.matches.models import Match, MatchAction
from tests.browser.conftest import finished, log_in, screenshot

pytestmark = pytest.mark.browser

CODE = """def choose(view, legal):
    bids = [action for action in legal if action["type"] == "bid"]
    if view["bid"] and view["bid"]["quantity"] >= 3:
        return {"type": "doubt"}
    return bids[0]
"""
CRASHING = "def choose(view, legal):\n    return legal[0] if view['bid'] is None else 1 / 0\n"


def test_a_programmer_creates_uploads_and_watches_their_bot_play_to_the_end(site, new_page, alice):
    page = new_page()
    log_in(page, site, "alice")
    page.goto(f"{site}/bots/")
    checks = "i => ['bad name!', 'Page-bot_2'].map((v) => { i.value = v; return i.validity.patternMismatch; })"
    assert page.eval_on_selector("#new-bot input[name=name]", checks) == [True, False], "the browser checks the name"
    page.fill("#new-bot input[name=name]", "Pagebot")
    page.click("#new-bot button")
    assert "Its API token, shown only now" in page.inner_text("body")
    card = page.locator("#bot-Pagebot")
    new_token = card.locator("button:has-text('Give Pagebot a new token')")
    assert not new_token.is_visible(), "one click on the card does not replace a working token"
    card.locator("summary:has-text('Give it a new one')").click()
    new_token.click()
    assert "Pagebot's new API token, shown only now" in page.inner_text("body")
    card = page.locator("#bot-Pagebot")
    card.locator("select[name=game]").select_option("dudo")
    card.locator("textarea[name=source]").fill(CODE)
    card.locator("text=Upload a new version").click()
    assert "Pagebot v1 passed its first move" in page.inner_text("body")
    page.locator("#bot-Pagebot select[name=opponent]").select_option("dudo:heuristic")
    page.locator("#bot-Pagebot button:has-text('Start')").click()
    page.wait_for_url("**/match/*/")
    page.wait_for_selector("#result:not([hidden])", timeout=60_000)
    screenshot(page, "uploaded-bot-match")
    match = Match.objects.get()
    assert match.status == Match.Status.FINISHED
    assert MatchAction.objects.filter(match=match, source="sandbox").exists()
    page.goto(f"{site}/bots/")
    assert "Pagebot" in page.locator("#bot-list").inner_text()


def test_a_failure_report_on_the_bots_page_opens_the_replay_at_the_step_the_bot_failed(site, new_page, alice):
    def start():  # in another thread: the test's runs Playwright's event loop (conftest.table_with_bots)
        bot, _ = services.create_bot(alice, "Crashy")
        BotCode.objects.create(bot=bot, version=1, game="dudo", source=CRASHING)
        return bot, services.challenge(alice, "Crashy", "dudo", ["house:random"], ranked=False)

    with ThreadPoolExecutor(1) as pool:
        bot, match = pool.submit(start).result()
    page = new_page()
    log_in(page, site, "alice")
    finished(match.pk)  # the ticker plays the match out
    page.goto(f"{site}/bots/")
    assert page.locator("#bot-client a[download]").count() == 6, "the client and an example for each game"
    report = page.locator("#bot-Crashy ol.failures li").first
    assert 'File "bot.py", line 2, in choose' in report.inner_text()
    step = BotFailure.objects.filter(code__bot=bot).first().step
    report.locator("a").click()
    page.wait_for_url(f"**/match/{match.pk}/replay/?step={step}")
    expect(page.locator("#replay-step")).to_have_text(str(step))
    screenshot(page, "bot-failure-replay")
