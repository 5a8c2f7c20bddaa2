"""An organizer runs a tournament from the dashboard, start to finish, in a real browser."""

import time

import pytest
from django.utils import timezone

from tests.browser.conftest import log_in, screenshot
from tournaments.models import Tournament

pytestmark = pytest.mark.browser


def watch_for_errors(page) -> list[str]:
    """Console errors, uncaught exceptions and failed requests of the page, as they happen."""
    errors: list[str] = []
    page.on("console", lambda message: message.type == "error" and errors.append(f"console: {message.text}"))
    page.on("pageerror", lambda error: errors.append(f"page error: {error}"))
    page.on("requestfailed", lambda request: errors.append(f"request failed: {request.url} {request.failure}"))
    page.on("response", lambda response: response.status >= 400 and errors.append(f"{response.status} {response.url}"))
    return errors


def wait_for_status(page, wanted: str, seconds: float = 90) -> None:
    """The dashboard page does not update itself: reload it as an organizer would."""
    deadline = time.monotonic() + seconds
    while page.locator("#tournament-status").inner_text() != wanted:
        assert time.monotonic() < deadline, f"still {page.locator('#tournament-status').inner_text()}"
        time.sleep(1)
        page.reload()


def test_an_organizer_creates_a_house_bot_tournament_that_starts_and_finishes(site, new_page, make_user):
    make_user("olga", role="organizer", is_staff=True)
    make_user("otto", role="organizer", is_staff=True)
    page = new_page()
    errors = watch_for_errors(page)
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
    assert errors == []

    cup = Tournament.objects.get(name="Lunchtime Dudo")
    assert cup.organizer.username == "olga" and cup.options["dice"] == 2
    other = new_page()
    log_in(other, site, "otto")
    other.goto(f"{site}/organize/")
    assert "Lunchtime Dudo" not in other.locator("main").inner_text()
    response = other.goto(f"{site}/organize/{cup.pk}/edit/")
    assert response.status == 404


def test_an_organizer_pauses_resumes_and_cancels_from_the_dashboard(site, new_page, make_user):
    olga = make_user("olga", role="organizer", is_staff=True)
    page = new_page()
    errors = watch_for_errors(page)
    log_in(page, site, "olga")
    cup = Tournament.objects.create(
        name="Slow Cup", game="dudo", organizer=olga, starts_at=timezone.now(), rounds=3, turn_seconds=0
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
    assert errors == []
