"""A long game at the table: the server keeps only the history's tail in its snapshot, and the
player still sees the whole history on opening the page and every move after it."""

import random

import pytest

from games.engine import KEPT_HISTORY
from games.matches import lifecycle
from games.matches.actions import submit_action
from games.matches.models import Match
from tests.browser.conftest import in_thread, log_in, screenshot, table_at

pytestmark = pytest.mark.browser


def play_until(match_id: int, users: dict, done) -> Match:
    """Random legal moves by whoever may act, through the match service, until done(match)."""
    rng = random.Random(match_id)
    match = Match.objects.get(pk=match_id)
    while not done(match):
        state = match.load_state()
        seat = rng.choice(match.engine.to_act(state))
        match = submit_action(match_id, users[seat], rng.choice(match.engine.legal_actions(state, seat)), match.seq)
    return match


def test_a_long_game_shows_its_whole_history_and_every_new_move(site, strict, alice, bob, make_user):
    users = {0: alice, 1: bob, 2: make_user("carol")}
    match = in_thread(
        lambda: lifecycle.start_seated_match(
            game="doubt-it",
            seats=[{"user": user} for user in users.values()],
            now=None,
            seed=3,
            options={"max_plays": 5000, "doubt_window_s": 0},
        )
    )
    match = in_thread(lambda: play_until(match.pk, users, lambda m: m.history_length > 2 * KEPT_HISTORY))
    assert len(match.state["history"]) == KEPT_HISTORY  # the snapshot holds the tail only
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    entries = page.locator("#history li:not(.history-earlier)")
    entries.first.wait_for()
    shown = min(60, match.history_length)  # the table lists the latest 60 entries
    assert entries.count() == shown
    earlier = match.history_length - shown
    note = f"{earlier} earlier entries not shown: the replay will have every move."
    assert page.locator("#history li.history-earlier").inner_text() == note
    first_shown = entries.first.inner_text()

    last = entries.last.inner_text()
    before = match.seq
    played = in_thread(lambda: play_until(match.pk, users, lambda m: m.seq >= before + 3))
    newest = "last => [...document.querySelectorAll('#history li')].pop().textContent !== last"
    page.wait_for_function(newest, arg=last)
    table_at(page, played.seq)  # the last of the three pushes
    live = entries.all_inner_texts()
    assert len(live) == 60 and live[0] != first_shown  # the list moved on with the moves

    page.reload()  # the whole history again, read back from the log
    entries.first.wait_for()
    assert entries.all_inner_texts() == live
    screenshot(page, "screenshots/long-game")
