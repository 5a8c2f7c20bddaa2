"""A player who resigns, leaves, goes away or stops moving, as the table shows it in chromium: the
computer plays their seat and says so, their clock, the countdown to the forfeit, and the result."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import lifecycle, presence, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match
from tests.browser.conftest import house_bot, in_thread, log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_player_who_resigned_while_the_others_play_on_has_no_resign_button(site, strict, alice, settings):
    settings.HOUSE_BOT_THINK_MS = 1500  # the bots play on while the page is looked at
    match = in_thread(
        lambda: lifecycle.start_seated_match(
            game="dudo",
            now=timezone.now(),
            seats=[{"user": alice}, *(house_bot("random", copy) for copy in (1, 2))],
        )
    )
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#seats li")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Resign')")
    page.wait_for_selector("#seats li.forfeited")
    expect(page.locator("#history li.history-gone ~ li").first).to_be_visible()  # a bot moves: the table is drawn again
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING
    expect(page.locator("button:has-text('Resign')")).to_be_hidden()
    assert page.locator("#seats li.forfeited .seat-note").inner_text() == "resigned · the computer plays on"
    # Her page tells her, and the history says where it came among the moves (testers' findings).
    expect(page.locator("#my-seat-gone")).to_have_text(
        "You resigned: you have lost this game. The computer plays your seat so the others can finish; you may watch."
    )
    mark = page.locator("#history li.history-gone")
    expect(mark).to_have_text("alice resigned")
    played_after = page.locator("#history li.history-gone ~ li")
    expect(played_after.first).to_be_visible()  # a bot's move came after it, and it stayed in its place
    # Her seat's moves after it are the computer's, and say so; none before it does.
    by_the_computer = page.locator("#history li.history-gone ~ li", has_text="alice (computer)")
    expect(by_the_computer.first).to_be_visible(timeout=20000)
    assert page.locator("#history li:not(.history-gone ~ li)", has_text="(computer)").count() == 0
    screenshot(page, "flows-resigned-others-play-on")
    # Anyone else watching sees on the board that the computer plays her seat; she sees her own name.
    watcher = strict.page()
    watcher.goto(f"{site}/match/{match.pk}/")
    expect(watcher.locator("#game-area")).to_contain_text("alice (computer)")
    expect(page.locator("#game-area")).not_to_contain_text("(computer)")


def test_a_player_forfeited_elsewhere_loses_the_resign_button_without_a_reload(site, strict, alice, settings):
    settings.HOUSE_BOT_THINK_MS = 1500
    match = in_thread(
        lambda: lifecycle.start_seated_match(
            game="dudo",
            now=timezone.now(),
            seats=[{"user": alice}, house_bot("random"), house_bot("random", 2)],
        )
    )
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#seats li")
    expect(page.locator("button:has-text('Resign')")).to_be_visible()
    in_thread(lambda: lifecycle.leave_match(match.pk, alice))  # e.g. from another tab
    page.wait_for_selector("#seats li.forfeited")
    expect(page.locator("button:has-text('Resign')")).to_be_hidden()
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_a_ranked_game_resigned_before_a_move_says_why_it_is_not_rated(site, strict, alice, bob):
    """A ranked duel resigned at once ended with no rating change and no word of why."""
    match = in_thread(lambda: lifecycle.start_seated_match(
        game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=4, ranked=True,
    ))  # fmt: skip
    pages = {name: strict.page() for name in ("alice", "bob")}
    for name, page in pages.items():
        log_in(page, site, name)
        page.goto(f"{site}/match/{match.pk}/")
    page = pages["alice"]
    expect(page.locator(".seat[data-seat='1'] .dot")).to_have_attribute("data-presence", "connected")
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Resign')")
    expect(page.locator("#result")).to_contain_text("alice (resigned)")
    aborted = "Not rated: aborted: alice left before every player had made a move."
    expect(page.locator("#not-rated")).to_have_text(aborted)
    assert page.locator(".rating-up, .rating-down").count() == 0


def test_a_player_who_went_away_on_their_turn_keeps_their_clock_and_is_said_to_be_away(site, strict, alice, bob):
    """The clock of an away player counted down their time to come back (2:56 became 1:00, then
    1:58 when they came back), and nothing said so: now the clock keeps their own time and the
    note counts down to the computer's move for them."""

    def bob_to_act_and_gone():
        match = at_bobs_turn(alice, bob, clock="game", clock_initial_ms=300_000)
        presence.connected(match.pk, 1, "bobs-closed-tab", True)
        presence.connected(match.pk, 1, "bobs-closed-tab", False)
        return match

    match = in_thread(bob_to_act_and_gone)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    note = page.locator(".seat[data-seat='1'] .away-note")
    expect(note).to_have_text(re.compile(r"^away · the computer moves for them in (1:00|0:[0-5]\d)$"))
    expect(page.locator("[data-clock-seat='1']")).to_have_text(re.compile(r"^(5:00|4:[45]\d)$"))
    first = note.inner_text()
    expect(note).not_to_have_text(first)  # the note counts down
    note_box, name_box = note.bounding_box(), page.locator(".seat[data-seat='1'] .seat-name").bounding_box()
    assert note_box["y"] >= name_box["y"] + name_box["height"] - 1, "the note has a line of its own"
    assert note_box["height"] < 3 * name_box["height"], "and does not wrap down the column"
    screenshot(page, "away-note", full_page=False)
    expect(page.locator(".seat[data-seat='0'] .away-note")).to_have_count(0)


