"""Dudo, I Doubt It and Dubito played on a phone (390 x 844), measured in chromium.

Every control gives a finger 44 x 44 px of its own, the staged doubt never pushes the controls
out of reach, a finished game shows its result in view and no turn prompt, and what the table
says is in player words (a fifth card, a row that does not take the card, a move that lost a race).
"""

import re

import pytest
from playwright.sync_api import expect

from games.matches import lifecycle, wakeups
from games.matches.models import Seat
from tests.browser.conftest import (
    in_thread,
    log_in,
    move_answered,
    screenshot,
    settled,
    shown_shares,
    table_with_bots,
    until,
)
from tests.browser.test_accessibility_in_browser import BLOCKING, axe_violations, describe

pytestmark = pytest.mark.browser

PHONE = (390, 844)

# Every visible control of the table whose 44 x 44 px square (from its top left corner) is not
# all its own: smaller than that, or covered by a neighbour (a card of a fan, the pinned dock).
SMALL_TARGETS = """() => {
  const controls = [...document.querySelectorAll(
    "#table :is(button, select, input, a.button, [role=button])")].filter((c) => c.getClientRects().length);
  const small = [];
  for (const control of controls) {
    control.scrollIntoView({ block: "center", inline: "center" });
    const box = control.getBoundingClientRect();
    // The middles of the square's four sides and its centre (its corners may be rounded off).
    const points = [[1, 22], [43, 22], [22, 1], [22, 43], [22, 22]];
    const hits = points.map(([dx, dy]) => document.elementFromPoint(box.left + dx, box.top + dy));
    const cover = hits.find((hit) => !hit || !control.contains(hit));
    if (cover !== undefined) small.push(`${control.id || control.className || control.tagName} ` +
      `"${(control.textContent || control.getAttribute("aria-label") || "").trim().slice(0, 30)}" ` +
      `${Math.round(box.width)}x${Math.round(box.height)} under ` +
      `${cover ? cover.id || cover.className || cover.tagName : "nothing"}`);
  }
  window.scrollTo(0, 0);
  return small;
}"""

# The point where a card's index (its rank, top left) is drawn is that card's, not a neighbour's.
INDEX_SHOWS = """(card) => {
  const box = card.getBoundingClientRect();
  return card.contains(document.elementFromPoint(box.left + 5, box.top + 8));
}"""


def phone_table(site, strict, match):
    """The host on a phone, after pressing Start."""
    page = strict.page(PHONE)
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    with page.expect_navigation():  # the page reloads once the start is accepted
        page.click("text=Start the match")
    return page


def your_turn(page) -> None:
    """I Doubt It: pass on the others' plays until it is the player's turn to play cards."""
    until(page, lambda: page.locator("#play-cards").is_visible(),
          lambda: page.locator("#pass").is_visible() and page.click("#pass"))


def in_view(page, selector) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE[1], f"{selector} is out of view: {box}"
    return box


def no_blocking_axe_violation(page) -> None:
    settled(page)  # a panel fading in (the staged doubt's reveal) has not its colours yet: axe would read them
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def game_text(page) -> str:
    return page.locator("#game-area").inner_text()


def test_dudo_on_a_phone_keeps_every_control_in_reach_while_the_doubt_is_staged(site, strict, alice):
    page = phone_table(site, strict, table_with_bots(alice, "dudo", ["heuristic"], seed=5))
    page.wait_for_selector("#dudo-bid")
    assert page.evaluate(SMALL_TARGETS) == []
    quantities = [int(q) for q in page.locator("#dudo-quantity option").all_inner_texts()]
    assert quantities == sorted(quantities) and len(quantities) > 1, quantities

    def step():
        if page.locator("#dudo-doubt").is_visible():
            page.click("#dudo-doubt")
        elif page.locator("#dudo-bid").is_visible():
            page.click("#dudo-bid")

    until(page, lambda: page.locator("#dudo-reveal").count() > 0, step)
    page.wait_for_selector("#dudo-bid")  # the next round is open while the dice still show
    assert page.locator("#dudo-reveal").count(), "the reveal still shows"
    page.evaluate("window.scrollTo(0, 0)")
    reveal = in_view(page, "#dudo-reveal")
    controls = in_view(page, "#dudo-controls")
    assert reveal["y"] + reveal["height"] <= controls["y"], "the reveal lies over the table, not over the controls"
    bid = page.locator("#dudo-bid").bounding_box()
    assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).id",
                         [bid["x"] + bid["width"] / 2, bid["y"] + bid["height"] / 2]) == "dudo-bid"
    screenshot(page, "screenshots/dudo-phone-doubt-staged", full_page=False)
    no_blocking_axe_violation(page)


