"""An organizer runs a tournament from the dashboard, start to finish, in a real browser."""

import time
from datetime import timedelta

import pytest
from django.utils import timezone

from tests.browser.conftest import log_in, screenshot
from tournaments.models import Tournament

pytestmark = pytest.mark.browser


def wait_for_status(page, wanted: str, seconds: float = 90) -> None:
    """The dashboard page does not update itself: reload it as an organizer would."""
    deadline = time.monotonic() + seconds
    while page.locator("#tournament-status").inner_text() != wanted:
        assert time.monotonic() < deadline, f"still {page.locator('#tournament-status').inner_text()}"
        time.sleep(1)
        page.reload()


def test_an_organizer_creates_a_house_bot_tournament_that_starts_and_finishes(site, strict, make_user):
    make_user("olga", role="organizer", is_staff=True)
    make_user("otto", role="organizer", is_staff=True)
    page = strict.page()
    log_in(page, site, "olga")
    page.click("nav >> text=Organize")
    page.click("#new-tournament >> text=Dudo")
    page.fill("input[name=name]", "Lunchtime Dudo")
    page.select_option("select[name=format]", "swiss")
    page.fill("input[name=rounds]", "2")
    page.fill("input[name=starts_at]", timezone.now().strftime("%Y-%m-%dT%H:%M"))
    page.fill("input[name=opt_dice]", "2")
    page.fill("input[name=bots_heuristic]", "2")
    page.fill("input[name=bots_random]", "1")
    screenshot(page, "organizer-new-tournament")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector("text=Lunchtime Dudo is scheduled.")
    assert page.locator("#entries li").count() == 3
    wait_for_status(page, "Finished")
    assert page.locator("#standings tbody tr").count() == 3
    assert page.locator("text=Round 2").is_visible()
    screenshot(page, "organizer-finished-tournament")
    page.click("text=Public page")
    assert page.locator("#standings tbody tr").count() == 3

    cup = Tournament.objects.get(name="Lunchtime Dudo")
    assert cup.organizer.username == "olga" and cup.options["dice"] == 2
    other = strict.page()
    log_in(other, site, "otto")
    other.goto(f"{site}/organize/")
    assert "Lunchtime Dudo" not in other.locator("main").inner_text()
    # With otto's session, outside the page (a page showing the 404 would log it as a console error).
    assert other.context.request.get(f"{site}/organize/{cup.pk}/edit/").status == 404
    assert other.context.request.get(f"{site}/organize/{cup.pk}/").status == 404


def test_an_organizer_pauses_resumes_and_cancels_from_the_dashboard(site, strict, make_user):
    olga = make_user("olga", role="organizer", is_staff=True)
    page = strict.page()
    log_in(page, site, "olga")
    tomorrow = timezone.now() + timedelta(days=1)  # so the ticker does not start it before the button does
    cup = Tournament.objects.create(
        name="Slow Cup", game="dudo", organizer=olga, starts_at=tomorrow, rounds=3, turn_seconds=0
    )
    page.goto(f"{site}/organize/{cup.pk}/")
    page.fill("input[name=bots_heuristic]", "2")
    page.click("#add-house-bots button")
    page.wait_for_selector("text=2 house bots entered.")
    page.click("text=Start now")
    page.wait_for_selector("text=Started: round 1 is being seated.")
    page.click("#organizer-actions >> text=Pause")
    assert page.locator("#tournament-status").inner_text() == "Paused"
    page.click("#organizer-actions >> text=Resume")
    assert page.locator("#tournament-status").inner_text() in ("Running", "Finished")
    if page.locator("#tournament-status").inner_text() == "Running":
        page.click("text=Cancel the tournament")
        assert page.locator("#tournament-status").inner_text() == "Cancelled"
