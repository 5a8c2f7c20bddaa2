"""What outside testers met on a fresh `make run` (issue 12), each walked again in chromium under
the strict guard: no console error, failed request or server error while it runs."""

import re
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import GAMES
from games.matches import lifecycle, presence, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match, MatchAction, Seat
from games.registry import get_bot
from games.simulate import play
from ratings.bluffs import record_bluffs
from tests.browser.conftest import log_in, screenshot
from tournaments.models import Tournament

pytestmark = pytest.mark.browser


def house_bot(name: str, copy: int = 1) -> dict:
    return {"user": lifecycle.house_bot_user(name, copy), "house_bot": name}


def in_another_thread(work):
    """Service calls that broadcast must not run on the test's thread (Playwright's event loop)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


@pytest.mark.parametrize("game", sorted(GAMES))
def test_each_new_table_form_asks_once_for_each_thing_and_starts_casual(site, strict, alice, game):
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/play/{game}/")
    form = page.locator("#new-table")
    labels = [label.strip() for label in form.locator("label").all_inner_texts()]
    assert len(labels) == len(set(labels)), labels
    assert form.locator("input[type=checkbox][name=ranked]").count() == 0
    assert labels.count("Kind of game") == 1 and form.locator("#table_kind").input_value() == "casual"
    clocks = form.locator("#table_time_control").count()
    assert clocks == (0 if GAMES[game].realtime else 1)  # Dobble is real-time: no clock to pick
    page.click("#new-table button[type=submit]")
    page.wait_for_url("**/match/*/")
    assert "casual" in page.locator(".table-head").inner_text()
    assert not Match.objects.get(host=alice).ranked


@pytest.mark.parametrize("game", ["dobble", "dudo"])
def test_playing_the_computer_is_casual_and_the_lobby_says_so(site, strict, alice, game):
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/play/{game}/")
    form = page.locator("#play-computer")
    assert "Ranked" not in form.inner_text() and "Kind of game" not in form.inner_text()
    assert "Games against the computer are casual" in form.inner_text()
    page.click("#play-computer button[type=submit]")
    page.wait_for_url("**/match/*/")
    page.wait_for_selector("#seats li")
    assert "casual" in page.locator(".table-head").inner_text()
    assert not Match.objects.get(host=alice).ranked


def test_only_formats_a_game_can_be_played_in_are_offered_and_others_are_refused_in_words(site, strict, make_user):
    make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    offered = {}
    for game in GAMES:
        page.goto(f"{site}/organize/new/{game}/")
        offered[game] = page.locator("select[name=format] option").evaluate_all("options => options.map(o => o.value)")
    assert "round-robin" not in offered["doubt-it"] and "round-robin" in offered["dudo"]
    assert all("swiss" in formats for formats in offered.values())

    page.goto(f"{site}/organize/new/doubt-it/")  # a form posted with the format it does not offer
    page.fill("input[name=name]", "Three a side")
    page.evaluate("""() => {
        const select = document.querySelector("select[name=format]");
        select.add(new Option("Round robin", "round-robin"));
        select.value = "round-robin";
    }""")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_selector(".errorlist")
    errors = page.locator(".errorlist").inner_text()
    assert "I Doubt It is not played in that format: choose Swiss rounds or Knockout." in errors
    assert "round-robin" not in errors
    assert not Tournament.objects.exists()


def test_a_challenge_reaches_the_player_on_any_page_and_is_answered_from_the_header(site, strict, alice, bob, carol):
    alice_page, bob_page = strict.page(), strict.page()
    log_in(alice_page, site, "alice")
    log_in(bob_page, site, "bob")
    bob_page.goto(f"{site}/leaderboards/")  # neither game's lobby
    assert bob_page.locator("#challenges").count() == 0
    alice_page.goto(f"{site}/play/dobble/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("text=Challenge sent to bob")
    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dobble (casual)")  # at once
    alice_page.goto(f"{site}/play/dudo/")
    alice_page.fill("#challenge_username", "bob")
    alice_page.select_option("#challenge_time_control", "5+5")
    alice_page.click("#challenge button[type=submit]")
    alice_page.wait_for_selector("text=Challenge sent to bob")

    bob_page.wait_for_selector("#challenges >> text=alice challenges you to Dudo (ranked, 5+5)")
    notice = bob_page.locator("#challenges")
    assert "alice challenges you to Dobble (casual)" in notice.inner_text()
    assert "alice challenges you to Dudo (ranked, 5+5)" in notice.inner_text()
    screenshot(bob_page, "flows-challenge-in-header")
    notice.locator("li", has_text="Dobble").locator("button[value=decline]").click()
    bob_page.wait_for_url(f"{site}/leaderboards/")  # declining keeps the player where they were
    alice_page.wait_for_selector(".messages >> text=bob declined your Dobble challenge.")  # told at once
    assert "Dobble" not in bob_page.locator("#challenges").inner_text()
    bob_page.click("#challenges button[value=accept]")
    bob_page.wait_for_url("**/match/*/")
    match = Match.objects.get()
    assert (match.game, match.ranked, match.clock_label) == ("dudo", True, "5+5")
    assert bob_page.locator("#challenges").count() == 0


def test_the_lobby_sends_a_player_only_to_a_match_the_queue_paired_them_into(site, strict, alice):
    def a_game_against_a_house_bot_without_host():  # what a bot's own match or a challenge starts
        return lifecycle.start_seated_match(
            game="dudo",
            seats=[{"user": alice}, house_bot("random")],
            now=timezone.now(),
        )

    match = in_another_thread(a_game_against_a_house_bot_without_host)
    assert match.host is None and match.status == Match.Status.RUNNING
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/play/dudo/")
    page.wait_for_timeout(2000)  # the socket is open and has said what it had to say
    assert page.url == f"{site}/play/dudo/"


def test_bluff_figures_leave_out_the_moves_the_clock_made(site, strict, alice):
    """Alice never moved: every move of her seat was her clock running out."""
    playout = play(GAMES["dudo"], [get_bot("dudo", "heuristic"), get_bot("dudo", "heuristic")], 5)
    match = Match.objects.create(game="dudo", players=2, seed=5, status=Match.Status.FINISHED, seq=len(playout.log))
    Seat.objects.create(match=match, number=0, user=alice)
    Seat.objects.create(match=match, number=1, user=lifecycle.house_bot_user("heuristic"), house_bot="heuristic")
    sources = {0: MatchAction.Source.TIMEOUT, 1: MatchAction.Source.HOUSE}
    MatchAction.objects.bulk_create(
        MatchAction(match=match, seq=seq, seat=seat, action=action, source=sources[seat])
        for seq, (seat, action) in enumerate(playout.log)
    )
    assert any(event["type"] == "doubt" and event["seat"] == 0 for event in playout.state.history)
    record_bluffs(match.pk)
    page = strict.page()
    page.goto(f"{site}/accounts/u/alice/")
    row = page.locator(".bluff-table tbody tr", has_text="Dudo")
    assert row.inner_text().split("\t")[2:] == ["–", "–", "–", "–"]  # nothing of hers to judge
    page.goto(f"{site}/accounts/u/HeuristicBot/")
    assert "chances" in page.locator(".bluff-table").inner_text()  # the bot's own moves count
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the table scrolls in its box, not the page"
    box = page.locator(".profile-bluffs .scroll")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), "nor in its box: a hidden last column went unseen"
    named = page.locator(".bluff-table tbody tr", has_text="Dudo").locator("td").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert named == ['"Matches: "', '"Bluffed: "', '"Bluffs caught: "', '"Doubted: "', '"Doubts right: "'], named


def test_the_replay_controls_show_in_chromiums_own_fonts(site, strict, alice):
    match = in_another_thread(
        lambda: lifecycle.start_seated_match(
            game="dudo",
            options={"dice": 1},
            now=timezone.now(),
            seats=[house_bot("random"), house_bot("heuristic")],
        )
    )
    deadline = time.monotonic() + 60
    while Match.objects.get(pk=match.pk).status != Match.Status.FINISHED:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.2)
    page = strict.page()
    page.goto(f"{site}/match/{match.pk}/replay/")
    page.wait_for_selector("#history li")
    # A character the fonts lack is drawn as the font's empty box: compare each with one nobody has.
    missing = page.evaluate("""() => {
        const canvas = document.createElement("canvas");
        canvas.width = canvas.height = 40;
        const pen = canvas.getContext("2d");
        const font = getComputedStyle(document.querySelector("[data-step]")).font;
        const draw = (text) => {
            pen.clearRect(0, 0, 40, 40); pen.font = font; pen.fillText(text, 4, 30);
            return pen.getImageData(0, 0, 40, 40).data.join();
        };
        const box = draw("\\u{10FFFD}");
        const text = [...document.querySelectorAll(".controls button")].map((b) => b.textContent).join("");
        return [...text.replace(/\\s/g, "")].filter((c) => draw(c) === box);
    }""")
    assert missing == []
    for step in ("first", "back", "next", "last"):
        button = page.locator(f"[data-step={step}]")
        box = button.locator("svg").bounding_box()
        assert button.get_attribute("aria-label") and box and box["width"] >= 12
    page.click("[data-step=first]")
    expect(page.locator("#replay-step")).to_have_text("0")
    page.click("[data-step=last]")
    expect(page.locator("#replay-step")).to_have_text(str(Match.objects.get(pk=match.pk).seq))


def test_a_player_who_resigned_while_the_others_play_on_has_no_resign_button(site, strict, alice, settings):
    settings.HOUSE_BOT_THINK_MS = 1500  # the bots play on while the page is looked at
    match = in_another_thread(
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
    page.wait_for_timeout(2000)  # a bot moves and the table is drawn again
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


def test_a_tournament_started_now_says_when_it_started_and_which_round_runs(site, strict, make_user):
    olga = make_user("olga", role="organizer")
    page = strict.page()
    log_in(page, site, "olga")
    planned = timezone.now() + timedelta(days=2)
    cup = Tournament.objects.create(
        name="Early Cup", game="dudo", organizer=olga, starts_at=planned, rounds=3, turn_seconds=0
    )
    page.goto(f"{site}/organize/{cup.pk}/")
    assert "starts " in page.locator("#tournament-when").inner_text()
    page.fill("input[name=bots_heuristic]", "2")
    page.click("#add-house-bots button")
    page.wait_for_selector("text=2 house bots entered.")
    page.click("text=Start now")
    page.click("#confirm-form button[type=submit]")
    page.wait_for_selector("text=Started: round 1 is being seated.")
    for url in (f"{site}/organize/{cup.pk}/", f"{site}/tournaments/{cup.pk}/"):
        page.goto(url)
        when = page.locator("#tournament-when").inner_text()
        assert "starts" not in when and planned.strftime("%-d %b") not in when
        assert "round 1 of 3 under way" in when or when.startswith("played "), when


def test_the_replay_names_a_seat_the_computers_only_after_the_step_its_player_left_after(site, strict, alice):
    """The replay read "alice (computer) doubts ..." on the step of alice's own doubt, made just before she resigned."""
    def play_then_resign():
        match = lifecycle.start_seated_match(
            game="doubt-it", now=timezone.now(), seed=3,
            seats=[{"user": alice}, *(house_bot("random", copy) for copy in (1, 2))],
        )  # fmt: skip
        while 0 not in match.engine.to_act(match.load_state()):
            wakeups.wake(match.pk, now=match.wake_at)
            match.refresh_from_db()
        state = match.load_state()
        submit_action(match.pk, alice, match.engine.legal_actions(state, 0)[0], match.seq)
        lifecycle.leave_match(match.pk, alice)
        match = wakeups.play_out(match.pk)
        return match, list(match.actions.order_by("seq").values_list("seat", "source"))

    match, log = in_another_thread(play_then_resign)
    hers = max(step for step, (seat, source) in enumerate(log, start=1) if seat == 0 and source == "browser")
    page = strict.page()
    page.goto(f"{site}/match/{match.pk}/replay/")
    page.wait_for_selector("#game-area > *")
    page.click("#history-title")
    page.keyboard.press("Home")
    for step in range(1, hers + 2):
        page.keyboard.press("ArrowRight")
        expect(page.locator("#replay-step")).to_have_text(str(step))
    expect(page.locator("#game-area")).to_contain_text("alice (computer)")
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#replay-step")).to_have_text(str(hers))
    expect(page.locator("#history li").last).to_have_text("alice resigned")
    expect(page.locator("#game-area")).not_to_contain_text("(computer)")