def test_a_dudo_game_that_ends_shows_its_result_in_view_and_no_turn_prompt(site, strict, alice):
    page = phone_table(site, strict, table_with_bots(alice, "dudo", ["heuristic"], options={"dice": 1}, seed=5))

    def step():
        if page.locator("#dudo-doubt").is_visible():
            page.click("#dudo-doubt")
        elif page.locator("#dudo-bid").is_visible():
            page.click("#dudo-bid")

    until(page, lambda: page.locator("#result").is_visible(), step)
    expect(page.locator("#dudo-reveal")).to_have_count(0, timeout=15_000)  # past the staged doubt
    in_view(page, "#result h2")
    text = game_text(page)
    assert "The game is over" in text
    assert not re.search(r"No bid yet|opens|Wait for your turn", text), text
    screenshot(page, "screenshots/dudo-phone-finished", full_page=False)


@pytest.mark.parametrize(("game", "bots", "options"), [
    ("dubito", ["heuristic"], None),
    ("doubt-it", ["heuristic", "random"], {"max_plays": 20}),
])
def test_a_card_game_that_ends_shows_its_result_in_view_and_no_turn_prompt(site, strict, alice, game, bots, options):
    page = phone_table(site, strict, table_with_bots(alice, game, bots, options=options))
    page.wait_for_selector("#my-hand")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("text=Resign")
    page.wait_for_selector("#result h2", timeout=60_000)  # the bots play I Doubt It to its end
    in_view(page, "#result h2")
    text = game_text(page)
    assert "The game is over" in text
    assert not re.search(r"Wait for your turn|to play|Next claim|Pick a card", text), text
    screenshot(page, f"screenshots/{game}-phone-finished", full_page=False)


def test_i_doubt_it_on_a_phone_gives_every_card_a_finger_and_says_when_a_fifth_is_too_many(site, strict, alice):
    page = phone_table(site, strict, table_with_bots(alice, "doubt-it", ["heuristic", "random"], seed=3))
    your_turn(page)
    assert page.locator("#my-hand .playing-card").count() >= 17
    # A bot's doubt, and the note that a pass came too late, show over the top of the screen for
    # a few seconds: the table is measured once they are gone.
    page.wait_for_selector("#doubt-reveal", state="detached", timeout=10_000)
    page.wait_for_selector("#table-error", state="hidden", timeout=10_000)
    assert page.evaluate(SMALL_TARGETS) == []
    cards = page.locator("#my-hand .playing-card")
    for n in range(5):
        cards.nth(n).click()
    assert [cards.nth(n).get_attribute("aria-pressed") for n in range(5)] == ["true"] * 4 + ["false"]
    assert "at most 4 cards" in page.locator("#hand-prompt").inner_text()
    assert page.locator("#play-cards").inner_text().startswith("Play 4 as ")
    screenshot(page, "screenshots/doubt-it-phone-four-picked", full_page=False)
    no_blocking_axe_violation(page)

    def step():
        if page.locator("#play-cards").is_visible():
            page.locator("#my-hand .playing-card").first.click()
            page.click("#play-cards")
        elif page.locator("#pass").is_visible():
            page.click("#pass")

    until(page, lambda: page.locator(".pile-stack .playing-card").count() >= 2, step, limit_ms=60_000)
    felt = page.locator("#game-area").bounding_box()
    pile = page.locator(".pile-stack").bounding_box()
    assert pile["x"] >= felt["x"], "the pile stays on the felt"
    page.evaluate("window.scrollTo(0, 0)")
    for badge in page.locator(".count-badge").all():
        box = badge.bounding_box()
        assert box["y"] + box["height"] <= PHONE[1]
        assert page.evaluate("([x, y]) => document.elementFromPoint(x, y).closest('.count-badge') !== null",
                             [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2]), "the hand covers a count"


