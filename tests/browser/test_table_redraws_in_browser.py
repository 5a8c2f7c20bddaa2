"""The table through its redraws (issue 12): keyboard focus stays on the controls (after a player's
own move it is never dropped on <body>, and their next decision finds it on a control), and a
staged reveal ends over the table as it is then."""

import re
import time

import pytest

from tests.browser.conftest import POLL_MS, log_in, next_change, settled, table_with_bots, until
from tests.browser.test_accessibility_in_browser import AXE

pytestmark = pytest.mark.browser

FOCUS = """() => {
  const node = document.activeElement;
  return {body: node === document.body, onTable: document.getElementById("game-area").contains(node),
          control: node.matches("button:not([disabled]), select, [tabindex='0']"), what: node.outerHTML.slice(0, 120)};
}"""


def started(strict, site, match):
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    with page.expect_navigation(timeout=30_000):  # the page reloads once the start is accepted (slow under CI load)
        page.click("text=Start the match")
    return page


def watch_until_my_turn(page, mine: str, limit_seconds: float = 20) -> dict:
    """Sample the focus after each change while the bots play; the focus once the player's control is back."""
    deadline = time.monotonic() + limit_seconds
    while time.monotonic() < deadline:
        focus = page.evaluate(FOCUS)
        assert not focus["body"] and focus["onTable"], "the focus left the table while the others played"
        if page.locator(mine).count() and page.locator(mine).first.is_enabled():
            settled(page)  # the redraw that brought it has settled
            return page.evaluate(FOCUS)
        next_change(page)
    raise AssertionError("the player's turn did not come back in time")


def test_dudo_keeps_the_focus_on_the_controls_from_bid_to_the_next_bid(site, strict, alice):
    page = started(strict, site, table_with_bots(alice, "dudo", ["random", "random"], seed=5))
    page.wait_for_selector("#dudo-bid:not([disabled])")
    page.locator("[data-choice^='face-']").last.focus()
    page.keyboard.press("Enter")
    page.locator("#dudo-bid").focus()  # as Tab would reach it
    alices_moves = page.locator("#history li").filter(has_text=re.compile("alice (bids|doubts)"))
    for _ in range(3):
        made = alices_moves.count()
        page.keyboard.press("Enter")
        alices_moves.nth(made).wait_for()  # the server took it: the controls left on the page were hers before it
        if page.locator("#dudo-reveal").count() or page.locator("#result:not([hidden])").count():
            break
        focus = watch_until_my_turn(page, "#dudo-bid, #dudo-doubt")
        assert focus["onTable"] and focus["control"], focus["what"]  # the next decision's control
        if page.locator("#dudo-reveal").count():
            break


def test_dubito_keeps_the_focus_on_the_hand_after_a_card_is_played(site, strict, alice):
    page = started(strict, site, table_with_bots(alice, "dubito", ["heuristic"], seed=7))
    playable = "#my-hand button:not([disabled])"
    alices_plays = page.locator("#history li").filter(has_text="alice puts")
    for _ in range(3):
        page.wait_for_selector(playable)
        page.locator(playable).first.focus()
        page.keyboard.press("Enter")
        page.wait_for_selector(".dubito-row.droppable:focus")
        made = alices_plays.count()
        page.keyboard.press("Enter")
        alices_plays.nth(made).wait_for()  # the server took it: the hand left on the page was hers before it
        focus = watch_until_my_turn(page, playable)
        assert focus["onTable"] and focus["control"], f"the hand has the focus for the next card, not {focus['what']}"


def test_a_dudo_reveal_closes_even_when_the_bots_moved_during_it(site, strict, alice):
    """The staged "Bluff!" ends after its five seconds over the table as it is then, also when the
    state that staged it was followed by others (the bots' bids, the game's end)."""
    page = started(strict, site, table_with_bots(alice, "dudo", ["heuristic", "heuristic"], seed=4))
    doubts = lambda: page.locator("#history li", has_text="doubts").count()  # noqa: E731

    def bid():
        bid = page.locator("#dudo-bid:not([disabled])")
        if bid.count() and bid.is_visible():
            bid.click()

    until(page, lambda: page.locator("#dudo-reveal").count(), bid, limit_ms=60_000)
    seen = doubts()
    # The reveal's five seconds, alice not moving: until it has closed or a newer doubt is staged.
    page.wait_for_function(
        """(seen) => !document.querySelector("#dudo-reveal") || [...document.querySelectorAll("#history li")]
            .filter((li) => li.textContent.includes("doubts")).length > seen""",
        polling=POLL_MS,
        arg=seen,
    )
    if doubts() == seen:  # no newer doubt staged meanwhile
        assert page.locator("#dudo-reveal").count() == 0, "the reveal closed"


def test_i_doubt_its_table_before_the_first_play_keeps_aa_contrast(site, strict, alice):
    """"Nobody has played yet" sits on the felt's gradient, where axe cannot vouch for its contrast."""
    page = started(strict, site, table_with_bots(alice, "doubt-it", ["heuristic", "random"], seed=6))
    page.wait_for_selector("text=Nobody has played yet.")
    page.evaluate(AXE)
    found = page.evaluate("""async () => {
      const result = await axe.run("#game-area", { runOnly: ["color-contrast"] });
      return [...result.violations, ...result.incomplete].flatMap((rule) => rule.nodes.map((node) => node.html));
    }""")
    assert not [html for html in found if "Nobody has played yet" in html], found