def test_a_late_answer_for_an_earlier_step_is_not_drawn_under_a_later_step(site, strict, alice):
    """A quick second arrow press drew step 2's late answer under "3" (a CI run's flaky failure)."""
    match = in_another_thread(
        lambda: wakeups.play_out(
            lifecycle.start_seated_match(
                game="doubt-it", now=timezone.now(), seed=3, seats=[house_bot("random", copy) for copy in (1, 2, 3)]
            ).pk
        )
    )
    held = []
    page = strict.page()
    page.route("**/replay/2/", lambda route: held.append(route))  # answered only after step 3's
    page.goto(f"{site}/match/{match.pk}/replay/")
    page.wait_for_selector("#game-area > *")
    page.click("#history-title")
    page.keyboard.press("Home")
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    expect(page.locator("#replay-step")).to_have_text("3")
    step_three = page.locator("#replay").inner_text()
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_timeout(500)  # step 2's answer arrives now
    assert page.locator("#replay").inner_text() == step_three


def test_a_player_forfeited_elsewhere_loses_the_resign_button_without_a_reload(site, strict, alice, settings):
    settings.HOUSE_BOT_THINK_MS = 1500
    match = in_another_thread(
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
    in_another_thread(lambda: lifecycle.leave_match(match.pk, alice))  # e.g. from another tab
    page.wait_for_selector("#seats li.forfeited")
    expect(page.locator("button:has-text('Resign')")).to_be_hidden()
    assert Match.objects.get(pk=match.pk).status == Match.Status.RUNNING


def test_a_signed_out_visitor_hears_the_lobby_change_without_a_script_error(site, strict, alice, bob):
    """Only signed-in visitors have the quick-pairing queue's line; the update wrote to it for everyone."""
    page = strict.page()
    page.goto(f"{site}/play/dudo/")
    page.wait_for_timeout(1000)  # the lobby's socket is open

    def alice_opens_a_table_and_bob_sits_down():  # sitting down tells every lobby of the game
        lifecycle.join_match(lifecycle.create_match(game="dudo", players=3, host=alice).pk, bob)

    in_another_thread(alice_opens_a_table_and_bob_sits_down)
    expect(page.locator("#open-tables")).to_contain_text("2/3")


def ranked_one_die_duel_to_its_end(players: list, seed: int = 3) -> Match:
    def play_it():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": user} for user in players], now=timezone.now(), options={"dice": 1},
            seed=seed, ranked=True,
        )  # fmt: skip
        for action in ({"type": "bid", "quantity": 1, "face": 2}, {"type": "doubt"}):
            seat = match.engine.to_act(match.load_state())[0]
            match = submit_action(match.pk, players[seat], action, match.seq)
        return match

    match = in_another_thread(play_it)
    assert match.status == Match.Status.FINISHED
    return match


