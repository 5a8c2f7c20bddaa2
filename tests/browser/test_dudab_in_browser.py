"""Dudab Buba on a phone as a person plays it: the request picker fits, cards to give up are tapped,
the discard pile and each round's end are drawn as pictures."""

import random
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from games.dudab.bots import HeuristicBot
from games.matches import actions, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match
from tests.browser.conftest import log_in, screenshot, settled, shown_shares, table_with_bots
from tests.browser.test_accessibility_in_browser import BLOCKING, axe_violations, describe

pytestmark = pytest.mark.browser

PHONE = (390, 844)


def play_alice_until(match_id, alice, stop, seconds=40):
    """Alice's moves by the house heuristic (the bot seat plays itself) until stop(legal, view) holds for her."""
    def drive():
        rng = random.Random(1)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            match = Match.objects.get(pk=match_id)
            state = match.load_state()
            if match.status != "running":
                return False
            if 0 in match.engine.to_act(state):
                legal, view = match.engine.legal_actions(state, 0), match.engine.view(state, 0)
                if stop(legal, view):
                    return True
                try:
                    actions.submit_action(match_id, alice, HeuristicBot().choose(view, legal, rng), seq=match.seq)
                except MatchError:
                    pass  # the bot moved meanwhile: look again
            time.sleep(0.05)
        return False

    with ThreadPoolExecutor(1) as pool:
        assert pool.submit(drive).result(), "the situation came up"


def assert_axe_clean(page) -> None:
    settled(page)  # the staged panel's entrance is over
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def boxes(page, selector):
    """Found and measured in one step: a redraw between the two would leave detached, empty boxes."""
    return page.evaluate(
        "sel => [...document.querySelectorAll(sel)].map(e => { const r = e.getBoundingClientRect(); "
        "return [r.x, r.y, r.width, r.height]; })", selector)


def started_table(site, new_page, alice, viewport, options=None):
    """alice against a heuristic bot, the match started and her hand on the page."""
    match = table_with_bots(alice, "dudab", ["heuristic"], options, seed=4)
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lifecycle.start_match, match.pk, alice).result()
    page = new_page(viewport, has_touch=True)
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#my-hand .dudab-card")
    return match, page


def test_on_a_phone_a_dudab_asks_cards_are_given_up_by_tapping_and_the_round_end_is_staged(site, new_page, alice):
    match, page = started_table(site, new_page, alice, PHONE)
    assert "with 4 players" not in page.locator(".table-head").inner_text()

    # A Dudab: its requests fit the phone's width.
    play_alice_until(match.pk, alice, lambda legal, view: any(a.get("request") for a in legal))
    dudab = page.locator("#my-hand button[data-card^='dudab-']:not([disabled])").first
    dudab.tap()
    page.locator(".dudab-column.droppable").first.tap()
    page.wait_for_selector("#dudab-choices .request-choice")
    choices = boxes(page, "#dudab-choices .request-choice")
    assert len(choices) >= 4
    assert all(x >= 0 and x + width <= PHONE[0] for x, _y, width, _h in choices), choices
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0], "nothing sticks out sideways"
    screenshot(page, "screenshots/dudab-request-phone", full_page=False)
    assert_axe_clean(page)
    page.locator("#dudab-choices .request-choice").first.tap()
    page.wait_for_selector("#history li:has-text('alice plays the Dudab')")
    shares = shown_shares(page, ".column-cards", ".dudab-card:not(.sideways)")
    assert shares and min(shares) >= 0.4, f"every card of a column shows its value: {shares}"

    # Giving up cards: tap them, then confirm.
    play_alice_until(match.pk, alice, lambda legal, view: any(a["type"] in ("trim", "discard_down") for a in legal))
    prompt = page.locator(".dock-prompt")
    prompt.filter(has_text="Tap ").wait_for()
    need = int(prompt.inner_text().split()[1])
    assert page.locator("#dudab-choices button[data-action]").first.is_disabled(), "nothing chosen yet"
    for n in range(need):
        page.locator("#my-hand button.dudab-card").nth(n).tap()
    assert page.locator("#my-hand [aria-pressed=true]").count() == need
    assert not [t for t in page.locator("#dudab-choices button").all_inner_texts() if "," in t], \
        "no list of card combinations"
    screenshot(page, "screenshots/dudab-give-up-phone", full_page=False)
    assert_axe_clean(page)
    discard = page.locator("#dudab-choices button", has_text="Discard them")
    (discard if discard.count() else page.locator("#dudab-choices button", has_text="own pile")).tap()
    page.wait_for_selector("#history li:has-text('alice discards'), #history li:has-text('alice puts')")
    if discard.count():
        assert page.locator("#dudab-discard .dudab-card svg").count() == 1, "the discard pile's top card is a picture"

    # The round's end stays on the table for a few seconds: every player's cards and points.
    play_alice_until(match.pk, alice, lambda legal, view: any(e["type"] == "round_end" for e in view["history"]),
                     seconds=90)
    staged = page.locator("#dudab-round-end")
    staged.wait_for(timeout=3000)
    rows = staged.locator(".round-end-row")
    assert rows.count() == 2
    assert all("point" in text and "total" in text for text in rows.all_inner_texts())
    screenshot(page, "screenshots/dudab-round-end-phone", full_page=False)
    assert_axe_clean(page)
    page.set_viewport_size({"width": 1280, "height": 900})
    screenshot(page, "screenshots/dudab-round-end-desktop", full_page=False)
    staged.wait_for(state="detached", timeout=9000)


