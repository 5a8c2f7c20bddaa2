"""The Dobble table as a person meets it: pictures, number keys, the lockout countdown, a phone."""

import re
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import transaction
from django.utils import timezone
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from games.matches import lifecycle, wakeups
from tests.browser.conftest import log_in, screenshot, table_with_bots
from tests.browser.test_accessibility_in_browser import BLOCKING, axe_violations, describe

pytestmark = pytest.mark.browser

PHONE = (390, 844)
PRELOADED = """new Set(performance.getEntriesByType("resource").map((e) => e.name)
    .filter((name) => name.includes("/vendor/twemoji/") && name.endsWith(".svg"))).size"""
CENTRES_HIT = """[...document.querySelectorAll(".dobble-symbol")].filter((button) => {
    const r = button.getBoundingClientRect();
    return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).closest(".dobble-symbol") === button;
}).length"""
# Every number the get-ready countdown shows, as it shows it, with the cards beside it: noted by the
# page itself, so a test on a loaded machine reads them after the fact instead of racing the seconds.
READY_NOTED = """window.readyShown = [];
new MutationObserver(() => {
    const count = document.querySelector(".dobble-ready-count");
    if (count && count.textContent && window.readyShown.at(-1)?.count !== count.textContent)
        window.readyShown.push({count: count.textContent, backs: document.querySelectorAll(".dobble-card.back").length,
                                faces: document.querySelectorAll(".dobble-symbol").length});
}).observe(document, {subtree: true, childList: true, characterData: true});"""