def test_a_profile_with_a_rating_chart_keeps_to_the_pages_style_policy(site, strict, alice, bob):
    """The chart's sizing was an inline style, which the Content Security Policy refuses."""
    ranked_one_die_duel_to_its_end([alice, bob])
    page = strict.page()
    page.goto(f"{site}/accounts/u/alice/")
    chart = page.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    assert chart.evaluate("svg => getComputedStyle(svg).maxWidth") == "100%"  # shrinks to a phone's width


def test_a_rating_change_on_the_table_adds_up(site, strict, alice, bob):
    """'1538 -> 1553 (+15.7)': the change was shown to a tenth beside ratings shown whole."""
    first = ranked_one_die_duel_to_its_end([alice, bob])
    second = ranked_one_die_duel_to_its_end([alice, bob], seed=4)  # 1500 against 1500 is +-20 exactly
    page = strict.page()
    for match in (first, second):
        page.goto(f"{site}/match/{match.pk}/")
        for text in page.locator(".rating-up, .rating-down").all_inner_texts():
            before, after, change = (float(n) for n in re.findall(r"[+-]?\d+(?:\.\d+)?", text))
            assert before + change == after, text


def test_a_player_who_went_away_on_their_turn_keeps_their_clock_and_is_said_to_be_away(site, strict, alice, bob):
    """The clock of an away player counted down their time to come back (2:56 became 1:00, then
    1:58 when they came back), and nothing said so: now the clock keeps their own time and the
    note counts down to the computer's move for them."""

    def bob_to_act_and_gone():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3, clock="game",
            clock_initial_ms=300_000,
        )  # fmt: skip
        if match.engine.to_act(match.load_state()) == [0]:
            match = submit_action(match.pk, alice, {"type": "bid", "quantity": 1, "face": 2}, match.seq)
        presence.connected(match.pk, 1, "bobs-closed-tab", True)
        presence.connected(match.pk, 1, "bobs-closed-tab", False)
        return match

    match = in_another_thread(bob_to_act_and_gone)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    note = page.locator(".seat[data-seat='1'] .away-note")
    expect(note).to_have_text(re.compile(r"^away · the computer moves for them in (1:00|0:[0-5]\d)$"))
    expect(page.locator("[data-clock-seat='1']")).to_have_text(re.compile(r"^(5:00|4:[45]\d)$"))
    first = note.inner_text()
    page.wait_for_timeout(1200)
    assert note.inner_text() != first, "the note counts down"
    note_box, name_box = note.bounding_box(), page.locator(".seat[data-seat='1'] .seat-name").bounding_box()
    assert note_box["y"] >= name_box["y"] + name_box["height"] - 1, "the note has a line of its own"
    assert note_box["height"] < 3 * name_box["height"], "and does not wrap down the column"
    screenshot(page, "away-note", full_page=False)
    expect(page.locator(".seat[data-seat='0'] .away-note")).to_have_count(0)


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

    match = in_another_thread(bob_idle_and_played_for_twice)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator(".seat[data-seat='1'] .idle-note")).to_have_text(
        "no move of their own lately · forfeits when this clock runs out"
    )
    expect(page.locator(".seat[data-seat='0'] .idle-note")).to_have_count(0)
    screenshot(page, "idle-note", full_page=False)
    in_another_thread(lambda: wakeups.wake(match.pk, now=Match.objects.get(pk=match.pk).wake_at))
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

    match = in_another_thread(bob_left_and_was_played_for_twice)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator(".seat[data-seat='1'] .away-note")).to_have_text(re.compile(r"^away · forfeits in \d+:\d\d$"))
    screenshot(page, "leaving-note", full_page=False)
    in_another_thread(lambda: wakeups.wake(match.pk, now=Match.objects.get(pk=match.pk).wake_at))
    expect(page.locator("#result")).to_contain_text("bob (left)")
    assert Match.objects.get(pk=match.pk).result["ranking"] == [[0], [1]]
    # The board says why the game ended (not its last round), and bob is no longer shown present.
    expect(page.locator("#game-area")).to_contain_text("The game is over: bob left.")
    expect(page.locator("#game-area")).not_to_contain_text("Last round")
    dot = page.locator(".seat[data-seat='1'] .dot")
    expect(dot).to_have_attribute("data-presence", "out of the game")
    expect(dot).to_have_attribute("title", "out of the game")