def draw_a_jungle(match_id, alice):
    """Alice, on her turn, draws: a Jungle card put on top of the draw pile first."""
    def rig():
        match = Match.objects.get(pk=match_id)
        state = match.load_state()
        jungle = next(card for card in state.deck if card.startswith("jungle-"))
        state.deck.remove(jungle)
        state.deck.append(jungle)  # the draw pile's top is its end
        match.store_state(state)
        match.save()
        draw = next(a for a in match.engine.legal_actions(state, 0) if a["type"] == "draw")
        actions.submit_action(match_id, alice, draw, seq=match.seq)

    with ThreadPoolExecutor(1) as pool:
        pool.submit(rig).result()


@pytest.mark.parametrize("viewport", [(1280, 900), PHONE], ids=["desktop", "phone"])
def test_a_drawn_jungle_lights_its_columns_goes_where_tapped_and_leaves_the_top_card_readable(
        site, new_page, alice, viewport):
    match, page = started_table(site, new_page, alice, viewport, {"jungle": True})
    play_alice_until(match.pk, alice, lambda legal, view: any(a["type"] == "draw" for a in legal) and not view["tasks"])
    draw_a_jungle(match.pk, alice)
    page.wait_for_selector(".request-banner:has-text('must place the Jungle card')")
    lit = page.locator(".dudab-column.droppable")
    assert lit.count() == len(Match.objects.get(pk=match.pk).load_state().columns), "every free column lights up"
    column = int(lit.last.get_attribute("data-column"))
    lit.last.tap()
    page.wait_for_selector(f"#history li:has-text('alice puts the Jungle on column {column + 1}')")
    cards = boxes(page, f".dudab-column[data-column='{column}'] .dudab-card")
    jungle = boxes(page, f".dudab-column[data-column='{column}'] .dudab-card.sideways")[0]
    top = cards[cards.index(jungle) - 1]
    assert top[0] + top[2] <= jungle[0] + 1, f"the Jungle lies beside the top card, not over it: {top} {jungle}"
    screenshot(page, f"screenshots/dudab-jungle-{'phone' if viewport == PHONE else 'desktop'}", full_page=False)

    # The score table says what alice's cards would score now, and hides the bot's.
    table = page.locator(".dudab-scores")
    assert "This round" in table.locator("thead").inner_text()
    now = Match.objects.get(pk=match.pk)
    points = now.engine.view(now.load_state(), 0)["round_points"]
    row = table.locator("tbody tr").nth(0).locator(".round-now")
    assert row.inner_text() == f"{points} point{'' if points == 1 else 's'}"
    assert table.locator("tbody tr").nth(1).locator(".round-now").inner_text() == "hidden"
    if viewport != PHONE:
        # Measured in the page, which waits for the table: a redraw between two reads left none (CI, once).
        panel = page.locator("#game-area").evaluate("el => el.getBoundingClientRect().width")
        assert table.evaluate("el => el.getBoundingClientRect().width") >= panel - 40, "the score table fills its panel"
