"""I Doubt It's table in chromium: the doubt window, counted down beside its question and closed in words."""

import re
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import lifecycle, wakeups
from games.matches.actions import submit_action
from tests.browser.conftest import in_thread, log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_doubt_window_run_out_reads_nobody_doubts_with_no_word_of_the_clock(site, strict, alice, bob, carol):
    """"Nobody doubts alice (no move in time: the computer's)" read as if the computer had answered for the others."""

    start = timezone.now()

    def someone_plays():
        match = lifecycle.start_seated_match(
            game="doubt-it", seats=[{"user": alice}, {"user": bob}, {"user": carol}], now=start, seed=8,
            options={"doubt_window_s": 15},
        )  # fmt: skip
        state = match.load_state()
        seat = match.engine.to_act(state)[0]
        return submit_action(match.pk, [alice, bob, carol][seat], match.engine.legal_actions(state, seat)[0], 0)

    match = in_thread(someone_plays)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#history li")
    assert in_thread(lambda: wakeups.wake_all_due(match.pk, now=timezone.now() + timedelta(seconds=16))) == 2
    closed = page.locator("#history li", has_text="Nobody doubts")
    expect(closed).to_have_count(1)
    expect(closed).not_to_contain_text("no move in time")


def test_a_doubt_window_counts_down_beside_its_question_not_as_a_clock(site, strict, alice, bob, carol):
    """A game without a clock showed the doubt window's seconds as a red "0:01" clock on each seat."""
    start = timezone.now()
    users = [alice, bob, carol]
    window = 60  # seconds: a loaded machine's page takes some of them to open

    def someone_plays():
        match = lifecycle.start_seated_match(
            game="doubt-it", seats=[{"user": user} for user in users], now=start, seed=8,
            options={"doubt_window_s": window},
        )  # fmt: skip
        state = match.load_state()
        seat = match.engine.to_act(state)[0]
        return submit_action(match.pk, users[seat], match.engine.legal_actions(state, seat)[0], 0), seat

    match, player = in_thread(someone_plays)
    doubter = users[(player + 1) % 3]
    page = strict.page()
    log_in(page, site, doubter.username)
    page.goto(f"{site}/match/{match.pk}/")
    waiting = page.locator("#doubt-waiting")
    expect(waiting).to_contain_text(re.compile(r"Waiting for .*\(\d:\d\d left\)"))
    minutes, seconds = re.search(r"\((\d):(\d\d) left\)", waiting.inner_text()).groups()
    since_the_play = (timezone.now() - start).total_seconds()  # at most: the play came after `start`
    assert window - since_the_play <= 60 * int(minutes) + int(seconds) <= window, "the window's time left"
    expect(page.locator("#doubt")).to_be_visible()
    for clock in page.locator("#seats [data-clock-seat]").all():
        expect(clock).to_have_text("")
    screenshot(page, "doubt-window-countdown")
