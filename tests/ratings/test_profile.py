"""The profile partial: rating per game, peak, games, win rate, SVG chart, recent rated matches."""

from django.template.loader import render_to_string
from django.urls import reverse

from ratings.charts import history_svg
from ratings.profile import profile_ratings
from ratings.services import rate_match


def test_the_partial_shows_each_game_with_peak_games_win_rate_and_recent_deltas(finished_match, alice, bob):
    first = finished_match("dudo", [alice, bob], [[0], [1]])
    second = finished_match("dudo", [alice, bob], [[1], [0]])
    rate_match(first.pk)
    rate_match(second.pk)
    rows = profile_ratings(alice)
    assert [(r["name"], r["rating"].games, r["rating"].wins) for r in rows] == [("Dudo", 2, 1)]
    assert [c.match_id for c in rows[0]["recent"]] == [second.pk, first.pk]
    html = render_to_string("ratings/_profile_ratings.html", {"ratings": rows})
    assert 'Dudo</a>: 1498<abbr class="provisional"' in html and ">?</abbr></h3>" in html
    assert "peak 1520 · 2 rated games · 50% won" in html
    entry = f'href="/match/{first.pk}/replay/">1 Jan 2026, 12:01</a>\n          against bob: Won,\n'
    assert entry + "          +20 → 1520<abbr" in html
    assert "<svg" in html and 'class="rating-provisional"' in html


def test_each_recent_change_is_the_difference_of_the_whole_ratings_shown(finished_match, alice, bob, carol):
    """'+24.3 → 1487' read as wrong beside 1463 the game before: the change shown is whole too."""
    for ranking in ([[0], [1]], [[1], [0]], [[0], [1]]):
        rate_match(finished_match("dudo", [alice, bob], ranking).pk)
    rate_match(finished_match("dudo", [alice, carol], [[1], [0]]).pk)
    recent = profile_ratings(alice)[0]["recent"]
    assert any(change.delta != round(change.delta) for change in recent), "a change with a fraction"
    html = render_to_string("ratings/_profile_ratings.html", {"ratings": profile_ratings(alice)})
    for change in recent:
        assert f"{round(change.after) - round(change.before):+d} → {round(change.after)}" in html
    # One rating for players: OpenSkill stays in docs and the API (issue 35: "skill 27.6, give or take 8.1").
    assert "μ" not in html and "skill" not in html and "give or take" not in html and "OpenSkill" not in html


def test_the_partial_says_so_when_there_are_no_rated_games(db, alice):
    assert "No rated games yet." in render_to_string(
        "ratings/_profile_ratings.html", {"ratings": profile_ratings(alice)}
    )


def test_the_profile_page_includes_the_partial(client, finished_match, alice, bob):
    rate_match(finished_match("dudo", [alice, bob], [[1], [0]]).pk)
    html = client.get(reverse("profile", args=["bob"])).content.decode()
    assert 'class="profile-ratings"' in html and "Dudo</a>: 1520" in html


def test_the_chart_is_dashed_while_provisional_and_solid_after():
    svg = history_svg([1500.0 + i for i in range(41)], 30, "Dudo rating")
    assert svg.count("<polyline") == 2
    assert 'class="rating-provisional" fill="none" stroke="#1d70b8" stroke-width="2" stroke-dasharray="6 4"' in svg
    assert 'class="rating-established"' in svg
    assert '<text x="40" y="160" font-size="11" dy="-4">game 0</text>' in svg
    assert ">game 40</text>" in svg and ">1540</text>" in svg and ">1500</text>" in svg


def test_the_chart_of_an_established_player_is_solid_and_labels_are_escaped():
    svg = history_svg([1600.0, 1610.0, 1590.0], 30, "<b>x</b>", first_game=50)
    assert "rating-provisional" not in svg and svg.count("<polyline") == 1
    assert "&lt;b&gt;x&lt;/b&gt;" in svg and "<b>" not in svg
    assert history_svg([1500.0], 30, "one point") == ""


def test_recent_changes_run_in_the_order_they_were_rated_when_a_game_that_ended_first_was_rated_later(
    finished_match, alice, bob
):
    """A profile read "6 rated games ... -> 1552" beside a rating of 1566: its list ran in finishing order."""
    ended_first = finished_match("dudo", [alice, bob], [[0], [1]], minute=1)
    ended_next = finished_match("dudo", [alice, bob], [[0], [1]], minute=2)
    rate_match(ended_next.pk)
    rate_match(ended_first.pk)  # its scoring task was lost and run again later
    row = profile_ratings(alice)[0]
    assert [change.match_id for change in row["recent"]] == [ended_first.pk, ended_next.pk]
    assert row["recent"][0].before == row["recent"][1].after
    assert row["recent"][0].after == row["rating"].elo


def test_the_games_list_says_what_each_ranked_game_did_to_the_rating_or_that_it_was_not_rated(
    client, finished_match, alice, bob
):
    rated = finished_match("dudo", [alice, bob], [[1], [0]])
    rate_match(rated.pk)
    idle = finished_match("dudo", [alice, bob], [[0], [1]], movers=[0])
    rate_match(idle.pk)  # bob made no move of his own
    idle.settled_at = idle.finished_at
    idle.save(update_fields=["settled_at"])
    html = client.get(reverse("profile", args=["bob"])).content.decode()
    games = html[html.index('class="list player-games"') :]
    assert '<td>Lost <span class="muted">· not rated</span></td>' in games
    assert '<td>Won <span class="muted">· +20 → 1520</span></td>' in games
