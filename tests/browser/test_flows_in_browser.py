"""Issue 12's guard: what a newcomer does, from the lobby's own forms, on pages that may not
log a single console error, fail a single request or make the server log an error.

Each game is played to its end against the computer (short tables: one die, twenty plays, a
short mini-game); two browsers meet through the quick pairing; the replay is watched by each seat.
"""

import logging
import re
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect

from games.engine import GAMES
from games.matches.models import Match
from tests.browser.conftest import log_in, move_answered, moves_sent, next_change, screenshot, settled, table_at

pytestmark = pytest.mark.browser


def play_the_computer(page, site, game: str, bot: str, players: int, options: dict) -> int:
    """Fill the lobby's "Play the computer" form; the match id of the table it opens."""
    page.goto(f"{site}/play/{game}/")
    page.select_option("#computer_bot", bot)
    page.fill("#computer_players", str(players))
    if options:
        page.click("#play-computer summary")
    for name, value in options.items():
        field = page.locator(f"#computer_opt_{name}")
        if field.evaluate("el => el.tagName") == "SELECT":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    page.click("#play-computer button[type=submit]")
    page.wait_for_url("**/match/*/")
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def play_to_the_end(page, step, limit_seconds=240) -> None:
    """Call step() until the result shows; step does one move of the human's, if any is due. A
    whole Dudab game against the computer takes 40 s on the real stack, and over 150 s when
    the two CI passes share the machine. The limit stays under the test's own timeout (300 s),
    so that a game that does not end says what its table shows."""
    deadline = time.monotonic() + limit_seconds
    while not page.locator("#result").is_visible():
        if time.monotonic() >= deadline:
            screenshot(page, "flows-did-not-end")
            table = page.locator("#game-area").inner_text().replace("\n", " | ")[:400]
            moves = page.locator("#history li").all_inner_texts()[-5:]
            raise AssertionError(f"the match did not end in time; the table: {table}; last moves: {moves}")
        try:
            step(page)
        except PlaywrightTimeout:
            pass  # the table was redrawn under the click: look again
        next_change(page)


def dudo_step(page):
    if page.locator("#dudo-doubt").is_visible():
        page.keyboard.press("d")
    elif page.locator("#dudo-bid").is_visible():
        page.keyboard.press("b")


def doubt_it_step(page):
    if page.locator("#pass").is_visible():
        page.keyboard.press("p")
    elif page.locator("#play-cards").is_visible():
        # A card picked in an earlier step stays picked through redraws: clicking it again would
        # put it back, and a step cut short in between would alternate forever.
        if not page.locator("#my-hand button[aria-pressed=true]").count():
            # Every card of the claimed rank when alice has some: bluffing every time, she would take
            # every pile the computer doubts and the game would not end in time.
            ranks = page.locator("#play-cards").inner_text().split(" as ")[-1]  # "fives", "sixes"
            rank = ranks[:-2] if ranks.endswith("xes") else ranks[:-1]
            honest = page.locator(f"#my-hand button[title^='{rank} of']").all()
            for card in honest or [page.locator("#my-hand button").first]:
                click_card(card)
        page.click("#play-cards", timeout=2000)


def click_card(card) -> None:
    """Where a person clicks a card in a fanned hand: its uncovered left edge. A big hand overlaps
    its cards, and the middle of one is under the next (25 cards: the click never landed)."""
    card.click(position={"x": 6, "y": 20}, timeout=2000)


def dubito_step(page):
    playable = page.locator("#my-hand button:not([disabled])")
    if playable.count():
        playable.first.click(timeout=2000)
        page.locator(".dubito-row.droppable").first.click(timeout=2000)


def dobble_step(page):
    # Both cards read in one go: a redraw between two reads would pair an old card with a new one.
    symbol = page.evaluate("""() => {
        const cards = document.querySelectorAll(".dobble-card");
        if (cards.length < 2) return null;
        const ids = (card) => [...card.querySelectorAll("[data-symbol]")].map((e) => e.dataset.symbol);
        const mine = ids(cards[0]);
        return ids(cards[1]).find((id) => mine.includes(id)) || null;
    }""")
    if symbol is not None:
        button = page.locator(".dobble-card").nth(1).locator(f"[data-symbol='{symbol}']")
        if button.is_enabled():
            button.click(timeout=1000)


def dudab_step(page):
    prompt = page.locator(".dock-prompt").all_inner_texts()  # read once: the table may be redrawn meanwhile
    if prompt and prompt[0].startswith("Tap "):  # cards to give up: tap them, then confirm
        for n in range(int(prompt[0].split()[1])):
            click_card(page.locator("#my-hand button.dudab-card").nth(n))
        page.locator("#dudab-choices button:not([disabled])").first.click(timeout=2000)
        return
    playable = page.locator("#my-hand button:not([disabled])")
    if playable.count() and not page.locator("#dudab-choices [data-action=play]").count():
        playable.first.click(timeout=2000)
    choices = page.locator("#dudab-choices button")
    if choices.count():
        choices.first.click(timeout=2000)


