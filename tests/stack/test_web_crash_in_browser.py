"""A web server crash under an arena player's table page (kill -9, then the restart `make stack`
does): her next game started while the page's sockets were down, and the page moves on to it as
it would have live, once they open again, instead of staying with a link while the no-show time
runs out (an arbiter's player was counted absent and paused)."""

import subprocess
import sys
import time

import pytest

from tests.browser.conftest import HEARD, browser, socket_open  # noqa: F401 - `browser`: the chromium fixture
from tests.stack.client import call, register
from tests.stack.conftest import ROOT

pytestmark = pytest.mark.stack
PASSWORD = "a long enough password 42"  # client.register's

RUNNING_ARENA = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from tournaments import running, services
from tournaments.models import Tournament
organizer = get_user_model().objects.get(username={organizer!r})
arena = Tournament.objects.create(
    name="Crash Arena of " + organizer.username, game="dudo", format="arena", organizer=organizer,
    options={{"dice": 1}}, time_control="3+2",
    duration_minutes=55, starts_at=timezone.now() + timedelta(hours=1), no_show_minutes=1,
)
services.enter_house_bot(arena.pk, "random")
print(running.start(arena.pk).pk)
"""

PLAYING = """
from games.matches.models import Match
running = Match.objects.filter(status="running", seats__user__username={player!r}).order_by("-pk")
print(running.values_list("pk", flat=True).first())
"""


def in_stack(stack, code: str) -> str:
    """What `code` prints, run by `manage.py shell` on the stack's database."""
    done = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", code],
        cwd=ROOT, env=stack["env"], capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return done.stdout.strip().splitlines()[-1]


def running_match(stack, player: str, other_than: int, seconds: float = 30) -> int:
    deadline = time.monotonic() + seconds
    while (found := in_stack(stack, PLAYING.format(player=player))) in ("None", str(other_than)):
        assert time.monotonic() < deadline, "the arena did not seat the player again"
    return int(found)


def came(port: int, match_id: int, player: str) -> bool:
    seats = call(port, "GET", f"/api/matches/{match_id}/")["state"]["seats"]
    return any(seat["came"] for seat in seats if seat["player"] == player)


def at_her_first_arena_table(stack, browser, player: str):  # noqa: F811
    """A player's page at her first table of a running arena (on web0), its sockets open: the page,
    her API token and the match."""
    web0 = stack["ports"][0]
    token = register(web0, player)
    arena = int(in_stack(stack, RUNNING_ARENA.format(organizer=player)))
    context = browser.new_context()
    context.set_default_timeout(30_000)
    context.add_init_script(HEARD)
    page = context.new_page()
    page.goto(f"http://127.0.0.1:{web0}/accounts/login/")
    page.fill("input[name=username]", player)
    page.fill("input[name=password]", PASSWORD)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)
    page.goto(f"http://127.0.0.1:{web0}/tournaments/{arena}/")
    page.click("#arena-join")
    page.wait_for_url("**/match/*/")  # seated against the house bot at once
    first = int(page.url.rstrip("/").rsplit("/", 1)[1])
    socket_open(page, "/ws/notices/")
    socket_open(page, f"/ws/match/{first}/")
    return page, token, first


def test_a_table_page_whose_web_server_crashed_moves_on_to_the_game_that_started_meanwhile(stack, browser):  # noqa: F811
    web0, web1 = stack["ports"]
    page, token, first = at_her_first_arena_table(stack, browser, "crash-ida")

    stack["crash"]("web0")
    call(web1, "POST", f"/api/matches/{first}/leave/", {}, token)  # her game ends while her page is cut off...
    second = running_match(stack, "crash-ida", other_than=first)  # ...and the arena seats her again at once
    stack["restart"]("web0")

    page.wait_for_url(f"**/match/{second}/", timeout=60_000)
    socket_open(page, f"/ws/match/{second}/")
    deadline = time.monotonic() + 30  # her socket's seat is counted as the server writes it
    while not came(web1, second, "crash-ida"):
        assert time.monotonic() < deadline, "she is not counted at her new table: the no-show time runs on"
        time.sleep(0.2)
    page.context.close()


def test_a_table_page_moving_on_while_its_server_restarts_waits_and_opens_the_next_game(stack, browser):  # noqa: F811
    """The arbiter's case: the page heard of her next game, and its server died during the table's
    5 s look at the result. Sent there at once, the browser showed its own error page for good and
    the clock played the whole game; the page waits for the server instead, saying so."""
    web0, web1 = stack["ports"]
    page, token, first = at_her_first_arena_table(stack, browser, "crash-eva")
    call(web0, "POST", f"/api/matches/{first}/leave/", {}, token)
    second = running_match(stack, "crash-eva", other_than=first)
    page.locator(".messages li", has_text="taking you there").wait_for()
    stack["crash"]("web0")
    page.locator(".messages li", has_text="The site is restarting: your next game opens").wait_for()
    stack["restart"]("web0")
    page.wait_for_url(f"**/match/{second}/", timeout=60_000)
    socket_open(page, f"/ws/match/{second}/")
    deadline = time.monotonic() + 30
    while not came(web1, second, "crash-eva"):
        assert time.monotonic() < deadline, "she is not counted at her new table"
        time.sleep(0.2)
    page.context.close()
