"""The four card and dice tables seen mid-game, on a desktop and on a phone.

Each test plays a few moves against house bots in chromium, checks what a player sees (card
faces with rank and suit, dice with pips, a staged doubt with its verdict, history in names),
and leaves screenshots in test-artifacts/screenshots/ for people to look at.
"""

import re

import pytest
from playwright.sync_api import expect

from games.matches import lifecycle, wakeups
from games.matches.models import Match
from tests.browser.conftest import (
    ARTIFACTS,
    in_thread,
    log_in,
    move_answered,
    settled,
    shown_shares,
    table_with_bots,
    until,
)

pytestmark = pytest.mark.browser

# What a screen reader says for each picture: its image label, or a button's own (hidden) text.
SPOKEN_NAMES = "els => els.map(e => e.getAttribute('aria-label') || e.querySelector('.visually-hidden').textContent)"
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}
RANKS = "ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king"
CARD_NAME = re.compile(rf"^({RANKS}) of (spades|hearts|diamonds|clubs)$")
COLOURS = "red|blue|yellow|green"
DUDAB_NAME = re.compile(rf"^(({COLOURS}) (hand|mammoth|club|hide) [1-4]|({COLOURS}) Shaman|Dudab|Jungle|Baby)$")


# Of every card that a later one overlaps: how much of it shows, as a share of its width.
def hosts_page(site, new_page, match):
    """The host's browser on the table, after pressing Start."""
    page = new_page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    with page.expect_navigation():  # the page reloads once the start is accepted
        page.click("text=Start the match")
    return page