PLAYS = {
    "dudo": ("heuristic", 2, {"dice": 1}, dudo_step),
    "doubt-it": ("heuristic", 3, {"max_plays": 20}, doubt_it_step),
    "dubito": ("heuristic", 2, {"empty_pile": "stop"}, dubito_step),
    "dobble": ("easy", 2, {"mini_game": "hot-potato", "hot_potato_rounds": 5}, dobble_step),
    "dudab": ("heuristic", 2, {}, dudab_step),
}


@pytest.mark.parametrize("game", sorted(PLAYS))
def test_a_newcomer_plays_the_computer_from_the_lobby_to_the_end(site, strict, alice, game):
    bot, players, options, step = PLAYS[game]
    page = strict.page()
    log_in(page, site, "alice")
    match_id = play_the_computer(page, site, game, bot, players, options)
    page.wait_for_selector("#seats li")
    play_to_the_end(page, step)
    screenshot(page, f"flows-{game}-result")
    expect(page.locator("#result")).not_to_contain_text("null")  # a note with nothing to say wrote "null"
    match = Match.objects.get(pk=match_id)
    assert match.status == Match.Status.FINISHED and match.options == {**match.options, **options}
    assert not page.locator("[data-while-running]").is_visible()  # Resign is gone with the game
    watch_the_replay(page, site, match)


def watch_the_replay(page, site, match) -> None:
    """As the table, then with the player's own hand; the bots' seats are never offered."""
    page.goto(f"{site}/match/{match.pk}/replay/")
    bot_name = match.seats.get(number=1).user.username
    page.wait_for_selector("#history li")
    assert bot_name in page.locator("#history").inner_text()  # seats named by player, not by number
    assert page.locator("#replay-seat option").count() == 2
    steps = int(page.locator("#replay").get_attribute("data-steps"))
    shown = page.locator("#replay-step")
    for seat in ["", "0"]:
        page.select_option("#replay-seat", seat)
        for step, then in [("first", 0), ("next", 1), ("next", 2), ("last", steps)]:
            button = page.locator(f"[data-step={step}]")
            if button.is_enabled():  # First and Back are disabled at the first move, Next and Last at the last
                button.click()
                expect(shown).to_have_text(str(min(then, steps)))
        assert page.locator("#game-area").inner_text().strip()
        expect(page.locator("[data-step=next]")).to_be_disabled()
        page.click("[data-step=first]")
        expect(page.locator("[data-step=back]")).to_be_disabled()
        expect(shown).to_have_text("0")
        assert "your turn" not in page.locator("#game-area").inner_text().lower()  # a replay prompts nobody
    screenshot(page, f"flows-{match.game}-replay")


@pytest.mark.both_stacks
def test_two_browsers_pair_resign_replay_each_seat_and_rematch(site, strict, alice, bob):
    alice_page, bob_page = strict.page(), strict.page()
    log_in(alice_page, site, "alice")
    log_in(bob_page, site, "bob")
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.select_option("#pairing_time_control", "3+2")
    alice_page.click("#quick-pairing button[type=submit]")
    alice_page.wait_for_selector("#queue-waiting")
    bob_page.goto(f"{site}/play/dudo/")
    bob_page.select_option("#pairing_time_control", "3+2")
    bob_page.click("#quick-pairing button[type=submit]")
    bob_page.wait_for_url("**/match/*/")
    alice_page.wait_for_url(bob_page.url)
    match = Match.objects.get()
    assert match.ranked and match.status == Match.Status.RUNNING and match.clock_label == "3+2"
    for page in (alice_page, bob_page):
        page.wait_for_selector("#seats li")
        assert "3+2" in page.locator(".table-head").inner_text()
    screenshot(alice_page, "flows-pairing-alice")

    for _ in range(4):  # a few bids, then alice resigns
        for page in (alice_page, bob_page):
            table_at(page, Match.objects.get(pk=match.pk).seq)  # the page knows whose turn it is
            dudo_step(page)
            move_answered(page)
    alice_page.on("dialog", lambda dialog: dialog.accept())
    with alice_page.expect_response(lambda response: response.url.endswith("/leave/")):  # answered before she leaves
        alice_page.click("button:has-text('Resign')")  # the table shows it as its socket hears of it
    for page in (alice_page, bob_page):
        page.wait_for_selector("#result:not([hidden])")
        assert not page.locator("button:has-text('Resign')").is_visible()
        assert "alice (resigned)" in page.locator("#result").inner_text()
        expect(page.locator("#history li").last).to_have_text("alice resigned")
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    for page, seat in ((alice_page, match.seats.get(user=alice).number), (bob_page, match.seats.get(user=bob).number)):
        page.goto(f"{site}/match/{match.pk}/replay/")
        page.select_option("#replay-seat", str(seat))
        # The last move's history ends with the resignation, which no move of the game says.
        expect(page.locator("#history li").last).to_have_text("alice resigned")
        page.click("#history-title")  # away from the "Seen by" list, which keeps its own arrow keys
        page.keyboard.press("Home")
        expect(page.locator("#replay-step")).to_have_text("0")
        page.keyboard.press("End")
        expect(page.locator("#replay-step")).to_have_text(str(match.seq))
        page.click("[data-step=first]")
        expect(page.locator("#replay-step")).to_have_text("0")
        expect(page.locator("#history .history-gone")).to_have_count(0)
        assert page.locator("#game-area").inner_text().strip()
        screenshot(page, f"flows-pairing-replay-seat-{seat}")
        page.goto(f"{site}/match/{match.pk}/")

    bob_page.click("a.me")  # his profile lists the game, and opens its replay
    row = bob_page.locator(".profile-games tbody tr").first
    expect(row).to_contain_text("Dudo · ranked")
    expect(row.locator("td").nth(2)).to_have_text("alice")
    expect(row.locator("td").nth(3)).to_have_text(re.compile(r"^Won \(alice resigned\) · \+20 → 1520\s*$"))
    screenshot(bob_page, "flows-profile-games")
    row.locator("text=Replay").click()
    bob_page.wait_for_url(f"**/match/{match.pk}/replay/")
    expect(bob_page.locator("#history li").last).to_have_text("alice resigned")
    bob_page.goto(f"{site}/match/{match.pk}/")

    alice_page.click("#rematch")
    bob_page.wait_for_selector("text=alice asked for a rematch.")
    for page in (alice_page, bob_page):  # the offer is drawn from the server: it survives a reload
        page.reload()
        expect(page.locator("#rematch-status")).to_have_text("alice asked for a rematch.")
    expect(alice_page.locator("#rematch")).to_be_disabled()
    expect(bob_page.locator("#rematch")).to_have_text("Accept the rematch")
    bob_page.click("#rematch")
    bob_page.wait_for_url(lambda url: f"/match/{match.pk}/" not in url)
    alice_page.wait_for_url(bob_page.url)
    again = Match.objects.exclude(pk=match.pk).get()
    assert again.status == Match.Status.RUNNING and again.clock_label == "3+2"


