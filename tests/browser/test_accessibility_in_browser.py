"""axe-core on every kind of page, in the light and the dark theme; the header folds on a phone.

axe (tests/browser/vendor/axe-core/, never served by the site) is evaluated in the page by
Playwright, which the pages' Content-Security-Policy does not stop. A serious or critical
violation fails the test; the counts per page are printed (pytest -s shows them).
"""

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.matches import lifecycle
from tests.browser.conftest import log_in, screenshot, table_with_bots

pytestmark = pytest.mark.browser

AXE = (Path(__file__).parent / "vendor" / "axe-core" / "axe.min.js").read_text()
TABLE_BOTS = {
    "dudo": ["heuristic"],
    "doubt-it": ["heuristic", "random"],
    "dubito": ["heuristic"],
    "dobble": ["easy"],
    "dudab": ["heuristic"],
}
BLOCKING = ("serious", "critical")
def finished_tournament(organizer):
    """A two-round Swiss of house bots, played out: standings, rounds and replay links on its page."""
    from django.utils import timezone

    from tournaments import running, services
    from tournaments.models import Tournament

    cup = Tournament.objects.create(
        name="Dudo cup", game="dudo", organizer=organizer, starts_at=timezone.now(), rounds=2)
    for bot in ["heuristic", "random", "heuristic"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    running.play_out(cup.pk)
    return cup


def pages_to_check(alice, olga) -> dict[str, str]:
    """Every kind of page: name -> path. Set up in another thread (Playwright's loop runs in this one)."""

    def build():
        pages = {"home": "/", "games": "/play/", "lobby": "/play/dobble/", "profile": "/accounts/u/alice/",
                 "bot profile": "/accounts/u/HeuristicBot/", "bot's games": "/accounts/u/HeuristicBot/games/"}
        for game, bots in TABLE_BOTS.items():
            match = table_with_bots(alice, game, bots)
            lifecycle.start_match(match.pk, alice)
            pages[f"{game} table"] = f"/match/{match.pk}/"
        pages["tournament"] = f"/tournaments/{finished_tournament(olga).pk}/"
        # Its bots' few rated games: the ladders list them under "Not ranked yet".
        pages |= {"leaderboards": "/leaderboards/", "ladder": "/leaderboards/dudo/"}
        return pages

    with ThreadPoolExecutor(1) as pool:
        return pool.submit(build).result()


def axe_violations(page) -> list[dict]:
    page.evaluate(AXE)
    result = page.evaluate("axe.run(document, { resultTypes: ['violations'] })")
    return result["violations"]


FADED_DISABLED = """[...document.querySelectorAll("button:disabled, input:disabled, select:disabled")]
    .filter((control) => Number(getComputedStyle(control).opacity) < 1)
    .map((control) => control.outerHTML.slice(0, 80))"""


def describe(violations: list[dict]) -> str:
    return "; ".join(
        f"{v['id']} ({v['impact']}): {', '.join(str(n['target']) for n in v['nodes'][:3])}" for v in violations)


def open_page(page, site, path):
    page.goto(f"{site}{path}")
    if path.startswith("/match/"):
        page.wait_for_selector("#game-area > *")


def test_axe_finds_no_serious_or_critical_violation_in_either_theme(site, new_page, alice, make_user):
    olga = make_user("olga", role="organizer")
    pages = pages_to_check(alice, olga)
    failures, rows = [], []
    for scheme in ("light", "dark"):
        page = new_page(color_scheme=scheme)
        log_in(page, site, "alice")
        for name, path in pages.items():
            open_page(page, site, path)
            violations = axe_violations(page)
            blocking = [v for v in violations if v["impact"] in BLOCKING]
            if scheme == "dark":  # the light pages are pictured by the other browser tests
                screenshot(page, f"screenshots/dark-{name.replace(' ', '-')}")
            found = ", ".join(f"{v['id']}:{v['impact']}" for v in violations) or "none"
            rows.append(
                f"{scheme:5} {name:16} serious+critical {len(blocking)}, all {len(violations)} ({found})")
            if blocking:
                failures.append(f"{scheme} {name}: {describe(blocking)}")
            # axe skips disabled controls; ours must keep AA contrast, so none may be drawn see-through.
            faded = page.evaluate(FADED_DISABLED)
            if faded:
                failures.append(f"{scheme} {name}: disabled controls drawn faded: {faded[:3]}")
    print("\naxe-core violations per page:\n" + "\n".join(rows))
    assert not failures, "\n".join(failures)


def test_the_header_folds_behind_a_menu_button_on_a_phone_on_every_page(site, new_page, alice):
    page = new_page((390, 844))
    paths = ["/", "/play/", "/play/dudo/", "/tournaments/", "/leaderboards/", "/accounts/login/", "/accounts/u/alice/"]
    for path in paths:
        page.goto(f"{site}{path}")
        toggle = page.locator(".nav-toggle")
        assert toggle.is_visible() and page.locator(".nav-links").is_hidden(), path
        header = page.locator(".site-header").bounding_box()
        assert header["height"] <= 64, f"{path}: the folded header is one line"
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "true"
        assert page.locator(".nav-links a", has_text="Tournaments").is_visible()
        if path == "/play/":
            screenshot(page, "screenshots/phone-menu-open", full_page=False)
        page.keyboard.press("Escape")
        assert page.locator(".nav-links").is_hidden()
