"""A real ASGI server (uvicorn, in a thread) on the test database, and Debian's chromium.

Bots move on their own here: a wake-up ticker runs for the length of each test.
"""

import logging
import os
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from games.matches import lifecycle
from games.matches.models import Match
from tests.ports import free_port

HERE = Path(__file__).resolve().parent
ARTIFACTS = HERE.parents[1] / "test-artifacts"
CHROMIUM = "/usr/bin/chromium"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Every test here drives chromium: marked `browser` (whether its file says so or not) before
    tests/conftest.py reads the marks, which keep it to the embedded pass unless it is `both_stacks`."""
    for item in items:
        if HERE in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session", autouse=True)
def allow_orm_beside_playwright():
    # Playwright's sync API keeps an event loop in the test thread; the ORM calls made by
    # the test itself are still plain synchronous calls.
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"


@pytest.fixture
def site(transactional_db, settings):
    import uvicorn

    from dubium.ticker import start_ticker

    settings.HOUSE_BOT_THINK_MS = 60
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    port = free_port()
    # A closed socket's consumer may linger in channels_redis's receive (a 5 s BZPOPMIN, then its
    # clean-up) after its page is gone; the server cancels it after a second instead of waiting.
    config = uvicorn.Config(
        "dubium.asgi:application",
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    stop = threading.Event()
    ticker = start_ticker(0.05, stop)
    yield f"http://127.0.0.1:{port}"
    stop.set()
    ticker.join(5)
    wait_for_sockets_to_close()
    check_sync_thread_is_free()  # their broadcasts too, while the server's loop still runs them
    server.should_exit = True
    thread.join(10)
    check_sync_thread_is_free()
    forget_sockets_left_open()


def forget_sockets_left_open() -> None:
    """The process's heartbeats forget the sockets whose disconnect the stopped server never ran
    (a loaded machine's pages can take longer to close than `wait_for_sockets_to_close` waits):
    the next test's server would beat for them, on matches its database no longer has."""
    from games.lobby.consumers import LOBBY_SOCKETS
    from games.matches.consumers import SEAT_SOCKETS

    for heartbeat in (SEAT_SOCKETS, LOBBY_SOCKETS):
        heartbeat.sockets.clear()  # its beating task went with the server's loop


def wait_for_sockets_to_close(seconds: float = 10) -> None:
    """Let the server finish the disconnect handlers of the pages just closed before it stops.

    Those handlers write through asgiref's one shared sync thread and then send on the server's
    event loop; stopping the loop under them would leave that thread waiting for ever, and every
    later test that touches the database from async code would hang behind it.
    """
    from games.matches.models import Seat

    deadline = time.monotonic() + seconds
    while Seat.objects.filter(connections__gt=0).exists() and time.monotonic() < deadline:
        time.sleep(0.05)


def check_sync_thread_is_free() -> None:
    from asgiref.sync import SyncToAsync

    try:
        SyncToAsync.single_thread_executor.submit(lambda: None).result(timeout=10)
    except TimeoutError:
        raise RuntimeError("asgiref's sync thread is stuck after the server stopped; later tests would hang") from None


@pytest.fixture(scope="module")
def browser():
    """One chromium per test module: Playwright's loop must not outlive the browser tests."""
    from playwright.sync_api import sync_playwright

    assert Path(CHROMIUM).exists(), "Debian's chromium is needed: apt-get install chromium (make test does it)"
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=[
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--no-first-run",
                "--disable-sync",
            ],
        )
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser, site):
    """Pages depend on the site so that they close (and their sockets with them) before it stops."""
    contexts = []

    def make(viewport=(1280, 900), **options):
        """options go to the browser context, e.g. color_scheme="dark"."""
        context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **options)
        context.set_default_timeout(15_000)
        context.add_init_script(HEARD)
        contexts.append(context)
        return context.new_page()

    yield make
    for context in contexts:
        context.close()


class ServerLog(logging.Handler):
    """Every record of ERROR or worse, and any record carrying a traceback, the server logs."""

    def __init__(self):
        super().__init__(logging.DEBUG)
        self.problems: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.levelno >= logging.ERROR or record.exc_info or "Traceback" in text:
            self.problems.append(f"{record.levelname} {record.name}: {self.format(record)}")