def test_the_guard_sees_console_errors_failed_requests_and_server_errors(site, strict):
    page = strict.page()
    page.goto(f"{site}/play/dudo/")
    page.evaluate("console.error('boom')")
    page.goto(f"{site}/match/999999/")
    page.wait_for_load_state("networkidle")  # and the browser's own requests after it (the icon)
    logging.getLogger("dubium.test").error("a server error")
    seen = "\n".join(strict.problems + strict.server_log.problems)
    assert "console: boom" in seen and "HTTP 404" in seen and "a server error" in seen
    strict.problems.clear()  # what this test provoked on purpose
    strict.server_log.problems.clear()


def test_a_challenge_by_name_reaches_the_other_lobby_and_both_land_on_the_table(site, strict, alice, bob):
    alice_page, bob_page = strict.page(), strict.page()
    log_in(alice_page, site, "alice")
    log_in(bob_page, site, "bob")
    bob_page.goto(f"{site}/play/dudo/")
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.select_option("#challenge_time_control", "none")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("text=Challenge sent to bob")
    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dudo (casual, no clock)")
    screenshot(bob_page, "flows-challenge-received")
    bob_page.click("#challenges button[value=accept]")
    bob_page.wait_for_url("**/match/*/")
    alice_page.wait_for_url(bob_page.url)
    match = Match.objects.get()
    assert match.status == Match.Status.RUNNING and not match.ranked


def other_value(option):
    """A value of the option that is not its default, as the page's field takes it."""
    if option.choices:
        return next(choice for choice in reversed(option.choices) if choice != option.default)
    if isinstance(option.default, bool):
        return not option.default
    return option.maximum if option.default != option.maximum else option.minimum


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_option_of_every_game_goes_through_the_new_table_form(site, strict, alice, game):
    engine = GAMES[game]
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/play/{game}/")
    page.fill("#table_players", str(engine.max_players))
    chosen = {}
    for name, option in engine.options.items():
        if not option.players_choose:
            continue
        value, field = other_value(option), page.locator(f"#table_opt_{name}")
        if option.choices:
            field.select_option(str(value))
        elif isinstance(option.default, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
        chosen[name] = value
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/match/*/")
    match = Match.objects.get(host=alice)
    assert {name: match.options[name] for name in chosen} == chosen and match.players == engine.max_players


def test_the_bid_key_bids_from_the_dice_count_list_and_types_in_the_chat(site, strict, alice):
    """A tester tabbed into Dudo's dice count list and pressed B: nothing happened (every list
    swallowed the game's keys). A list of numbers has no use for a letter; the chat has."""
    page = strict.page()
    log_in(page, site, "alice")
    play_the_computer(page, site, "dudo", "heuristic", 2, {})
    page.wait_for_selector("#dudo-bid", timeout=30_000)
    moves = page.locator("#history li").count()
    page.fill("#chat-input", "")
    page.focus("#chat-input")
    sent = moves_sent(page)
    page.keyboard.press("b")
    assert page.input_value("#chat-input") == "b"
    settled(page)  # what the key set off has run
    assert moves_sent(page) == sent and page.locator("#history li").count() == moves, "no bid from the chat"
    page.focus("#dudo-quantity")
    page.keyboard.press("b")
    expect(page.locator("#history li")).not_to_have_count(moves)  # her turn: only her bid adds one
