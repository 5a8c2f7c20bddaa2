"""Leaderboard pages and queries: places, ties, humans/bots filters, pagination, query counts."""

import pytest
from django.urls import reverse

from ratings import ladders
from ratings.models import HighScore, Rating


@pytest.fixture
def ladder(make_user):
    """dudo: h0 1700, b1 1650 (bot), h2 1600, b3 1600 (bot), h4 1500 ... 12 accounts, 50 points apart
    but a tie, all established; then three provisional ones at the top: p12 1900 (3 games), p13 1850
    (40 games but sigma still 6), p14 1800 (29 games)."""
    users = []
    for i in range(12):
        user = make_user(f"{'b' if i % 2 else 'h'}{i}", is_bot=bool(i % 2))
        elo = 1700 - 50 * i + (50 if i == 3 else 0)
        Rating.objects.create(
            user=user, game="dudo", elo=elo, peak=elo, games=40, sigma=4.0, is_bot=user.is_bot, established_opponents=10
        )
        users.append(user)
    for i, (elo, games, sigma) in enumerate([(1900, 3, 7.0), (1850, 40, 6.0), (1800, 29, 4.9)], start=12):
        user = make_user(f"p{i}")
        Rating.objects.create(
            user=user, game="dudo", elo=elo, peak=elo, games=games, sigma=sigma, established_opponents=10
        )
        users.append(user)
    return users


def names(queryset):
    return [r.user.username for r in queryset]


def test_the_ladder_is_best_first_and_ties_go_in_account_order(ladder):
    assert names(ladders.ladder("dudo")[:5]) == ["h0", "b1", "h2", "b3", "h4"]


def test_places_count_those_above_and_tied_accounts_created_earlier(ladder):
    assert ladders.position("dudo", ladder[0]) == (1, Rating.objects.get(user=ladder[0]))
    assert ladders.position("dudo", ladder[3])[0] == 4
    assert ladders.position("dudo", ladder[11])[0] == 12


def test_the_filters_keep_humans_or_bots_and_places_follow(ladder):
    assert names(ladders.ladder("dudo", "humans")) == ["h0", "h2", "h4", "h6", "h8", "h10"]
    assert names(ladders.ladder("dudo", "bots"))[:2] == ["b1", "b3"]
    assert ladders.position("dudo", ladder[3], "bots")[0] == 2
    assert ladders.position("dudo", ladder[4], "humans")[0] == 3
    assert ladders.position("dudo", ladder[4], "bots") is None


def test_the_page_shows_places_and_the_viewers_place(client, ladder, monkeypatch):
    monkeypatch.setattr(ladders, "PAGE_SIZE", 5)
    client.force_login(ladder[7])
    response = client.get(reverse("leaderboard", args=["dudo"]), {"page": 2})
    assert response.status_code == 200
    assert [r.user.username for r in response.context["page"]] == ["b5", "h6", "b7", "h8", "b9"]
    assert response.context["first_place"] == 6
    assert response.context["mine"][0] == 8 and response.context["my_page"] == 2
    html = response.content.decode()
    assert "You are <strong>#8</strong> with 1350" in html
    assert '<tr class="me"><td>8</td>' in html
    assert 'class="provisional"' not in html


def test_provisional_ratings_are_off_the_ladder_and_their_owner_sees_theirs_marked(client, ladder):
    """A bot with 4 provisional games topped the Dudo leaderboard: only established ratings (30 rated
    games and sigma at most 5) are ranked, on every page and in the API."""
    assert names(ladders.ladder("dudo")[:2]) == ["h0", "b1"]
    assert ladders.position("dudo", ladder[12]) == (None, Rating.objects.get(user=ladder[12]))
    client.force_login(ladder[13])
    response = client.get(reverse("leaderboard", args=["dudo"]))
    html = response.content.decode()
    assert len(response.context["page"]) == 12 and "/u/p12/" not in html and "/u/p14/" not in html
    assert 'Your rating: <strong>1850<abbr class="provisional" title="provisional">?</abbr></strong>' in html
    assert "Only established ratings are ranked: at least 30 rated games" in html
    index = client.get(reverse("leaderboards")).content.decode()
    assert "/u/p12/" not in index and 'You: 1850<abbr class="provisional" title="provisional">?</abbr>' in index
    assert "/u/p12/" not in client.get("/").content.decode()
    api = client.get("/api/leaderboards/dudo/").json()
    assert api["count"] == 12 and api["results"][0]["player"] == "h0"
    assert client.get("/api/ratings/p14/").json()["results"][0]["place"] is None


def test_the_page_filters_bots(client, ladder):
    response = client.get(reverse("leaderboard", args=["dudo"]), {"kind": "bots"})
    assert [r.user.username for r in response.context["page"]] == ["b1", "b3", "b5", "b7", "b9", "b11"]
    assert response.context["mine"] is None


def test_an_unknown_kind_shows_everyone_and_an_unknown_game_is_404(client, ladder):
    assert client.get(reverse("leaderboard", args=["dudo"]), {"kind": "aliens"}).context["kind"] == "all"
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404