class Guard:
    """Pages that fail the test on any console error, uncaught exception or failed request.

    `expect(pattern)` allows failed requests whose URL matches the regular expression (a test
    that provokes a 400 on purpose says so).
    """

    def __init__(self, make_page):
        self.make_page = make_page
        self.server_log = ServerLog()
        self.problems: list[str] = []
        self.expected: list[re.Pattern] = []

    def expect(self, pattern: str) -> None:
        self.expected.append(re.compile(pattern))

    def allowed(self, url: str) -> bool:
        return any(pattern.search(url) for pattern in self.expected)

    def page(self, viewport=(1280, 900), **options):
        page = self.make_page(viewport, **options)
        page.on("console", lambda m: m.type == "error" and self.problems.append(f"console: {m.text} ({m.location})"))
        page.on("pageerror", lambda error: self.problems.append(f"uncaught: {error}"))
        page.on("requestfailed", self.request_failed)
        page.on("response", self.response)
        return page

    def request_failed(self, request) -> None:
        # A static file still loading when the page moves on is dropped by the browser itself, and so
        # is a script's read (a GET fetch: the arena's refresh, site.js DubiumGo asking whether the next
        # page answers) when the page leaves another way: nothing is lost. Any other aborted request
        # (a form or a move cut off by a script's redirect) is a finding.
        read = request.method == "GET" and request.resource_type == "fetch"
        dropped = request.failure == "net::ERR_ABORTED" and ("/static/" in request.url or read)
        if not dropped and not self.allowed(request.url):
            self.problems.append(f"request failed: {request.method} {request.url} {request.failure}")

    def response(self, response) -> None:
        if response.status >= 400 and not self.allowed(response.url):
            self.problems.append(f"HTTP {response.status}: {response.request.method} {response.url}")


@pytest.fixture
def strict(new_page):
    """The guard of issue 12: use `strict.page()` instead of `new_page()`; the test fails on any
    browser console error, failed request or server ERROR/traceback while it runs."""
    guard = Guard(new_page)
    logging.getLogger().addHandler(guard.server_log)
    yield guard
    logging.getLogger().removeHandler(guard.server_log)
    problems = guard.problems + guard.server_log.problems
    assert not problems, "the site misbehaved during the test:\n" + "\n".join(problems)


def screenshot(page, name: str, full_page: bool = True) -> None:
    """Into test-artifacts/ (CI keeps it); name may hold a subfolder, e.g. "screenshots/dobble-phone"."""
    path = ARTIFACTS / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page)