def start_in_thread(match, host):
    """Started outside Playwright's thread, whose event loop the service's broadcasts must not share."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(lifecycle.start_match, match.pk, host).result()


def open_table(site, new_page, match, viewport=(1280, 900), **options):
    page = new_page(viewport, **options)
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector(".dobble-card .dobble-symbol")
    return page


def card_symbols(page, index: int) -> list[str]:
    return page.locator(f"[data-card-index='{index}'] .dobble-symbol").evaluate_all(
        "els => els.map(e => e.dataset.symbol)")


def shared_and_wrong(page) -> tuple[int, int]:
    """The key (1-8) of the picture both cards share, and of one they do not."""
    mine, target = card_symbols(page, 0), card_symbols(page, 1)
    keys = [i + 1 for i, symbol in enumerate(target) if symbol in mine]
    wrong = [i + 1 for i, symbol in enumerate(target) if symbol not in mine]
    return keys[0], wrong[0]


def lock_out_with_a_wrong_picture(page, pick) -> None:
    """pick(key) claims the target card's picture `key`; a claim overtaken by the bot's right one
    is dropped as stale (no lockout), so try again on the new cards."""
    for _ in range(5):
        _right, wrong = shared_and_wrong(page)
        pick(wrong)
        try:
            page.locator(".dobble-lockout").wait_for(timeout=2500)
            return
        except PlaywrightTimeout:
            continue
    raise AssertionError("no wrong claim of five was taken")


def test_each_card_shows_eight_different_pictures_with_their_names_and_keys(site, new_page, alice):
    match = table_with_bots(alice, "dobble", ["easy"])
    start_in_thread(match, alice)
    page = open_table(site, new_page, match)
    screenshot(page, "screenshots/dobble-desktop")
    # Both cards read at one moment: the bot plays on, and a card redrawn between two reads had
    # paired one card's names with the next card's pictures.
    cards = page.locator(".dobble-card:not(.empty)").evaluate_all(
        "cards => cards.map(card => [...card.querySelectorAll('.dobble-symbol')]"
        ".map(symbol => [symbol.title, symbol.querySelector('img').src]))"
    )
    assert len(cards) == 2
    for symbols in cards:
        names, pictures = [name for name, _ in symbols], [picture for _, picture in symbols]
        assert len(pictures) == len(set(pictures)) == 8
        assert len(set(names)) == 8
        for name, picture in symbols:
            assert picture.endswith(f"/static/vendor/twemoji/{name.replace(' ', '-')}.svg")
    loaded = page.evaluate(
        "[...document.querySelectorAll('.dobble-symbol img')].every(i => i.complete && i.naturalWidth > 0)")
    assert loaded, "every picture is served by the site itself"
    assert page.evaluate(CENTRES_HIT) == 16, "a click at the middle of each picture reaches that picture"
    keys = page.locator("[data-card-index='1'] .dobble-key").all_inner_texts()
    assert keys == [str(n) for n in range(1, 9)]
    assert "Twemoji" in page.locator(".dobble-credit").inner_text()


@pytest.mark.both_stacks
def test_a_wrong_key_locks_the_player_out_with_a_countdown_and_the_right_key_wins_the_card(site, new_page, alice):
    match = table_with_bots(alice, "dobble", ["easy"], {"lockout_ms": 3000}, seed=5)
    start_in_thread(match, alice)
    page = open_table(site, new_page, match)
    page.locator("[data-card-index='1'] .dobble-symbol").first.focus()
    lock_out_with_a_wrong_picture(page, lambda key: page.keyboard.press(str(key)))
    countdown = page.locator(".dobble-lockout")
    assert "locked out" in countdown.inner_text()
    assert page.locator(".dobble-lockout-seconds").inner_text().endswith(" s")
    assert page.locator(".dobble-board.locked [data-card-index='1'] .dobble-symbol[disabled]").count() == 8
    screenshot(page, "screenshots/dobble-lockout")
    announced = page.locator("#game-announcer")
    # the latest event is said: alice's wrong claim, unless the bot's own claim came right after it
    assert re.search(r"^(alice|EasyBot) (picked|spotted) the ", announced.inner_text())
    assert announced.get_attribute("aria-live") == "polite"
    countdown.wait_for(state="detached", timeout=8000)
    assert page.locator("[data-card-index='1'] .dobble-symbol:not([disabled])").count() == 8
    assert page.evaluate("document.activeElement.matches('[data-card-index=\"1\"] .dobble-symbol')"), \
        "keyboard focus survives the redraws"
    for _ in range(5):  # the bot may take the card first: look again
        right, _wrong = shared_and_wrong(page)
        page.keyboard.press(str(right))
        try:
            page.wait_for_selector("#history li:has-text('alice spotted the')", timeout=1500)
            break
        except PlaywrightTimeout:  # the bot was quicker
            continue
    assert page.locator("#history li", has_text="alice spotted the").count() >= 1
    assert page.locator("#history li", has_text="which is not on both cards: locked out").count() >= 1


def test_on_a_phone_both_cards_fit_the_screen_with_44_pixel_targets(site, new_page, alice):
    match = table_with_bots(alice, "dobble", ["easy"], {"lockout_ms": 3000}, seed=7)
    start_in_thread(match, alice)
    page = open_table(site, new_page, match, PHONE, has_touch=True)
    screenshot(page, "screenshots/dobble-phone")
    screenshot(page, "screenshots/dobble-phone-first-screen", full_page=False)
    boxes = page.locator(".dobble-symbol").evaluate_all(
        "els => els.map(e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height]; })")
    assert len(boxes) == 16
    for x, y, width, height in boxes:
        assert width >= 44 and height >= 44
        assert 0 <= x and x + width <= PHONE[0] and y + height <= PHONE[1], "both cards are on the first screen"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE[0], "nothing sticks out sideways"
    assert page.evaluate(CENTRES_HIT) == 16, "a tap at the middle of each picture reaches that picture"
    lock_out_with_a_wrong_picture(
        page, lambda key: page.locator(f"[data-card-index='1'] .dobble-symbol[data-slot='{key - 1}']").tap())
    # Found and measured in one step: the countdown is redrawn as it ticks.
    x, y, width, height = page.wait_for_function(
        """() => { const e = document.querySelector('.dobble-lockout');
                   if (!e) return null; const r = e.getBoundingClientRect();
                   return r.width ? [r.x, r.y, r.width, r.height] : null; }""").json_value()
    assert x >= 0 and x + width <= PHONE[0] and y + height <= PHONE[1]
    screenshot(page, "screenshots/dobble-phone-lockout", full_page=False)
    assert page.locator(".nav-links").is_hidden(), "the header is folded behind its Menu button"
    page.click(".nav-toggle")
    assert page.locator(".nav-links").is_visible()


def test_the_replay_of_a_finished_mini_game_draws_the_same_pictures(site, new_page):
    def played_out():
        seats = [{"user": lifecycle.house_bot_user(bot), "house_bot": bot} for bot in ["hard", "easy"]]
        with transaction.atomic():
            match = lifecycle.start_seated_match(game="dobble", seats=seats, now=timezone.now(), seed=9)
        return wakeups.play_out(match.pk)

    with ThreadPoolExecutor(1) as pool:
        match = pool.submit(played_out).result()
    page = new_page()
    errors = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{site}/match/{match.pk}/replay/")
    page.wait_for_selector("#game-area .dobble-status")
    page.click("[data-step=first]")
    page.locator(".dobble-card:not(.empty) .dobble-symbol img").nth(7).wait_for()
    names = page.locator(".dobble-card:not(.empty)").first.locator(".dobble-symbol").evaluate_all(
        "els => els.map(e => e.getAttribute('aria-label'))")
    assert len(set(names)) == 8 and "null" not in " ".join(names)
    assert page.locator("#history li").count() == 0
    page.keyboard.press("ArrowRight")
    page.wait_for_selector("#history li")
    first_event = page.locator("#history li").first.inner_text()
    assert " spotted the " in first_event or " picked the " in first_event
    assert not errors


PICTURES_PER_CARD = """[...document.querySelectorAll(".dobble-card:not(.empty)")].map((card) =>
    [...card.querySelectorAll(".dobble-symbol")].map((button) => {
        const picture = button.querySelector("img").getBoundingClientRect();
        const target = button.getBoundingClientRect();
        const key = button.querySelector(".dobble-key");
        const badge = key && getComputedStyle(key).display !== "none" ? key.getBoundingClientRect() : null;
        return {picture: [picture.x + picture.width / 2, picture.y + picture.height / 2, picture.width],
                side: button.querySelector("img").offsetWidth, card: card.getBoundingClientRect().width,
                target: [target.x + target.width / 2, target.y + target.height / 2, target.width],
                badge: badge && [badge.x + badge.width / 2, badge.y + badge.height / 2]};
    }))"""


def apart(a, b) -> float:
    return ((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5


@pytest.mark.parametrize("viewport", [(1280, 900), PHONE], ids=["desktop", "phone"])
def test_pictures_vary_in_size_as_printed_and_each_number_sits_on_its_own_picture(site, new_page, alice, viewport):
    match = table_with_bots(alice, "dobble", ["easy"], {"lockout_ms": 3000}, seed=3)
    start_in_thread(match, alice)
    page = open_table(site, new_page, match, viewport)
    for card in page.evaluate(PICTURES_PER_CARD):
        sides = [symbol["side"] for symbol in card]
        # About twice, as printed; the sides are whole pixels, and on a phone's small card the
        # smallest is held at a recognisable size (47 against 24 px was measured on one card).
        assert max(sides) >= 1.9 * min(sides), f"sizes vary as on the printed cards: {sides}"
        assert min(sides) >= 0.125 * card[0]["card"], f"the smallest picture stays recognisable: {sides}"
        for n, symbol in enumerate(card):
            assert symbol["target"][2] >= 44, "every picture is a 44 px target"
            assert symbol["side"] <= 0.81 * symbol["target"][2], "a picture stays inside its own ring"
            assert apart(symbol["picture"], symbol["target"]) < 1, "a picture sits at its ring's centre"
            for other in card[n + 1:]:  # round targets that do not overlap
                assert apart(symbol["target"], other["target"]) >= (symbol["target"][2] + other["target"][2]) / 2 - 1
            if symbol["badge"]:  # the number is inside its own picture's ring and no other's
                assert apart(symbol["badge"], symbol["target"]) < symbol["target"][2] / 2
                assert all(apart(symbol["badge"], o["target"]) > o["target"][2] / 2 for o in card if o is not symbol)
    assert sum(1 for card in page.evaluate(PICTURES_PER_CARD) for s in card if s["badge"]) == 8
    assert page.evaluate(CENTRES_HIT) == 16
    mine = page.locator(".dobble-scores li.me").inner_text()
    assert mine == "Your pile: 1 card · 0 won", mine
    assert page.locator(".dobble-goal").inner_text() == "Most cards won wins this mini-game."
    page.locator("#seats .seat.me .dot[title*='connection: ']").wait_for(state="attached")
    said = page.locator("#seats .seat.me .dot").get_attribute("title")
    assert re.fullmatch(r"connected, connection: (fast|fair|slow)", said), said
    assert " s" not in page.locator("#seats").inner_text(), "players see no network figures"
    assert page.evaluate(PRELOADED) == 57, "every picture is fetched as the table opens"
    screenshot(page, f"screenshots/dobble-sizes-{'phone' if viewport == PHONE else 'desktop'}", full_page=False)
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)


def test_a_mini_game_opens_with_a_get_ready_countdown_kept_by_the_server(site, new_page, alice, settings):
    settings.REALTIME_GET_READY_MS = 3000
    match = table_with_bots(alice, "dobble", ["hard"], {"bot_reaction_ms": 0})
    page = new_page(PHONE, has_touch=True)
    page.add_init_script(READY_NOTED)
    log_in(page, site, "alice")
    states = []  # every message the page's socket is sent, as sent
    page.on("websocket", lambda ws: ws.on("framereceived", lambda text: states.append(text)))
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#seats li")
    start_in_thread(match, alice)
    page.locator(".dobble-ready").wait_for()
    screenshot(page, "screenshots/dobble-get-ready", full_page=False)
    blocking = [v for v in axe_violations(page) if v["impact"] in BLOCKING]
    assert not blocking, describe(blocking)
    page.wait_for_selector(".dobble-card .dobble-symbol")
    assert page.locator(".dobble-ready").count() == 0
    shown = page.evaluate("window.readyShown")
    counts = [int(seen["count"]) for seen in shown]
    assert counts[0] in (3, 2) and counts == list(range(counts[0], 0, -1)), f"Get ready {counts}, then go"
    assert all(seen["backs"] == 2 and seen["faces"] == 0 for seen in shown), "both cards face down meanwhile"
    countdown = [text for text in states if re.search(r'"starts_in_ms": ?[1-9]', str(text))]
    assert countdown and not any('"symbols"' in text for text in countdown), "no card's face reached the page"
    # The bot claims at go, which may come before the page's history is read here: what the socket
    # was sent before go, and the log's times, tell whether anyone claimed earlier.
    assert not any(re.search(r'"type": ?"claim"', str(text)) for text in countdown), "nobody claimed before go"
    match.refresh_from_db()
    claimed = list(match.actions.values_list("created_at", flat=True))
    assert all(made >= match.started_at for made in claimed), "the bot neither"