def test_the_page_runs_the_same_queries_whatever_the_ladder_size(client, ladder, make_user, django_assert_num_queries):
    client.force_login(ladder[5])
    client.get(reverse("leaderboard", args=["dudo"]))  # warm the session
    # session, user, count, page, its accounts, own rating, above, tied, the header's challenges
    with django_assert_num_queries(9):
        client.get(reverse("leaderboard", args=["dudo"]))
    for i in range(40):
        user = make_user(f"extra{i}")
        Rating.objects.create(user=user, game="dudo", elo=1000 + i, games=40, sigma=4.0, established_opponents=10)
    with django_assert_num_queries(9):
        client.get(reverse("leaderboard", args=["dudo"]), {"page": 2})


def test_the_index_shows_each_games_top_five_and_my_place(client, ladder, django_assert_max_num_queries):
    client.force_login(ladder[11])
    response = client.get(reverse("leaderboards"))
    assert response.status_code == 200
    dudo = next(b for b in response.context["boards"] if b["engine"].slug == "dudo")
    assert names(dudo["top"]) == ["h0", "b1", "h2", "b3", "h4"]
    assert dudo["mine"][0] == 12
    assert "You: #12, 1150</p>" in response.content.decode()


def test_the_dubito_page_lists_solo_high_scores_best_first(client, finished_match, alice, bob):
    for user, score in [(alice, 30), (bob, 55), (alice, 40)]:
        match = finished_match("dubito", [user], [[0]], scores={"0": score})
        HighScore.objects.create(match=match, user=user, game="dubito", score=score, finished_at=match.finished_at)
    response = client.get(reverse("leaderboard", args=["dubito"]))
    assert [(s.user.username, s.score) for s in response.context["high_scores"]] == [
        ("bob", 55),
        ("alice", 40),
        ("alice", 30),
    ]
    assert "Solo high scores" in response.content.decode()


def test_dobble_ranks_people_apart_from_bots_unless_asked(client, ladder):
    for rating in Rating.objects.filter(game="dudo"):
        Rating.objects.create(
            user=rating.user, game="dobble", elo=rating.elo, games=rating.games, sigma=rating.sigma,
            established_opponents=rating.established_opponents,
            is_bot=rating.is_bot,
        )  # fmt: skip
    page = client.get(reverse("leaderboard", args=["dobble"])).content.decode()
    assert "h0" in page and "b1" not in page
    everyone = client.get(reverse("leaderboard", args=["dobble"]) + "?kind=all").content.decode()
    assert "b1" in everyone
    assert [row["player"] for row in client.get("/api/leaderboards/dobble/").json()["results"]][:2] == ["h0", "h2"]
    assert "b1" in client.get(reverse("leaderboard", args=["dudo"])).content.decode()


def test_every_page_shows_dobble_bots_apart_and_says_so(client, make_user):
    """Dobble ranks people and bots apart: the home page, the leaderboards and the Dobble ladder
    agree on who is listed, and each says the rule in words."""
    bot = make_user("HardBot", is_bot=True)
    Rating.objects.create(
        user=bot, game="dobble", elo=1520, peak=1520, games=30, sigma=4.0, is_bot=True, established_opponents=10
    )
    assert "HardBot" not in client.get("/").content.decode()
    for url in (reverse("leaderboards"), reverse("leaderboard", args=["dobble"])):
        html = client.get(url).content.decode()
        assert "HardBot" not in html and "People only: bots are ranked apart" in html, url
    assert "HardBot" in client.get(reverse("leaderboard", args=["dobble"]), {"kind": "bots"}).content.decode()


def test_a_ladder_with_nobody_established_shows_its_provisional_ratings_apart_best_first(client, make_user):
    """A fresh `make run` showed "No established ratings yet" on every ladder and nothing else: a
    visitor saw no ladder at all. The provisional ratings are listed apart, marked, never ranked."""
    for name, elo, games in [("slow", 1540, 3), ("quick", 1610, 12), ("fresh", 1500, 0)]:
        Rating.objects.create(user=make_user(name), game="dudo", elo=elo, peak=elo, games=games, sigma=7.0)
    page = client.get(reverse("leaderboard", args=["dudo"]))
    html = page.content.decode()
    assert "No established ratings yet." in html and "<h2>Not ranked yet</h2>" in html
    assert names(page.context["not_ranked_yet"]) == ["quick", "slow"], "best first; nobody without a rated game"
    assert '1610<abbr class="provisional" title="provisional">?</abbr>' in html and "12 rated games" in html
    index = client.get(reverse("leaderboards"))
    dudo = next(board for board in index.context["boards"] if board["engine"].slug == "dudo")
    assert names(dudo["not_ranked_yet"]) == ["quick", "slow"] and "<h3>Not ranked yet</h3>" in index.content.decode()
    Rating.objects.create(
        user=make_user("settled"), game="dudo", elo=1400, games=40, sigma=4.0, established_opponents=10
    )
    html = client.get(reverse("leaderboard", args=["dudo"])).content.decode()
    assert "Not ranked yet" not in html and "/u/quick/" not in html, "once anybody is ranked, the ladder alone"
