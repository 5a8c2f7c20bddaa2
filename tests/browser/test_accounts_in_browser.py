"""Registration, logout and login in a real browser."""

import pytest
from django.core.cache import cache
from playwright.sync_api import expect

from dubium import demo
from tests.browser.conftest import in_thread, log_in, screenshot

pytestmark = pytest.mark.browser


def test_a_visitor_registers_is_welcomed_logs_out_and_logs_back_in(site, strict):
    page = strict.page()
    page.goto(site)
    page.click("text=Register")
    page.fill("input[name=username]", "Zoe_42")
    page.fill("input[name=email]", "zoe@example.com")
    page.fill("input[name=password1]", "a long enough password 42")
    page.fill("input[name=password2]", "a long enough password 42")
    page.click("form.stack button[type=submit]")
    page.wait_for_url("**/welcome/")
    assert page.locator("h1").inner_text() == "Welcome to Dubium, Zoe_42!"
    steps = page.locator("#next-steps h2").all_inner_texts()
    assert steps == [
        "Learn a game", "Play the computer", "Play people in the ranked queue", "Enter a tournament", "Make a bot"
    ]
    screenshot(page, "welcome")
    page.click("#next-steps >> text=Dudo rules")
    assert page.locator("h1").first.inner_text().startswith("Dudo")
    page.go_back()
    page.click("text=Zoe_42 >> nth=-1")
    page.wait_for_url("**/accounts/u/Zoe_42/")
    assert page.locator("h1").inner_text().startswith("Zoe_42")
    screenshot(page, "profile")
    page.click("text=Log out")
    page.wait_for_selector("text=Log in")
    log_in(page, site, "zoe_42", "a long enough password 42")
    assert page.locator("nav").inner_text().count("Zoe_42") == 1


def test_a_taken_username_gets_a_clear_error(site, new_page, make_user):
    make_user("taken")
    page = new_page()
    page.goto(f"{site}/accounts/register/")
    page.fill("input[name=username]", "TAKEN")
    page.fill("input[name=email]", "t@example.com")
    page.fill("input[name=password1]", "a long enough password 42")
    page.fill("input[name=password2]", "a long enough password 42")
    page.click("form.stack button[type=submit]")
    assert page.locator("text=That username is taken.").is_visible()


def sign_up(page, site: str, username: str) -> None:
    page.goto(f"{site}/accounts/register/")
    page.fill("input[name=username]", username)
    page.fill("input[name=email]", f"{username}@example.com")
    page.fill("input[name=password1]", "a long enough password 42")
    page.fill("input[name=password2]", "a long enough password 42")
    page.click("form.stack button[type=submit]")


def test_a_sign_up_past_the_limit_stays_on_the_form_and_says_when_to_try_again(site, new_page, settings):
    """A tester signing up account after account from one address saw a refused sign-up land on
    /welcome/ without a session, the refusal not worded: it stays on the form, signed out, with
    what was typed and the wait in words."""
    settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
        "DEFAULT_THROTTLE_RATES": settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] | {"register": "2/hour"}
    }
    cache.clear()  # the sign-ups of the tests before, from the same address
    page = new_page()  # not strict: the refusal is a 429 on purpose, which the console reports
    for username in ("first_one", "second_one"):
        sign_up(page, site, username)
        page.wait_for_url("**/welcome/")
        page.click("text=Log out")
        page.wait_for_selector("text=Log in")
    sign_up(page, site, "third_one")
    expect(page.locator("#too-many")).to_have_text(
        "Too many new accounts from your address: try again in 60 minutes."
    )
    assert page.url == f"{site}/accounts/register/"
    expect(page.locator("input[name=username]")).to_have_value("third_one")
    expect(page.locator("input[name=email]")).to_have_value("third_one@example.com")
    expect(page.locator("input[name=password1]")).to_have_value("")
    assert page.locator("nav").get_by_text("Log in").count() == 1  # still a visitor
    page.goto(f"{site}/welcome/")
    assert "/accounts/login/" in page.url  # the welcome is a signed-in newcomer's, never a visitor's


def test_a_players_games_read_on_a_phone_without_scrolling_sideways(site, new_page, db):
    """At 390 px the games table ran to 490 px with its Replay links out of view, and the bluff
    figures pushed the whole profile sideways (tester's findings)."""
    def play() -> None:
        for game, seed in (("dudo", 5), ("doubt-it", 6), ("dudo", 7)):
            demo.play_bot_match(game, ["heuristic", "random", "random"], seed=seed)

    in_thread(play)
    page = new_page((390, 844))
    for path in ("/accounts/u/HeuristicBot/", "/accounts/u/HeuristicBot/games/"):
        page.goto(f"{site}{path}")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, path
        links = page.locator(".player-games a", has_text="Replay")
        expect(links).to_have_count(3)
        for link in links.all():
            box = link.bounding_box()
            assert 0 <= box["x"] and box["x"] + box["width"] <= 390, path
        screenshot(page, f"phone-games-{'page' if 'games' in path else 'profile'}")
    links.first.click()
    page.wait_for_url("**/replay/")


def test_the_welcome_page_s_button_and_link_stand_apart_on_a_phone_and_a_desktop(site, strict, make_user):
    """A tester found the welcome page's "Go to the lobbies" button touching the link beside it."""
    make_user("zoe")
    for width, height in ((390, 844), (1280, 900)):
        page = strict.page((width, height))
        log_in(page, site, "zoe")
        page.goto(f"{site}/welcome/")
        button = page.get_by_role("link", name="Go to the lobbies").bounding_box()
        link = page.get_by_role("link", name="See the ladders").bounding_box()
        apart_across = max(link["x"] - (button["x"] + button["width"]), button["x"] - (link["x"] + link["width"]))
        apart_down = max(link["y"] - (button["y"] + button["height"]), button["y"] - (link["y"] + link["height"]))
        assert max(apart_across, apart_down) >= 8, f"{width} px: the button and the link touch ({button}, {link})"
