"""Fair play in a real browser: staff review a flag and act on it; a player checks a deal."""

import pytest
from playwright.sync_api import expect

from dubium import demo
from fairplay.models import Flag, ReviewAction
from ratings.models import RatingChange
from ratings.services import rate_match
from tests.browser.conftest import in_thread, log_in, screenshot
from tests.browser.test_accessibility_in_browser import axe_violations, describe

pytestmark = pytest.mark.browser


def test_staff_review_a_flag_with_its_chart_void_a_match_and_the_log_says_so(site, strict, make_user):
    make_user("steward", is_staff=True)
    match = in_thread(lambda: demo.play_bot_match("dudo", ["heuristic", "random"], seed=5))
    rate_match(match.pk)
    suspect = match.seats.get(number=0).user
    chart = {"labels": ["0-250", "250-400", "400+"], "unit": "share of moves by ms",
             "series": {"this account": [0.7, 0.3, 0], "people": [0, 0.02, 0.98]}}  # fmt: skip
    Flag.objects.create(user=suspect, kind=Flag.Kind.REACTIONS, game="dobble", score=40, matches_seen=2,
                        evidence={"right claims": 31, "share under bound": 1.0, "chart": chart})  # fmt: skip
    page = strict.page()
    log_in(page, site, "steward")
    page.goto(f"{site}/staff/fair-play/")
    flag = page.locator("article.flag").first
    expect(flag.locator("h2")).to_have_text(f"{suspect.username}: Dobble reactions faster than people's")
    expect(flag.locator("svg.evidence-chart")).to_be_visible()
    expect(flag.locator("table.figures")).to_contain_text("share under bound")
    serious = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not serious, describe(serious)
    screenshot(page, "screenshots/fair-play-review")
    flag.locator("input[name=note]").fill("house bot in a person's seat")
    flag.locator("button[value=void]").click()
    expect(page.locator(".messages")).to_contain_text("rating changes undone, ratings recomputed")
    expect(page.locator("table.audit-log")).to_contain_text("Voided a match's rating changes")
    expect(page.locator("table.audit-log")).to_contain_text("house bot in a person's seat")
    assert not RatingChange.objects.filter(match=match).exists()
    assert ReviewAction.objects.get().match_id == match.pk
    expect(page.locator("article.flag")).to_have_count(0)  # acted on: off the list of flags to review


def test_a_player_reads_on_the_replay_that_the_deal_matched_its_seal(site, strict, make_user):
    match = in_thread(lambda: demo.play_bot_match("dudo", ["heuristic", "random"], seed=7))
    owner = make_user("owner")
    bot = match.seats.get(number=0).user
    bot.bot_owner = owner
    bot.save(update_fields=["bot_owner"])
    page = strict.page()
    log_in(page, site, "owner")
    page.goto(f"{site}/match/{match.pk}/replay/")
    section = page.locator("#deal-check")
    expect(section).to_contain_text("The deal matches its seal")
    expect(section).to_contain_text(f"Seed {match.seed}")
    expect(section.locator("a", has_text="verifier")).to_have_attribute("href", "/fair-play/verifier.pyz")
    screenshot(page, "screenshots/fair-deal-replay")