def log_in(page, site: str, username: str, password: str = "correct horse battery") -> None:
    page.goto(f"{site}/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("form.stack button[type=submit]")
    page.wait_for_url(lambda url: "/accounts/login/" not in url)


def house_bot(name: str, copy: int = 1) -> dict:
    """A seat for a house bot (`copy` tells two of one strength apart), for lifecycle.start_seated_match."""
    return {"user": lifecycle.house_bot_user(name, copy), "house_bot": name}


def table_with_bots(host, game, bots, options=None, seed=11):
    """A table of `host` and house bots, made in another thread: the test's thread runs Playwright's
    event loop, which the service's broadcasts (async_to_sync) must not share."""
    def create():
        match = lifecycle.create_match(game=game, players=1 + len(bots), host=host, options=options, seed=seed)
        for name in bots:
            lifecycle.add_house_bot(match.pk, host, name)
        return match

    return in_thread(create)


SHOWN_SHARES = """([groups, cards]) => [...document.querySelectorAll(groups)].flatMap((group) => {
    const boxes = [...group.querySelectorAll(cards)].map((card) => card.getBoundingClientRect());
    return boxes.slice(0, -1).map((box, n) =>
        boxes[n + 1].top > box.top + 5 ? 1 : (boxes[n + 1].left - box.left) / box.width);
})"""


def shown_shares(page, groups: str, cards: str) -> list[float]:
    """For each card in each group, the share of its width the next card leaves in view (1 where the next
    card starts a new line). Found and measured in one step, so a redraw cannot detach the cards halfway."""
    return page.evaluate(SHOWN_SHARES, [groups, cards])


def in_thread(work):
    """Service calls that broadcast run in another thread: the test's thread runs Playwright's event
    loop, which their async_to_sync must not share."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(work).result()


def finished(match_id: int, seconds: float = 60) -> None:
    """Until the match has ended: the ticker plays its bots at their own pace."""
    deadline = time.monotonic() + seconds
    while Match.objects.get(pk=match_id).status != Match.Status.FINISHED:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)


def until(page, done, step, limit_ms=30_000):
    """Run step() until done() holds, looking again each time the page changes; a redraw under a
    click simply means: look again."""
    deadline = time.monotonic() + limit_ms / 1000
    while not done():
        assert time.monotonic() < deadline, "the table did not reach the wanted moment in time"
        try:
            step()
        except Exception:  # noqa: BLE001 - Playwright timeouts and detached nodes during a redraw
            pass
        next_change(page)


# How often a wait below looks again: a wait on every animation frame would make chromium paint
# sixty frames a second for nothing.
POLL_MS = 50

# What tests wait for instead of a fixed time. Added to every page before its own scripts: for each
# socket path, whether its socket is open, how often one opened, the type of every message heard,
# the highest state `seq` heard, the actions sent and whether the last one is still unanswered
# (no state past its `seq` and no error heard since); and the path of every answer a page's script
# read. What is heard is noted after the page's own handlers ran.
HEARD = """(() => {
  const heard = { sockets: {}, answers: [] };
  Object.defineProperty(window, "dubiumHeard", { value: heard });
  window.WebSocket = class extends window.WebSocket {
    constructor(...args) {
      super(...args);
      const path = new URL(this.url).pathname;
      const socket = heard.sockets[path] = heard.sockets[path]
        || { open: false, opened: 0, messages: [], seq: -1, actions: 0, unanswered: null };
      this.heard = socket;
      this.addEventListener("open", () => setTimeout(() => { socket.open = true; socket.opened += 1; }));
      this.addEventListener("close", () => setTimeout(() => { socket.open = false; }));
      this.addEventListener("message", (event) => {
        let message = {};
        try { message = JSON.parse(event.data); } catch { message = {}; }
        setTimeout(() => {
          socket.messages.push(message.type);
          if (message.type === "state") socket.seq = Math.max(socket.seq, message.seq);
          const answered = message.type === "error" || (message.type === "state" && message.seq > socket.unanswered);
          if (socket.unanswered !== null && answered) socket.unanswered = null;
        });
      });
    }

    send(data) {
      super.send(data);
      let message = {};
      try { message = JSON.parse(data); } catch { message = {}; }
      if (message.type === "action") { this.heard.actions += 1; this.heard.unanswered = message.seq; }
    }
  };
  for (const read of ["json", "text"]) {
    const native = Response.prototype[read];
    Response.prototype[read] = function () {
      const path = this.url && new URL(this.url).pathname;
      return native.call(this).then((body) => { setTimeout(() => heard.answers.push(path)); return body; });
    };
  }
})();"""


def table_socket(page) -> str:
    """The path of the match socket of the table the page shows."""
    return re.sub(r"^/match/(\d+)/.*$", r"/ws/match/\1/", page.evaluate("location.pathname"))


def table_at(page, seq: int) -> None:
    """Until the table on the page has drawn the match's state `seq` (or a later one)."""
    page.wait_for_function(
        "([path, seq]) => (window.dubiumHeard.sockets[path] || {}).seq >= seq",
        polling=POLL_MS,
        arg=[table_socket(page), seq],
    )


def move_answered(page) -> None:
    """Until the server has answered the last move the page sent (a state past it, or an error) and
    the page has drawn it; at once when it sent none."""
    page.wait_for_function(
        "(path) => (window.dubiumHeard.sockets[path] || { unanswered: null }).unanswered === null",
        polling=POLL_MS,
        arg=table_socket(page),
    )


def moves_sent(page) -> int:
    """How many moves the page has sent to its table's socket."""
    return page.evaluate("(path) => (window.dubiumHeard.sockets[path] || { actions: 0 }).actions", table_socket(page))


def socket_open(page, path: str, times: int = 1) -> None:
    """Until the page's socket at `path` (e.g. "/ws/notices/") is open, having opened `times` times:
    then it hears its groups' pushes (a consumer joins them before it accepts)."""
    page.wait_for_function(
        "([path, times]) => { const s = window.dubiumHeard.sockets[path]; return s && s.open && s.opened >= times; }",
        polling=POLL_MS,
        arg=[path, times],
    )


def socket_heard(page, path: str, kind: str | None = None, count: int = 1) -> list:
    """Until the page's socket at `path` has heard `count` messages (of type `kind`, when given) and the
    page has acted on them; every type heard there so far."""
    page.wait_for_function(
        "([path, kind, count]) => { const s = window.dubiumHeard.sockets[path];"
        " return s && s.messages.filter((type) => kind === null || type === kind).length >= count; }",
        polling=POLL_MS,
        arg=[path, kind, count],
    )
    return page.evaluate("(path) => window.dubiumHeard.sockets[path].messages", path)


def answered(page, path: str, count: int = 1) -> None:
    """Until the page's script has read `count` answers from `path` and acted on them."""
    page.wait_for_function(
        "([path, count]) => window.dubiumHeard.answers.filter((p) => p === path).length >= count",
        polling=POLL_MS,
        arg=[path, count],
    )


def next_change(page, limit_ms: int = 1000) -> None:
    """Until anything on the page changes (a redraw, a clock's tick), or limit_ms if nothing does:
    what a loop acting on a table waits for between two looks."""
    page.evaluate(
        """(limit) => new Promise((done) => {
            const watch = new MutationObserver(() => { watch.disconnect(); done(); });
            watch.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
            setTimeout(() => { watch.disconnect(); done(); }, limit);
        })""",
        limit_ms,
    )


def settled(page) -> None:
    """Until the page's animations and transitions that end have ended (a card rising, a panel's
    entrance, the dice turning over), and it has been painted since."""
    page.evaluate(
        """() => Promise.all(document.getAnimations()
            .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
            .map((a) => a.finished.catch(() => null)))
          .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))"""
    )
