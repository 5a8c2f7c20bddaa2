"""A game's lobby in chromium: the new-table and play-the-computer forms, the open tables drawn live
(joined in one click), and the lobby's socket, which takes a player only to a match paired for them."""


import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import GAMES
from games.matches import lifecycle
from games.matches.models import Match
from tests.browser.conftest import house_bot, in_thread, log_in, socket_heard, socket_open

pytestmark = pytest.mark.browser


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


def test_the_lobby_sends_a_player_only_to_a_match_the_queue_paired_them_into(site, strict, alice):
    def a_game_against_a_house_bot_without_host():  # what a bot's own match or a challenge starts
        return lifecycle.start_seated_match(
            game="dudo",
            seats=[{"user": alice}, house_bot("random")],
            now=timezone.now(),
        )

    match = in_thread(a_game_against_a_house_bot_without_host)
    assert match.host is None and match.status == Match.Status.RUNNING
    page = strict.page()
    log_in(page, site, "alice")
    page.goto(f"{site}/play/dudo/")
    heard = socket_heard(page, "/ws/lobby/dudo/", "lobby")  # what the socket says as it opens ends with the lobby
    assert "match_found" not in heard and page.url == f"{site}/play/dudo/"


def test_a_signed_out_visitor_hears_the_lobby_change_without_a_script_error(site, strict, alice, bob):
    """Only signed-in visitors have the quick-pairing queue's line; the update wrote to it for everyone."""
    page = strict.page()
    page.goto(f"{site}/play/dudo/")
    socket_open(page, "/ws/lobby/dudo/")

    def alice_opens_a_table_and_bob_sits_down():  # sitting down tells every lobby of the game
        lifecycle.join_match(lifecycle.create_match(game="dudo", players=3, host=alice).pk, bob)

    in_thread(alice_opens_a_table_and_bob_sits_down)
    expect(page.locator("#open-tables")).to_contain_text("2/3")


@pytest.mark.both_stacks
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
