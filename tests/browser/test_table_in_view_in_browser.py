"""Issue 35, the table never hides the game: on a desktop and on a phone (390 x 844), measured in chromium.

The staged doubt lies beside the live bid or claim and the controls, never over them; a large clock
shows the time that matters now and warns when it runs low; the turn sound is asked once; the result
says "You won" or "You lost"; a finished Dudab Buba fits a phone with no hand left to play.
"""

import random
import time

import pytest

from games.dudab.bots import HeuristicBot
from games.matches import actions, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match
from tests.browser.conftest import in_thread, log_in, screenshot, table_with_bots, until

pytestmark = pytest.mark.browser

DESKTOP, PHONE = (1280, 900), (390, 844)

# True when the middle of every element the selector finds is that element's own (nothing lies over it).
NOTHING_OVER = """(selector) => [...document.querySelectorAll(selector)].every((node) => {
  node.scrollIntoView({ block: "center" });
  const box = node.getBoundingClientRect();
  const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
  return node.contains(hit);
})"""


def clocked_dudo(alice, clock, initial_ms, options=None):
    def create():
        match = lifecycle.create_match(game="dudo", players=2, host=alice, options=options, seed=5,
                                       clock=clock, clock_initial_ms=initial_ms)
        lifecycle.add_house_bot(match.pk, alice, "heuristic")
        lifecycle.start_match(match.pk, alice)
        return match

    return in_thread(create)


def open_table(site, strict, match, viewport, sound_answered=True):
    page = strict.page(viewport)
    log_in(page, site, "alice")
    if sound_answered:  # the one-time question is another test's
        page.evaluate("localStorage.setItem('dubium.turnSound', 'off')")
    page.goto(f"{site}/match/{match.pk}/")
    return page


def bid_or_doubt(page):
    if page.locator("#dudo-doubt").is_visible():
        page.click("#dudo-doubt")
    elif page.locator("#dudo-bid").is_visible():
        page.click("#dudo-bid")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_staged_doubt_never_lies_over_the_live_bid_or_the_controls(site, strict, alice, viewport):
    match = clocked_dudo(alice, Match.Clock.PER_GAME, 600_000)
    page = open_table(site, strict, match, viewport)
    page.wait_for_selector("#dudo-controls")
    until(page, lambda: page.locator("#dudo-reveal").count() > 0 and page.locator("#dudo-bid").count() > 0,
          lambda: page.locator("#dudo-reveal").count() == 0 and bid_or_doubt(page))
    assert page.evaluate(NOTHING_OVER, "#dudo-bid-shown"), "the reveal lies over the live bid"
    assert page.evaluate(NOTHING_OVER, "#dudo-controls button, #dudo-controls select"), "the reveal lies over a control"
    assert page.locator("#big-clock").is_visible()
    page.evaluate("window.scrollTo(0, 0)")
    name = "desktop" if viewport == DESKTOP else "phone"
    screenshot(page, f"screenshots/dudo-{name}-reveal-beside-the-bid", full_page=False)


def test_i_doubt_it_stages_the_doubt_beside_the_claim_and_the_hand(site, strict, alice):
    page = open_table(site, strict, table_with_bots(alice, "doubt-it", ["heuristic", "heuristic"], seed=3), DESKTOP)
    with page.expect_navigation():
        page.click("text=Start the match")

    def step():
        if page.locator("#doubt").is_visible():
            page.click("#doubt")
        elif page.locator("#play-cards").is_visible():
            page.locator("#my-hand .playing-card").first.click()
            page.click("#play-cards")

    until(page, lambda: page.locator("#doubt-reveal").count() > 0, step)
    assert page.evaluate(NOTHING_OVER, "#last-play"), "the reveal lies over the claim"
    assert page.evaluate(NOTHING_OVER, ".dock button:not([disabled])"), "the reveal lies over a control"
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "screenshots/doubt-it-desktop-reveal-beside-the-claim", full_page=False)


# True when the element's middle is on the screen as it is scrolled now, and nothing lies over it.
IN_VIEW_AND_UNCOVERED = """(selector) => [...document.querySelectorAll(selector)].every((node) => {
  const box = node.getBoundingClientRect();
  const x = box.left + box.width / 2, y = box.top + box.height / 2;
  return y > 0 && y < window.innerHeight && node.contains(document.elementFromPoint(x, y));
})"""


