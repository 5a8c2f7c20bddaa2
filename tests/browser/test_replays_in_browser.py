"""The replay in chromium: its controls, the seats the computer played after a player left, and
answers that come back out of order."""


import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.matches import lifecycle, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match
from tests.browser.conftest import answered, house_bot, in_thread

pytestmark = pytest.mark.browser


def test_the_replay_controls_show_in_chromiums_own_fonts(site, strict, alice):
    match = in_thread(
        lambda: wakeups.play_out(
            lifecycle.start_seated_match(
                game="dudo",
                options={"dice": 1},
                now=timezone.now(),
                seats=[house_bot("random"), house_bot("heuristic")],
            ).pk
        )
    )
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


def test_the_replay_names_a_seat_the_computers_only_after_the_step_its_player_left_after(site, strict, alice, settings):
    """The replay read "alice (computer) doubts ..." on the step of alice's own doubt, made just before she resigned."""
    settings.HOUSE_BOT_THINK_MS = 60_000  # the bots move when the test wakes them, never by the ticker meanwhile

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

    match, log = in_thread(play_then_resign)
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
    match = in_thread(
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
    answered(page, f"/api/matches/{match.pk}/replay/2/")  # step 2's answer arrives now
    assert page.locator("#replay").inner_text() == step_three
