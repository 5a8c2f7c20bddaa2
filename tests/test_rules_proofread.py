"""Issue 35: the rules pages proofread (lists formatted, no words of another game or of mathematicians,
no bot class names) and the table pages name a match by its players, not by a number."""

import re

import pytest

from games.engine import GAMES
from games.lobby import tables
from tests.test_player_pages import article

pytestmark = pytest.mark.django_db
JARGON = re.compile(r"RandomBot|HeuristicBot|projective|order 7|#\d", re.I)
# Our own Markdown files rendered: the same on any stack, so CI's real-stack pass leaves them to its embedded pass.


@pytest.mark.once  # documents only
@pytest.mark.parametrize("slug", sorted(GAMES))
def test_a_rules_page_formats_every_list_and_names_no_bot_class_or_mathematics(client, slug):
    text = article(client.get(f"/rules/{slug}/").content.decode())
    unformatted = [p for p in re.findall(r"<p>(.*?)</p>", text, re.S) if re.search(r"\n(- |\d+\. )", p)]
    assert unformatted == []
    assert not JARGON.search(text), JARGON.search(text)


@pytest.mark.once  # documents only
def test_dubitos_rules_speak_of_no_doubts_or_bluffs_it_does_not_have(client):
    text = article(client.get("/rules/dubito/").content.decode())
    assert not re.search(r"doubt|bluff", text, re.I)


def test_the_table_and_its_replay_are_named_by_their_players_not_by_a_number(client, alice):
    match = tables.play_the_computer(alice, "dudo", "random", 2, {"dice": 1}, "3+2")
    client.force_login(alice)
    for url in (f"/match/{match.pk}/", "/play/dudo/"):
        html = client.get(url).content.decode()
        assert "alice v RandomBot" in html and f"#{match.pk}" not in html, url