def test_a_picked_card_neither_hides_its_neighbour_nor_looks_like_the_focus(site, strict, alice):
    page = strict.page()  # a desktop, where the hand is a fan of overlapping cards
    log_in(page, site, "alice")
    match = table_with_bots(alice, "doubt-it", ["heuristic", "random"], seed=3)
    page.goto(f"{site}/match/{match.pk}/")
    with page.expect_navigation():
        page.click("text=Start the match")
    your_turn(page)
    cards = page.locator("#my-hand .playing-card")
    cards.nth(0).click()
    settled(page)  # the card has risen
    assert cards.nth(1).evaluate(INDEX_SHOWS), "the raised card covers its neighbour's rank"
    cards.nth(1).focus()
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Tab")  # focus by keyboard, as :focus-visible wants
    look = "(card) => { const s = getComputedStyle(card); return [s.outlineStyle, s.boxShadow]; }"
    picked, focused = cards.nth(0).evaluate(look), cards.nth(1).evaluate(look)
    assert picked[0] == "none" and "rgb(29, 99, 184)" in picked[1], picked
    assert focused[0] == "solid" and "rgb(29, 99, 184)" not in focused[1], focused


def test_dubito_on_a_phone_sorts_the_hand_and_says_why_a_row_does_not_take_a_card(site, strict, alice):
    page = phone_table(site, strict, table_with_bots(alice, "dubito", ["heuristic"], seed=7))
    page.wait_for_selector("#my-hand button:not([disabled])")
    hand = page.locator("#my-hand .playing-card").evaluate_all("cards => cards.map((c) => c.dataset.card)")
    order = sorted(hand, key=lambda card: ("SHCD".index(card[1]), "A23456789TJQK".index(card[0])))
    assert hand == order, hand
    rules = page.locator(".player-tableau.me .row-points").all_inner_texts()
    assert rules == ["1 pt per card", "2 pts per card", "3 pts per card", "4 pts per card"]
    assert re.fullmatch(r"Your rows — (1 point|\d+ points)", page.locator(".player-tableau.me h3").inner_text())

    page.locator(".player-tableau.me .dubito-row").first.click()
    assert "Pick a card from your hand first" in page.locator("#hand-prompt").inner_text()
    refused = {"said": ""}

    def step():
        page.locator("#my-hand button:not([disabled])").first.click()
        assert page.evaluate(SMALL_TARGETS) == []
        unlit = page.locator(".player-tableau.me .dubito-row:not(.droppable)")
        if unlit.count():
            unlit.first.click()
            page.wait_for_selector("#table-error:not([hidden])")
            refused["said"] = page.locator("#table-error").inner_text()
        else:
            page.keyboard.press("Enter")  # the keyboard is on the first lit row
            move_answered(page)

    until(page, lambda: refused["said"], step)
    shares = shown_shares(page, ".dubito-row .row-cards", ".playing-card")
    assert min(shares, default=1) >= 0.4, f"every card of a row shows its corner index: {shares}"
    said = refused["said"]
    assert re.fullmatch(r"The \w+ of \w+ cannot follow the \w+ of \w+ in row [1-4]: that row needs .+\.", said), said
    in_view(page, "#table-error")
    screenshot(page, "screenshots/dubito-phone-row-refused", full_page=False)
    no_blocking_axe_violation(page)