def test_a_move_the_clock_made_says_so_in_the_history(site, strict, alice, bob):
    """When an away player's time ran out the computer moved for them, and the history read as if
    they had played."""

    def alice_bids_and_bob_is_to_act():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3, clock="turn",
            clock_initial_ms=30_000,
        )  # fmt: skip
        assert match.engine.to_act(match.load_state()) == [0], "seed 3 has alice open"
        return submit_action(match.pk, alice, {"type": "bid", "quantity": 1, "face": 2}, match.seq)

    match = in_thread(alice_bids_and_bob_is_to_act)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    history = page.locator("#history li")
    expect(history.last).to_have_text("alice bids 1 two")
    in_thread(lambda: wakeups.wake(match.pk, now=timezone.now() + timedelta(seconds=31)))
    marked = page.locator("#history li", has_text="(no move in time: the computer's)")
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("bob ")
    expect(page.locator("#history li", has_text="alice bids 1 two")).not_to_contain_text("no move in time")

    def the_next_player_moves_themself():
        played = Match.objects.get(pk=match.pk)
        state = played.load_state()
        seat = played.engine.to_act(state)[0]
        submit_action(match.pk, [alice, bob][seat], played.engine.legal_actions(state, seat)[0], played.seq)

    entries = history.count()
    in_thread(the_next_player_moves_themself)
    expect(history).not_to_have_count(entries)
    page.reload()  # the whole history comes back with the clock's move still marked, and only it
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("bob ")


def test_a_tab_left_open_without_a_move_is_said_to_forfeit_and_then_does(site, strict, alice, bob):
    """bob's tab stays open and he never moves: the clock has moved for him twice, so his seat says
    his next timeout counts him out, and at that timeout alice wins (an open tab used to win games
    on the clock's moves)."""

    def bob_idle_and_played_for_twice():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3, clock="turn",
            clock_initial_ms=60_000,
        )  # fmt: skip
        presence.connected(match.pk, 1, "bobs-open-tab", True)
        return bob_played_for_twice(match, alice)

    match = in_thread(bob_idle_and_played_for_twice)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator(".seat[data-seat='1'] .idle-note")).to_have_text(
        "no move of their own lately · forfeits when this clock runs out"
    )
    expect(page.locator(".seat[data-seat='0'] .idle-note")).to_have_count(0)
    screenshot(page, "idle-note", full_page=False)
    in_thread(lambda: wakeups.wake(match.pk, now=Match.objects.get(pk=match.pk).wake_at))
    expect(page.locator("#result")).to_contain_text("bob (timed out)")  # he never left: his tab was open
    expect(page.locator("#history")).to_contain_text("bob was counted out: their clock ran out 3 times in a row")
    assert Match.objects.get(pk=match.pk).result["ranking"] == [[0], [1]]


