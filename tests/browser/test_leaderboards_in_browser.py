"""Leaderboards and profiles in chromium: established ratings only, a "?" on provisional ones, one rating."""

from playwright.sync_api import expect

from ratings.models import Rating
from tests.browser.conftest import log_in, screenshot


def test_the_ladder_ranks_established_ratings_and_the_profile_marks_a_provisional_one(site, strict, make_user):
    """A bot with 4 provisional games topped the Dudo leaderboard, and the profile and ladder showed
    two rating systems ("OpenSkill μ ± σ", "skill 27.6, give or take 8.1")."""
    veteran = make_user("veteran")
    newcomer = make_user("newcomer")
    lucky = make_user("LuckyBot", is_bot=True)
    Rating.objects.create(
        user=veteran, game="dudo", elo=1620, peak=1650, games=64, wins=40, sigma=3.2, established_opponents=12
    )
    Rating.objects.create(user=newcomer, game="dudo", elo=1540, peak=1560, games=12, wins=8, sigma=6.1)
    Rating.objects.create(user=lucky, game="dudo", elo=1580, peak=1580, games=4, wins=4, is_bot=True)
    page = strict.page()
    log_in(page, site, "newcomer")
    page.goto(f"{site}/leaderboards/dudo/")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("veteran")
    expect(page.locator("table.leaderboard")).not_to_contain_text("LuckyBot")
    expect(page.locator("table.leaderboard thead")).to_have_text("#PlayerRatingPeakGamesWins")
    expect(page.locator(".my-place")).to_contain_text("Your rating: 1540?, provisional after 12 rated games")
    expect(page.locator(".ladder-established")).to_contain_text("at least 30 rated games")
    expect(page.locator("main")).not_to_contain_text("OpenSkill")
    screenshot(page, "leaderboard-established-only")
    page.goto(f"{site}/leaderboards/")
    expect(page.locator("main")).not_to_contain_text("LuckyBot")
    page.goto(f"{site}/accounts/u/newcomer/")
    card = page.locator(".rating-card")
    expect(card.locator("h3")).to_have_text("Dudo: 1540?")
    expect(card.locator("h3 abbr.provisional")).to_have_attribute(
        "title", "provisional: not yet established, so not on the leaderboard"
    )
    expect(card).to_contain_text("provisional: on the leaderboard once established (at least 30 rated games)")
    for jargon in ("skill", "give or take", "μ", "OpenSkill"):
        expect(card).not_to_contain_text(jargon)
    screenshot(page, "profile-provisional-rating")
    page.goto(f"{site}/accounts/u/veteran/")
    expect(page.locator(".rating-card h3")).to_have_text("Dudo: 1620")