def test_a_dudo_doubt_that_found_one_die_says_one_two_not_one_twos(site, strict, alice, bob):
    """'Last round: bob lost a die (1 twos found for a bid of 2).'"""

    def bid_two_of_a_face_one_die_shows_then_doubt():
        for seed in range(100):
            match = lifecycle.start_seated_match(
                game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=seed
            )
            state = match.load_state()
            shown = {face: sum(d == face or d == 1 for dice in state.dice for d in dice) for face in range(2, 7)}
            lone = [face for face, count in shown.items() if count == 1]
            if lone:
                bidder = match.engine.to_act(state)[0]
                users = [alice, bob]
                match = submit_action(match.pk, users[bidder], {"type": "bid", "quantity": 2, "face": lone[0]}, 0)
                return submit_action(match.pk, users[1 - bidder], {"type": "doubt"}, match.seq), lone[0]
        raise AssertionError("no seed in 100 shows a face on exactly one die")

    match, face = in_another_thread(bid_two_of_a_face_one_die_shows_then_doubt)
    word = ["", "one", "two", "three", "four", "five", "six"][face]
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator("#dudo-reveal .verdict")).to_contain_text(f"Bluff! 1 {word} found (ones wild).")
    expect(page.locator(".dudo-status")).to_contain_text("9 dice on the table")
    expect(page.locator("#game-area")).to_contain_text(f"(1 {word} found for a bid of 2)", timeout=10_000)