def test_a_player_who_left_is_said_to_forfeit_and_then_does(site, strict, alice, bob):
    """A player who closed the tab was played for by the computer a minute a turn to the end of
    the game. Now, once they have been gone past the grace and the computer has moved for them
    twice, their seat counts down to the forfeit, and at that timeout the other player wins."""

    def bob_left_and_was_played_for_twice():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3
        )
        presence.connected(match.pk, 1, "bobs-closed-tab", True)
        presence.connected(match.pk, 1, "bobs-closed-tab", False)
        return bob_played_for_twice(match, alice)

    match = in_thread(bob_left_and_was_played_for_twice)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator(".seat[data-seat='1'] .away-note")).to_have_text(re.compile(r"^away · forfeits in \d+:\d\d$"))
    screenshot(page, "leaving-note", full_page=False)
    in_thread(lambda: wakeups.wake(match.pk, now=Match.objects.get(pk=match.pk).wake_at))
    expect(page.locator("#result")).to_contain_text("bob (left)")
    assert Match.objects.get(pk=match.pk).result["ranking"] == [[0], [1]]
    # The board says why the game ended (not its last round), and bob is no longer shown present.
    expect(page.locator("#game-area")).to_contain_text("The game is over: bob left.")
    expect(page.locator("#game-area")).not_to_contain_text("Last round")
    dot = page.locator(".seat[data-seat='1'] .dot")
    expect(dot).to_have_attribute("data-presence", "out of the game")
    expect(dot).to_have_attribute("title", "out of the game")


def bob_played_for_twice(match, alice):
    """Alice bids on her turns and the clock plays bob's, until it has played two of them."""

    while True:
        match = Match.objects.get(pk=match.pk)
        state = match.load_state()
        if match.engine.to_act(state) == [0]:
            bid = next(a for a in match.engine.legal_actions(state, 0) if a["type"] == "bid")
            submit_action(match.pk, alice, bid, match.seq, now=match.turn_started_at + timedelta(seconds=1))
        elif match.actions.filter(seat=1).count() == 2:
            return match
        else:
            wakeups.wake(match.pk, now=match.wake_at)


@pytest.mark.parametrize("game", ["dubito", "dudab"])
def test_a_player_who_resigned_sees_their_hand_with_nothing_left_to_press(site, strict, alice, settings, game):
    """A tester resigned and the cards of their hand stayed buttons: the table seemed to offer moves."""
    settings.HOUSE_BOT_THINK_MS = 1500  # the bots play on while the page is looked at
    match = in_thread(
        lambda: lifecycle.start_seated_match(
            game=game, now=timezone.now(), seats=[{"user": alice}, *(house_bot("random", copy) for copy in (1, 2))]
        )
    )
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator("#my-hand button").first).to_be_attached()  # in play, the hand is buttons
    page.on("dialog", lambda dialog: dialog.accept())
    page.click("button:has-text('Resign')")
    expect(page.locator("#my-seat-gone")).to_contain_text("You resigned")
    expect(page.locator("#my-hand button")).to_have_count(0)
    assert page.locator("#my-hand > *").count() > 0, "her hand is still shown, as pictures"
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING, "the others play on"


def test_the_other_player_sees_a_player_come_go_away_and_come_back(site, strict, alice, bob):
    """Who is at the table reaches the other page as it changes (a `seats` message, not a whole
    state): bob's page opening shows him connected at alice's, its closing shows him away with the
    computer's move for him counting down on his turn, and his coming back shows him connected."""
    match = in_thread(lambda: at_bobs_turn(alice, bob))
    assert match.engine.to_act(match.load_state()) == [1]
    alices = strict.page()
    log_in(alices, site, "alice")
    alices.goto(f"{site}/match/{match.pk}/")
    bobs_dot = alices.locator(".seat[data-seat='1'] .dot")
    expect(bobs_dot).to_have_attribute("data-presence", "away")
    for _ in range(2):
        bobs = strict.page()
        log_in(bobs, site, "bob")
        bobs.goto(f"{site}/match/{match.pk}/")
        expect(bobs_dot).to_have_attribute("data-presence", "connected")
        expect(alices.locator(".seat[data-seat='1'] .away-note")).to_have_count(0)
        bobs.close()
        expect(bobs_dot).to_have_attribute("data-presence", "away")
        expect(alices.locator(".seat[data-seat='1'] .away-note")).to_have_text(
            re.compile(r"^away · the computer moves for them in \d+:\d\d$")
        )


def at_bobs_turn(alice, bob, **options):
    """A Dudo match of alice and bob (seed 3) at bob's turn: alice bids first if she starts."""
    match = lifecycle.start_seated_match(
        game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3, **options
    )
    if match.engine.to_act(match.load_state()) == [0]:
        match = submit_action(match.pk, alice, {"type": "bid", "quantity": 1, "face": 2}, match.seq)
    return match
