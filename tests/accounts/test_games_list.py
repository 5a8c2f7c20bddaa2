"""A player's past games: the profile's latest ten and the games page with every one, a page at a time."""

import re
from datetime import datetime, timedelta

import pytest
from django.utils import timezone

from games.matches.models import Match, Seat

pytestmark = pytest.mark.django_db
START = timezone.make_aware(datetime(2026, 3, 1, 18, 0))


def ended(users, ranking, *, minute=0, game="dudo", status="finished", ranked=False, resigned=(), scores=None):
    """A match that ended `minute` minutes after START, its seats taken by `users` in order."""
    at = START + timedelta(minutes=minute)
    match = Match.objects.create(
        game=game, players=len(users), seed=1, ranked=ranked, status=status, started_at=at - timedelta(minutes=5),
        finished_at=at, result={"ranking": ranking, "scores": scores or {}, "forfeited": list(resigned)},
    )  # fmt: skip
    for number, user in enumerate(users):
        gone = at if number in resigned else None
        Seat.objects.create(match=match, number=number, user=user, forfeited_at=gone, resigned=number in resigned)
    return match


def rows(html: str) -> list[str]:
    """Each row of the games table, its cells' words joined by " | "."""
    body = html[html.index('class="list player-games"') :]
    body = body[: body.index("</table>")]
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, re.S)[1:]:
        cells = re.findall(r"<td>(.*?)</td>", row, re.S)
        found.append(" | ".join(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", cell)).strip() for cell in cells))
    return found


def test_the_profile_lists_each_game_with_the_others_and_how_it_went_in_words(client, alice, bob, carol, make_user):
    dave = make_user("dave")
    ended([alice, bob], [[0], [1]], minute=1, ranked=True)
    ended([bob, alice], [[0], [1]], minute=2)
    ended([alice, bob, carol, dave], [[2], [0], [1, 3]], minute=3, game="doubt-it")
    ended([alice, bob, carol], [[0, 2], [1]], minute=4, game="dubito")
    ended([alice, bob], [[0, 1]], minute=5)
    ended([alice, bob], [[1], [0]], minute=6, resigned=[0])
    ended([alice, carol], [[0], [1]], minute=7, status="aborted")
    ended([alice], [[0]], minute=8, game="dubito", scores={"0": 42})
    ended([alice, bob, carol], [[0], [2], [1]], minute=9, game="doubt-it", resigned=[1])  # they played on
    Match.objects.create(game="dudo", players=2, seed=1, status="running")  # not over: not listed

    html = client.get("/accounts/u/alice/").content.decode()

    bobs = rows(client.get("/accounts/u/bob/").content.decode())
    assert bobs[:2] == [
        "I Doubt It · casual | 1 Mar 2026, 18:09 | alice, carol | 3rd of 3, resigned | Replay",
        "Dudo · casual | 1 Mar 2026, 18:06 | alice | Won (alice resigned) | Replay",  # her resigning ended it
    ]
    assert rows(html) == [
        "I Doubt It · casual | 1 Mar 2026, 18:09 | bob, carol | Won | Replay",
        "Dubito · casual | 1 Mar 2026, 18:08 | alone | Scored 42 | Replay",
        "Dudo · casual | 1 Mar 2026, 18:07 | carol | Stopped, no result | Table",
        "Dudo · casual | 1 Mar 2026, 18:06 | bob | Lost, resigned | Replay",
        "Dudo · casual | 1 Mar 2026, 18:05 | bob | Drew | Replay",
        "Dubito · casual | 1 Mar 2026, 18:04 | bob, carol | =1st of 3 | Replay",
        "I Doubt It · casual | 1 Mar 2026, 18:03 | bob, carol, dave | 2nd of 4 | Replay",
        "Dudo · casual | 1 Mar 2026, 18:02 | bob | Lost | Replay",
        "Dudo · ranked | 1 Mar 2026, 18:01 | bob | Won | Replay",
    ]
    assert '<th scope="col">alice</th>' in html and "All 9 games" not in html
    assert '<a href="/accounts/u/carol/">carol</a>' in html


def test_the_profile_shows_the_latest_ten_and_links_every_game_a_page_at_a_time(client, alice, bob):
    for minute in range(53):
        ended([alice, bob], [[minute % 2], [1 - minute % 2]], minute=minute)

    profile = client.get("/accounts/u/bob/").content.decode()
    assert len(rows(profile)) == 10 and rows(profile)[0].startswith("Dudo · casual | 1 Mar 2026, 18:52 | alice | Lost")
    assert '<a href="/accounts/u/bob/games/">All 53 games</a>' in profile

    first = client.get("/accounts/u/bob/games/").content.decode()
    assert "53 games, the latest first · page 1 of 2." in first and len(rows(first)) == 50
    assert 'id="game-filter"' not in first, "one game played: nothing to choose"
    assert '<a href="?page=2" rel="next">Earlier games</a>' in first and "Later games" not in first
    last = client.get("/accounts/u/bob/games/?page=2").content.decode()
    ends = [row.split(" | ")[1] for row in rows(last)]
    assert ends == ["1 Mar 2026, 18:02", "1 Mar 2026, 18:01", "1 Mar 2026, 18:00"]
    assert '<a href="?page=1" rel="prev">Later games</a>' in last and "Earlier games" not in last
    assert client.get("/accounts/u/bob/games/?page=zzz").status_code == 200  # the first page


def test_the_games_page_shows_one_game_at_a_time_and_its_pages_keep_to_it(client, alice, bob):
    for minute in range(55):
        ended([alice, bob], [[0], [1]], minute=minute, game="doubt-it" if minute < 52 else "dudo")
    ended([alice], [[0]], minute=60, game="dobble", scores={"0": 7})

    every = client.get("/accounts/u/bob/games/").content.decode()
    assert re.findall(r'<a href="\?(game=[a-z-]+)?"[^>]*>([^<]+)</a>', every) == [
        ("", "All games (55)"), ("game=dudo", "Dudo (3)"), ("game=doubt-it", "I Doubt It (52)"),
    ]  # fmt: skip
    assert '<a href="?" aria-current="page">All games (55)</a>' in every
    doubt_it = client.get("/accounts/u/bob/games/?game=doubt-it").content.decode()
    assert "52 games of I Doubt It, the latest first · page 1 of 2." in doubt_it
    assert {row.split(" | ")[0] for row in rows(doubt_it)} == {"I Doubt It · casual"}
    assert '<a href="?game=doubt-it&amp;page=2" rel="next">Earlier games</a>' in doubt_it
    second = client.get("/accounts/u/bob/games/?game=doubt-it&page=2").content.decode()
    assert len(rows(second)) == 2 and '<a href="?game=doubt-it&amp;page=1" rel="prev">' in second
    assert "55 games, the latest first" in client.get("/accounts/u/bob/games/?game=chess").content.decode()
    solo = client.get("/accounts/u/alice/games/?game=dobble").content.decode()
    assert "1 game of Dobble, the latest first." in solo and "Dobble (1)" in solo


def test_someone_with_no_finished_game_is_told_so(client, alice, bob):
    client.force_login(alice)
    assert "You have not finished a game yet." in client.get("/accounts/u/alice/").content.decode()
    assert "You have not finished a game yet." in client.get("/accounts/u/alice/games/").content.decode()
    assert "bob has not finished a game yet." in client.get("/accounts/u/bob/games/").content.decode()
    assert client.get("/accounts/u/nobody/games/").status_code == 404