def test_a_staged_reveal_closes_at_escape_and_stays_closed(site, strict, alice, bob):
    """The reveal lay over the new round's dice for five seconds while the bid bar was live."""

    def a_doubt_then_the_next_round():
        seats = [{"user": alice}, {"user": bob}]
        match = lifecycle.start_seated_match(game="dudo", seats=seats, now=timezone.now(), seed=3)
        match = submit_action(match.pk, alice, {"type": "bid", "quantity": 1, "face": 2}, 0)
        return submit_action(match.pk, bob, {"type": "doubt"}, match.seq)

    match = in_another_thread(a_doubt_then_the_next_round)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    reveal = page.locator("#dudo-reveal")
    expect(reveal.locator(".reveal-close")).to_have_text("Close (Esc)")
    page.keyboard.press("Escape")
    expect(reveal).to_have_count(0)
    assert page.evaluate("document.activeElement !== document.body"), "the focus stays on the table"
    in_another_thread(lambda: presence.connected(match.pk, 1, "bobs-tab", True))  # a push redraws the table
    expect(page.locator(".seat[data-seat='1'] .dot")).to_have_attribute("data-presence", "connected")
    assert reveal.count() == 0, "the redraw, within the reveal's five seconds, left it closed"
    expect(page.locator(".cup.me .dice-row .die")).to_have_count(5)


