"""The Content-Security-Policy holds in a real browser: the site's own pages break none of it."""

from concurrent.futures import ThreadPoolExecutor

import pytest
from playwright.sync_api import expect

from games.matches import broadcast, lifecycle
from tests.browser.conftest import in_thread, log_in, socket_heard, socket_open

pytestmark = pytest.mark.browser


def watch_violations(page) -> list[str]:
    """CSP violations as the browser reports them (console errors and the DOM event)."""
    seen: list[str] = []
    page.on("console", lambda message: "Content Security Policy" in message.text and seen.append(message.text))
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', e =>"
        " console.error('Content Security Policy violation: ' + e.violatedDirective + ' ' + e.blockedURI))"
    )
    return seen


def test_the_main_pages_run_under_the_policy_without_a_violation(site, new_page, make_user):
    alice = make_user("alice", is_staff=True, is_superuser=True)
    bob = make_user("bob")

    def tables():  # off the test thread: Playwright's event loop lives there
        match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=3)
        lifecycle.join_match(match.pk, bob)
        lifecycle.start_match(match.pk, alice)
        return match, lifecycle.create_match(game="dobble", players=2, host=alice, seed=3)

    with ThreadPoolExecutor(1) as pool:
        match, dobble = pool.submit(tables).result()
    page = new_page()
    seen = watch_violations(page)
    log_in(page, site, "alice")
    pages = [
        "/", "/play/", "/play/dudo/", "/play/dobble/", "/rules/dudo/", "/tournaments/", "/leaderboards/",
        "/bots/", "/accounts/u/alice/", f"/match/{match.pk}/", f"/match/{dobble.pk}/", "/admin/",
        "/admin/accounts/user/", "/api/docs/",
    ]  # fmt: skip
    for path in pages:
        response = page.goto(site + path)
        assert response.ok, path
        assert "script-src 'self'" in response.headers["content-security-policy"], path
        page.wait_for_load_state("networkidle")
    assert seen == [], "\n".join(seen)
    page.goto(site + "/api/redoc/")
    page.wait_for_selector("text=Dubium API")
    page.wait_for_load_state("networkidle")
    blocked = [text for text in seen if text.startswith("Content Security Policy violation")]
    assert all("https://cdn.redoc.ly/" in text for text in blocked), "ReDoc's own badge from its host, refused"


def test_an_injected_inline_script_is_blocked(site, new_page):
    page = new_page()
    seen = watch_violations(page)
    page.goto(site + "/")
    page.evaluate(
        "() => { const s = document.createElement('script'); s.textContent = 'window.injected = 1';"
        " document.body.appendChild(s); }"
    )
    assert page.evaluate("() => window.injected") is None
    assert any("script-src" in text for text in seen)


def test_a_table_opened_past_the_accounts_socket_limit_says_so_in_words(site, new_page, make_user, settings):
    """A reconnecting loop's sockets are refused past the account's limit (4429); a page that
    meets the limit says why and waits, rather than reconnecting at once for ever."""
    alice = make_user("alice")
    bob = make_user("bob")

    def table():
        match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=3)
        lifecycle.join_match(match.pk, bob)
        lifecycle.start_match(match.pk, alice)
        return match

    with ThreadPoolExecutor(1) as pool:
        match = pool.submit(table).result()
    first, second = new_page(), new_page()
    for page in (first, second):
        log_in(page, site, "alice")
    first.goto(f"{site}/match/{match.pk}/")
    first.wait_for_selector("#seats li")
    for path in (f"/ws/match/{match.pk}/", "/ws/notices/"):  # both counted before the limit is lowered
        socket_open(first, path)
    settings.SOCKETS_OPEN_AT_ONCE = 2  # the first tab's table and notices sockets
    second.goto(f"{site}/match/{match.pk}/")
    too_many = "Too many sockets. At most 2 open at once. Live updates on this page resume within half a minute."
    expect(second.locator("#table-status")).to_have_text(too_many)
    assert first.locator("#table-status").is_hidden(), "the first tab plays on"
    second.goto(f"{site}/play/dudo/")  # the lobby's socket and every other page's say so too
    expect(second.locator(".messages li")).to_have_text(too_many)
    second.goto(f"{site}/leaderboards/")
    expect(second.locator(".messages li")).to_have_text(too_many)


@pytest.mark.both_stacks
def test_a_page_whose_sign_in_ends_elsewhere_says_so_and_one_whose_password_changed_here_does_not(
    site, new_page, make_user
):
    """A tester's table quietly turned into a visitor's when the password was changed elsewhere;
    the header still named him. The tab of the session that changed it stays signed in, silently."""
    alice = make_user("alice")
    here, elsewhere = new_page(), new_page()
    for page in (here, elsewhere):
        log_in(page, site, "alice")
    other_tab = here.context.new_page()  # the same session as `here`
    for page in (elsewhere, other_tab):
        page.goto(f"{site}/leaderboards/")
        socket_open(page, "/ws/notices/")
    here.goto(f"{site}/accounts/password/")
    here.fill("input[name=old_password]", "correct horse battery")
    here.fill("input[name=new_password1]", "a new and better one 42")
    here.fill("input[name=new_password2]", "a new and better one 42")
    here.click("button:has-text('Change password')")
    expect(elsewhere.locator(".messages li")).to_have_text(
        "You are signed out here: signed out elsewhere, or the password was changed. Sign in again"
    )
    assert "/accounts/login/?next=" in elsewhere.locator(".messages li a").get_attribute("href")
    socket_open(other_tab, "/ws/notices/", times=2)  # its socket closed and opened again...
    in_thread(lambda: broadcast.deliver([(broadcast.user_group(alice.pk), broadcast.push({"type": "ping"}))]))
    socket_heard(other_tab, "/ws/notices/", "ping")  # ...signed in: it hears what is sent to alice
    assert other_tab.locator(".messages li").count() == 0
