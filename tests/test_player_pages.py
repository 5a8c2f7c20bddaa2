"""Rules pages and the Bots page speak to players and bot authors; developer notes stay in docs/."""

import re

import pytest

from games.engine import GAMES

pytestmark = pytest.mark.django_db
DEVELOPER_WORDS = re.compile(r"games/|platform/|bubblewrap|docker|namespace|seeded|default_action|\d ?ms\b", re.I)


def article(html: str) -> str:
    return html[html.index("<article") : html.index("</article>")]


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_rules_page_names_options_in_words_and_shows_no_engine_notes(client, slug):
    text = article(client.get(f"/rules/{slug}/").content.decode())
    assert "<code>" not in text and not DEVELOPER_WORDS.search(text), DEVELOPER_WORDS.search(text)
    for name, option in GAMES[slug].options.items():
        assert "_" not in name or name not in text  # "dice" or "jungle" are words too
        if name != "last_winner":  # a tournament sets it; players never choose it
            assert option.label.split(" (")[0] in text


def test_the_bots_page_speaks_to_bot_authors_and_links_the_protocol_pages(client):
    html = client.get("/bots/").content.decode()
    guide = html[html.index('id="bring-your-own"') :]
    assert not re.search(r"bubblewrap|docker|namespace|platform/|(?<!api/)games/", guide, re.I)
    assert "2 seconds" in guide and "standard library only" in guide
    for slug in GAMES:
        assert f'href="/bots/protocol/{slug}/"' in guide
    assert 'href="/bots/protocol/"' in guide and ".md" not in guide


def test_the_bots_page_gives_each_games_time_per_move_in_seconds_and_names_no_setting(client, settings):
    settings.BOT_WEBHOOK_MOVE_SECONDS = {"default": 1, "dudo": 2.5}
    html = client.get("/bots/").content.decode()
    assert "Dudo: 2.5 seconds per move" in html and "Dobble: 1 second per move" in html
    assert "5 failed moves in a row suspend the bot" in html
    assert not re.search(r"BOT_[A-Z_]+|operator may", html)


def test_a_protocol_page_links_to_pages_the_site_has_and_drops_the_others(client):
    html = client.get("/bots/protocol/dudo/").content.decode()
    assert 'href="/rules/dudo/"' in html and "Option keys" in html
    assert not re.search(r'href="[^"]*\.md', html)  # no link to a file the site does not serve
    assert client.get("/bots/protocol/chess/").status_code == 404
    assert 'href="/bots/protocol/dobble/"' in client.get("/bots/protocol/").content.decode()


def test_the_challenge_list_names_games_and_bots_in_words(client, alice):
    client.force_login(alice)
    opponents = client.get("/bots/").context["opponents"]
    assert ("dudo:heuristic", "Dudo: Strong: plays like a careful player (HeuristicBot)") in opponents
    assert ("doubt-it:random", "I Doubt It: Beginner: plays at random (RandomBot and RandomBot2)") in opponents