def test_a_ranked_game_resigned_before_a_move_says_why_it_is_not_rated(site, strict, alice, bob):
    """A ranked duel resigned at once ended with no rating change and no word of why."""
    match = in_another_thread(lambda: lifecycle.start_seated_match(
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


def test_a_player_who_took_a_seat_can_resign_once_the_host_starts_without_a_reload(site, strict, alice, bob):
    """The Resign button was drawn only for a page loaded while the match ran; a waiting 3+2 table
    showed 0:00 on every clock and said it waited 'for the table to fill' when it was full."""
    match = in_another_thread(lambda: lifecycle.create_match(
        game="dudo", players=2, host=alice, ranked=True, clock="game", clock_initial_ms=180_000,
        clock_increment_ms=2_000,
    ))  # fmt: skip
    host, guest = strict.page(), strict.page()
    log_in(host, site, "alice")
    log_in(guest, site, "bob")
    host.goto(f"{site}/match/{match.pk}/")
    expect(host.locator("#game-area")).to_have_text("Waiting for 1 more player before you can begin.")
    expect(host.locator("button:has-text('Start the match')")).to_be_disabled()
    expect(host.locator("form:has-text('Add bot')")).to_be_visible()
    guest.goto(f"{site}/match/{match.pk}/")
    with guest.expect_navigation():
        guest.click("text=Take a seat")
    expect(guest.locator("#game-area")).to_have_text("Every seat is taken: the host begins when ready.")
    expect(host.locator("#game-area")).to_have_text("Every seat is taken: begin when you are ready.")
    expect(host.locator("form:has-text('Add bot')")).to_be_hidden()
    expect(guest.locator("[data-clock-seat]")).to_have_text(["3:00", "3:00"])
    expect(guest.locator("button:has-text('Resign')")).to_be_hidden()
    with host.expect_navigation():
        host.click("text=Start the match")
    expect(guest.locator("button:has-text('Resign')")).to_be_visible()
    guest.on("dialog", lambda dialog: dialog.accept())
    guest.click("button:has-text('Resign')")
    expect(guest.locator("#result")).to_contain_text("bob (resigned)")


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

    match = in_another_thread(someone_plays)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    page.wait_for_selector("#history li")
    assert in_another_thread(lambda: wakeups.wake_all_due(match.pk, now=timezone.now() + timedelta(seconds=16))) == 2
    closed = page.locator("#history li", has_text="Nobody doubts")
    expect(closed).to_have_count(1)
    expect(closed).not_to_contain_text("no move in time")


def test_a_doubt_window_counts_down_beside_its_question_not_as_a_clock(site, strict, alice, bob, carol):
    """A game without a clock showed the doubt window's seconds as a red "0:01" clock on each seat."""
    start = timezone.now()
    users = [alice, bob, carol]

    def someone_plays():
        match = lifecycle.start_seated_match(
            game="doubt-it", seats=[{"user": user} for user in users], now=start, seed=8,
            options={"doubt_window_s": 15},
        )  # fmt: skip
        state = match.load_state()
        seat = match.engine.to_act(state)[0]
        return submit_action(match.pk, users[seat], match.engine.legal_actions(state, seat)[0], 0), seat

    match, player = in_another_thread(someone_plays)
    doubter = users[(player + 1) % 3]
    page = strict.page()
    log_in(page, site, doubter.username)
    page.goto(f"{site}/match/{match.pk}/")
    expect(page.locator("#doubt-waiting")).to_contain_text(re.compile(r"Waiting for .*\(0:1[0-5] left\)"))
    expect(page.locator("#doubt")).to_be_visible()
    for clock in page.locator("#seats [data-clock-seat]").all():
        expect(clock).to_have_text("")
    screenshot(page, "doubt-window-countdown")


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

    match = in_another_thread(alice_bids_and_bob_is_to_act)
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    history = page.locator("#history li")
    expect(history.last).to_have_text("alice bids 1 two")
    in_another_thread(lambda: wakeups.wake(match.pk, now=timezone.now() + timedelta(seconds=31)))
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
    in_another_thread(the_next_player_moves_themself)
    expect(history).not_to_have_count(entries)
    page.reload()  # the whole history comes back with the clock's move still marked, and only it
    expect(marked).to_have_count(1)
    expect(marked).to_contain_text("bob ")


def test_a_player_joins_an_open_table_from_the_lobby_in_one_click(site, strict, alice, bob):
    """The lobby's 'Open' only showed the table, where 'Take a seat' was a second step."""
    host, guest = strict.page(), strict.page()
    log_in(host, site, "alice")
    log_in(guest, site, "bob")
    guest.goto(f"{site}/play/dudo/")
    host.goto(f"{site}/play/dudo/")
    host.fill("#table_players", "2")
    with host.expect_navigation():
        host.click("#new-table button[type=submit]")
    match_url = host.url
    row = guest.locator("#open-tables tr", has_text="alice")
    expect(row.locator("button")).to_have_text("Join")  # drawn live, from the lobby's push
    expect(row.locator("a")).to_have_text("Watch")
    with guest.expect_navigation():
        row.locator("button", has_text="Join").click()
    assert guest.url == match_url
    expect(host.locator("#seats li")).to_have_count(2)
    expect(host.locator("#game-area")).to_have_text("Every seat is taken: begin when you are ready.")
    guest.goto(f"{site}/play/dudo/")
    expect(guest.locator("#open-tables tr", has_text="alice").locator("a")).to_have_text("Your table")


def test_the_host_adds_a_house_bot_with_the_mouse_on_a_wide_screen(site, strict, alice, bob):
    """At 1280 px the long strength name pushed 'Add bot' out of the players' column, under the
    game area: a click at its centre reached the game area and nothing happened."""
    match = in_another_thread(lambda: lifecycle.create_match(game="doubt-it", players=3, host=alice))
    page = strict.page()
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in(page, site, "alice")
    page.goto(f"{site}/match/{match.pk}/")
    # The seats are drawn from the socket's first message and push the form down: measure after it.
    expect(page.locator("#seats li")).to_have_count(1)
    button = page.locator("form:has-text('Add bot') button")
    column = page.locator(".table-side").first.bounding_box()
    box = button.bounding_box()
    assert box["x"] + box["width"] <= column["x"] + column["width"] + 1, "the button stays in the players' column"
    screenshot(page, "add-bot-wide", full_page=False)
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(page.locator("#seats li")).to_have_count(2)


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