def shoot(page, name: str) -> None:
    """The page at desktop size, then at phone size (left there), into test-artifacts/screenshots/."""
    folder = ARTIFACTS / "screenshots"
    folder.mkdir(parents=True, exist_ok=True)
    settled(page)  # the flip animations have finished
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(folder / f"{name}-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)
    page.evaluate("window.scrollTo(0, 0)")  # as a player opening the table sees it
    page.screenshot(path=str(folder / f"{name}-phone.png"))


def watch_errors(page) -> list[str]:
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    return errors


def history(page) -> str:
    return page.locator("#history").inner_text()


def assert_controls_in_reach(page, selector: str) -> None:
    """On the phone the controls are on screen without scrolling."""
    box = page.locator(selector).first.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + min(box["height"], 60) <= PHONE["height"], box


def test_dudo_stages_the_doubt_with_every_die_face_up(site, new_page, alice):
    match = table_with_bots(alice, "dudo", ["heuristic", "heuristic"], seed=5)
    page = hosts_page(site, new_page, match)
    errors = watch_errors(page)
    page.wait_for_selector(".cup")
    assert page.locator(".cup.me .die[data-face]").count() == 5, "your own dice show their pips"
    assert page.locator(".cup:not(.me) .die.hidden").count() == 10, "the others' dice stay hidden"

    def step():
        if page.locator("#dudo-doubt").is_visible():
            page.locator("#dudo-doubt").focus()
            page.keyboard.press("Enter")
        elif page.locator("#dudo-bid").is_visible():
            page.locator("#dudo-bid").focus()
            assert page.title().startswith("(Your move) ")
            page.keyboard.press("Enter")

    until(page, lambda: page.locator("#dudo-reveal").count() > 0, step)
    reveal = page.locator("#dudo-reveal")
    assert reveal.locator(".die[data-face]").count() == 15, "every die of the round turns face up"
    assert re.search(r"(Bluff!|Honest).*\w+ loses a die\.", reveal.inner_text(), re.S | re.I)
    assert page.evaluate("document.activeElement.closest('#game-area') !== null"), "focus stays on the table"
    shoot(page, "dudo")
    assert_controls_in_reach(page, "#dudo-reveal")
    assert re.search(r"alice (bids|doubts) ", history(page))
    assert "dudo-" not in history(page) and "{" not in history(page)
    assert not errors, errors


def test_i_doubt_it_stages_the_doubt_with_the_challenged_cards_face_up(site, new_page, alice):
    match = table_with_bots(alice, "doubt-it", ["heuristic", "random"], seed=3)
    page = hosts_page(site, new_page, match)
    errors = watch_errors(page)
    page.wait_for_selector("#my-hand .playing-card")
    labels = page.locator("#my-hand .playing-card").evaluate_all(SPOKEN_NAMES)
    assert len(labels) >= 17 and all(CARD_NAME.match(label) for label in labels), labels
    assert page.locator("#my-hand .playing-card svg text").count() >= 2 * len(labels), "each card shows its rank twice"
    shares = shown_shares(page, "#my-hand", ".playing-card")
    assert min(shares) >= 0.6, f"the hand spreads over the table's width, every corner index in view: {shares}"
    rows = page.locator("#my-hand .playing-card").evaluate_all(
        "els => new Set(els.map(e => e.getBoundingClientRect().top)).size")
    assert rows == 1, "17 cards lie in one row on a desktop table"
    names = page.locator(".opponent-name").evaluate_all(  # in one step: a redraw cannot detach them halfway
        "els => els.map(e => [e.getClientRects().length === 1 && e.offsetHeight < 30, e.title])")
    assert names and all(whole for whole, _title in names), f"names are never broken: {names}"
    assert all(title for _whole, title in names)

    backs: list[float] = []

    def step():
        backs.extend(shown_shares(page, "#last-play", ".playing-card.back"))
        if page.locator("#doubt").is_visible():
            page.keyboard.press("d")
        elif page.locator("#play-cards").is_visible():
            page.locator("#my-hand button").first.click()
            page.click("#play-cards")

    until(page, lambda: page.locator("#doubt-reveal").count() > 0, step)
    assert backs and min(backs) >= 0.5, f"each back of the last play shows half of itself, no sliver: {backs}"
    reveal = page.locator("#doubt-reveal")
    shown = reveal.locator(".playing-card").evaluate_all(SPOKEN_NAMES)
    assert shown and all(CARD_NAME.match(label) for label in shown), shown
    verdict = reveal.inner_text().replace("\n", " ")
    assert re.search(r"(Bluff!|Honest) \w+ takes the pile \(\d+ cards?\)\.", verdict, re.I), verdict
    shoot(page, "doubt-it")
    assert re.search(r"doubts \w+: (\w+ of \w+(, )?)+ — (honest|a bluff); \w+ takes the pile", history(page))
    assert not errors, errors


def test_dubito_shows_each_players_tableau_with_rules_and_points(site, new_page, alice):
    match = table_with_bots(alice, "dubito", ["heuristic"], seed=7)
    page = hosts_page(site, new_page, match)
    errors = watch_errors(page)
    page.wait_for_selector("#my-hand .playing-card")
    plays = {"done": 0}

    def step():
        playable = page.locator("#my-hand button:not([disabled])")
        if playable.count():
            playable.first.click()
            lit = page.locator(".player-tableau.me .dubito-row.droppable")
            assert lit.count() >= 1, "the rows that take it light up"
            on_lit_row = page.evaluate("document.activeElement.classList.contains('droppable')")
            assert on_lit_row, "the keyboard moves on to a lit row"
            page.keyboard.press("Enter")
            plays["done"] += 1

    until(page, lambda: plays["done"] >= 5, step)
    move_answered(page)
    rules = page.locator(".player-tableau.me .row-rule").all_inner_texts()
    assert len(rules) == 4 and "1 pt per card" in rules[0] and "4 pts per card" in rules[3] and "one rank" in rules[3]
    assert page.locator(".player-tableau").count() == 2
    assert page.locator(".playing-card.last-play").count() == 1, "the last play is marked"
    page.locator("#my-hand button:not([disabled])").first.click()
    shoot(page, "dubito")
    assert_controls_in_reach(page, "#my-hand")
    assert re.search(r"alice puts the \w+ of \w+ on row [1-4]", history(page))
    assert not errors, errors


def test_dudab_buba_draws_its_cards_and_lights_the_columns_a_card_fits(site, new_page, alice):
    match = table_with_bots(alice, "dudab", ["heuristic"], seed=21)
    page = hosts_page(site, new_page, match)
    errors = watch_errors(page)
    page.wait_for_selector("#my-hand .dudab-card")
    moves = {"done": 0, "lit": 0}

    def step():
        choices = page.locator("#dudab-choices button:not([disabled])")
        requests = page.locator("#dudab-choices .request-choice")
        prompt = page.locator(".dock-prompt").inner_text()
        if prompt.startswith("Tap "):  # cards to give up: tap them, then confirm
            for n in range(int(prompt.split()[1])):
                page.locator("#my-hand button.dudab-card").nth(n).click()
            page.locator("#dudab-choices button:not([disabled])").first.click()
            moves["done"] += 1
            return
        if requests.count():
            requests.first.click()
            moves["done"] += 1
            return
        playable = page.locator("#my-hand button:not([disabled])")
        if playable.count() and not page.locator(".dudab-column.droppable").count():
            dudabs = page.locator("#my-hand button[data-card^='dudab-']:not([disabled])")
            (dudabs if dudabs.count() else playable).first.click()  # a Dudab when there is one: its request shows
            return
        if page.locator(".dudab-column.droppable").count():
            moves["lit"] += 1
            page.locator(".dudab-column.droppable").first.click()
            if not page.locator("#dudab-choices .request-choice").count():
                moves["done"] += 1
        elif choices.count():
            choices.first.click()
            moves["done"] += 1

    until(page, lambda: moves["done"] >= 6 and moves["lit"] >= 1, step, limit_ms=45_000)
    move_answered(page)
    labels = page.locator(".dudab-card").evaluate_all(SPOKEN_NAMES)
    assert labels and all(DUDAB_NAME.match(label) for label in labels), labels
    assert page.locator(".dudab-card svg").count() == len(labels), "every card is a picture"
    assert page.locator(".dudab-scores tbody tr").count() == 2
    if page.locator(".dudab-column .column-request").count():
        assert "asks everyone for" in page.locator("#dudab-request").inner_text()
    playable = page.locator("#my-hand button:not([disabled])")
    if playable.count():
        playable.first.click()
    shoot(page, "dudab")
    assert_controls_in_reach(page, "#my-hand")
    text = history(page)
    assert re.search(r"alice (plays the (red|blue|yellow|green) \w+|draws)", text), text
    assert not re.search(r"[RBYG]-(hand|mammoth|club|hide)-\d|dudab-\d", text)
    assert not errors, errors


def test_the_sound_switch_is_remembered(site, new_page, alice):
    match = table_with_bots(alice, "dudo", ["heuristic"])
    page = hosts_page(site, new_page, match)
    page.click("#sound-no")  # asked once, in the switch's place (docs/table.md)
    toggle = page.locator("#sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "false"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "true"
    page.reload()
    assert page.locator("#sound-toggle").get_attribute("aria-pressed") == "true"


def finished_bot_match(host, game, bots, options):
    """The host resigns at once and the house bots play on to the end (set up in another thread,
    like table_with_bots)."""

    def play():
        match = lifecycle.create_match(game=game, players=1 + len(bots), host=host, options=options, seed=4)
        for name in bots:
            lifecycle.add_house_bot(match.pk, host, name)
        lifecycle.start_match(match.pk, host)
        lifecycle.leave_match(match.pk, host)
        return wakeups.play_out(match.pk).pk

    return in_thread(play)


@pytest.mark.parametrize(("game", "options", "picture"), [
    ("dudo", {"dice": 1}, ".die[data-face]"),
    ("doubt-it", {"max_plays": 20}, ".playing-card"),
])
def test_a_replay_draws_the_same_pictures_and_names(site, new_page, alice, game, options, picture):
    match_id = finished_bot_match(alice, game, ["heuristic", "random", "heuristic"], options)
    page = new_page()
    errors = watch_errors(page)
    log_in(page, site, "alice")  # seated (she resigned at once): the replay offers her own view
    page.goto(f"{site}/match/{match_id}/replay/")
    page.wait_for_selector("#history li")
    page.select_option("#replay-seat", index=1)
    page.click("[data-step=back]")
    expect(page.locator("#replay-step")).to_have_text(str(Match.objects.get(pk=match_id).seq - 1))
    assert page.locator(f"#game-area {picture}").count() > 0
    assert re.search(r"(HeuristicBot|RandomBot)\S* (bids|plays|doubts)", history(page))
    assert not errors, errors