def test_a_move_that_lost_a_race_is_told_in_player_words_and_the_table_is_drawn_again(site, strict, alice):
    match = table_with_bots(alice, "dudo", ["heuristic"], seed=5)
    page = strict.page(PHONE)
    # The next move goes out as if chosen on the first picture of the match, as a slow network would do.
    page.add_init_script("""{
      const send = WebSocket.prototype.send;
      WebSocket.prototype.send = function (data) {
        const message = JSON.parse(data);
        if (window.sendStale && message.type === "action") { window.sendStale = false; message.seq = 0; }
        return send.call(this, JSON.stringify(message));
      };
    }""")
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    with page.expect_navigation():
        page.click("text=Start the match")
    page.wait_for_selector("#dudo-bid")
    until(page, lambda: page.evaluate("document.querySelectorAll('#history li').length") >= 2,
          lambda: page.click("#dudo-bid"))
    page.wait_for_selector("#dudo-bid")
    page.evaluate("window.sendStale = true")
    page.click("#dudo-bid")
    page.wait_for_selector("#table-error:not([hidden])")
    said = page.locator("#table-error").inner_text()
    assert said == "Someone moved just before you: here is the table as it is now. Choose again."
    page.wait_for_selector("#dudo-bid")
    page.click("#dudo-bid")  # the table goes on
    until(page, lambda: page.locator("#history li").count() >= 4, lambda: None)


def test_the_brand_and_the_footer_links_are_finger_sized_on_a_phone(site, strict, alice):
    page = phone_table(site, strict, table_with_bots(alice, "dubito", ["heuristic"], seed=7))
    for link in (page.locator(".nav .brand"), page.locator(".site-footer a").first):
        box = link.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, box


# The parts of the board the staged reveal lies over, with the top of the board in view.
COVERED = """() => {
  document.querySelector("#game-area").scrollIntoView();
  const reveal = document.querySelector("#doubt-reveal").getBoundingClientRect();
  return [...document.querySelectorAll("#game-area .pile-stack, #game-area .opponents > *")].filter((part) => {
    const box = part.getBoundingClientRect();
    return box.left < reveal.right && reveal.left < box.right && box.top < reveal.bottom && reveal.top < box.bottom;
  }).map((part) => part.className);
}"""


def test_the_replay_of_a_doubt_on_a_phone_shows_the_reveal_beside_the_board_not_over_it(site, new_page, alice):
    """The staged reveal lay over the pile and the hand counts on the replay's doubt step (tester's finding)."""
    def play() -> int:
        match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=5)
        for name in ("random", "random"):
            lifecycle.add_house_bot(match.pk, alice, name)
        Seat.objects.filter(match=match, user=alice).update(house_bot="random")  # the computer plays her seat too
        lifecycle.start_match(match.pk, alice)
        return wakeups.play_out(match.pk).pk

    match_id = in_thread(play)
    page = new_page(PHONE)
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match_id}/replay/")
    page.wait_for_selector("#game-area > *")
    page.select_option("#replay-seat", "0")
    page.click("#history-title")  # away from the "Seen by" list, which keeps its own arrow keys
    page.keyboard.press("Home")  # the replay opens at the end
    until(page, lambda: page.locator("#doubt-reveal").count() > 0, lambda: page.keyboard.press("ArrowRight"))
    assert page.evaluate(COVERED) == []
    # On a shorter screen, scrolled to, the reveal is there to read: the hand seen by the player,
    # pinned further down, is not over it (it sits in the page under the claim, never over it).
    page.set_viewport_size({"width": PHONE[0], "height": 600})
    page.evaluate("document.querySelector('#doubt-reveal').scrollIntoView({ block: 'center' })")
    reveal = page.locator("#doubt-reveal").bounding_box()
    on_top = page.evaluate(
        "([x, y]) => document.querySelector('#doubt-reveal').contains(document.elementFromPoint(x, y))",
        [reveal["x"] + reveal["width"] / 2, min(reveal["y"] + reveal["height"] - 5, 595)],  # its verdict line
    )
    assert on_top, "the hand seen by the player lay over the reveal"
    screenshot(page, "phone-replay-doubt", full_page=False)