@pytest.mark.parametrize("viewport", [(1366, 650), PHONE], ids=["laptop", "phone"])
def test_a_new_doubt_is_brought_into_view_with_its_verdict_and_the_controls(site, strict, alice, viewport):
    """Testers saw the verdict under the hand pinned to a phone's foot, and on a laptop the reveal
    pushed the hand and its buttons below the fold: the page now scrolls to it once, by itself."""
    page = open_table(site, strict, table_with_bots(alice, "doubt-it", ["heuristic", "heuristic"], seed=3), viewport)
    with page.expect_navigation():
        page.click("text=Start the match")

    def step():
        page.evaluate("window.scrollTo(0, 0)")  # as a player reading the claims at the top left it
        if page.locator("#doubt").is_visible():
            page.click("#doubt")
        elif page.locator("#play-cards").is_visible():
            page.locator("#my-hand .playing-card").first.click()
            page.click("#play-cards")

    until(page, lambda: page.locator("#doubt-reveal").count() > 0, step)
    page.wait_for_function(IN_VIEW_AND_UNCOVERED, arg="#doubt-reveal .verdict", timeout=5_000)
    if viewport != PHONE:
        assert page.evaluate(IN_VIEW_AND_UNCOVERED, ".dock .hand, .dock button"), "the hand is below the fold"
    screenshot(page, f"screenshots/doubt-it-{'phone' if viewport == PHONE else 'laptop'}-new-doubt-in-view",
               full_page=False)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_large_clock_beside_the_table_warns_when_the_players_time_runs_low(site, strict, alice, viewport):
    match = clocked_dudo(alice, Match.Clock.PER_TURN, 9_000)
    page = open_table(site, strict, match, viewport)
    until(page, lambda: "Your time" in page.locator("#big-clock").inner_text(), lambda: None)
    clock = page.locator("#big-clock")
    assert "low" in clock.get_attribute("class")
    assert "Low time: move now" in clock.inner_text()
    size = page.evaluate("parseFloat(getComputedStyle(document.querySelector('.big-clock-time')).fontSize)")
    assert size >= 26, f"the clock is small text ({size} px)"
    name = "desktop" if viewport == DESKTOP else "phone"
    screenshot(page, f"screenshots/dudo-{name}-low-time", full_page=False)


def test_the_turn_sound_is_asked_once_and_the_answer_kept(site, strict, alice):
    match = clocked_dudo(alice, Match.Clock.PER_GAME, 600_000)
    page = open_table(site, strict, match, DESKTOP, sound_answered=False)
    page.wait_for_selector("#sound-ask:not([hidden])")
    screenshot(page, "screenshots/table-turn-sound-asked", full_page=False)
    page.click("#sound-yes")
    assert page.locator("#sound-ask").is_hidden()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#dudo-cups, .cups")
    assert page.locator("#sound-ask").is_hidden()
    assert page.locator("#sound-toggle").inner_text() == "Turn sound: on"


def test_the_turn_sound_left_unanswered_is_not_asked_again_at_the_next_table(site, strict, alice):
    match = clocked_dudo(alice, Match.Clock.PER_GAME, 600_000)
    page = open_table(site, strict, match, DESKTOP, sound_answered=False)
    page.wait_for_selector("#sound-ask:not([hidden])")
    page.reload()  # the same table (as after its start) still asks
    page.wait_for_selector("#sound-ask:not([hidden])")
    page.goto(f"{site}/match/{clocked_dudo(alice, Match.Clock.PER_GAME, 600_000).pk}/")  # as the next arena game
    page.wait_for_selector("#sound-toggle:not([hidden])")
    assert page.locator("#sound-ask").is_hidden()
    assert page.locator("#sound-toggle").inner_text() == "Turn sound: off"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_result_says_you_won_or_you_lost(site, strict, alice, viewport):
    match = clocked_dudo(alice, Match.Clock.NONE, 0, options={"dice": 1})
    page = open_table(site, strict, match, viewport)
    until(page, lambda: page.locator("#result").is_visible(), lambda: bid_or_doubt(page))
    headline = page.locator("#result-headline").inner_text()
    winner = Match.objects.get(pk=match.pk).load_state()
    assert headline == ("You won" if match.engine.result(winner)["ranking"][0] == [0] else "You lost")
    name = "desktop" if viewport == DESKTOP else "phone"
    screenshot(page, f"screenshots/dudo-{name}-result-headline", full_page=False)


def play_to_the_end(match_id, alice, seconds=60):
    """Alice's moves by the house heuristic (the bot seat plays itself) until the game is over."""
    rng = random.Random(1)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        match = Match.objects.get(pk=match_id)
        if match.status != Match.Status.RUNNING:
            return match.status
        state = match.load_state()
        if 0 in match.engine.to_act(state):
            legal, view = match.engine.legal_actions(state, 0), match.engine.view(state, 0)
            try:
                actions.submit_action(match_id, alice, HeuristicBot().choose(view, legal, rng), seq=match.seq)
            except MatchError:
                pass  # the bot moved meanwhile: look again
        time.sleep(0.02)
    return None


def test_a_finished_dudab_buba_fits_a_phone_with_no_hand_left_to_play(site, strict, alice):
    match = table_with_bots(alice, "dudab", ["heuristic"], seed=4)
    in_thread(lambda: lifecycle.start_match(match.pk, alice))
    assert in_thread(lambda: play_to_the_end(match.pk, alice)) == Match.Status.FINISHED
    page = open_table(site, strict, match, PHONE)
    page.wait_for_selector("#result-headline")
    page.wait_for_selector("#dudab-scores")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0]
    total = page.locator("#dudab-scores th", has_text="Total").bounding_box()
    assert total["x"] + total["width"] <= PHONE[0], f"the Total column is cut: {total}"
    assert page.locator("#my-hand").count() == 0
    assert "Wait for your turn" not in page.locator("#game-area").inner_text()
    screenshot(page, "screenshots/dudab-phone-finished", full_page=True)
