"""Bluff statistics of finished matches: stored once per match and account, shown on the profile and the API."""

from collections import Counter

import pytest
from django.urls import reverse

from games.dudo.bluffs import tally
from games.engine import GAMES
from games.matches.models import Match, MatchAction, Seat
from games.matches.tasks import settle
from games.registry import get_bot
from games.simulate import play
from ratings.bluffs import player_bluffs, record_bluffs
from ratings.models import BluffRecord


@pytest.fixture
def played_dudo(alice, bob):
    """A whole Dudo game between two heuristic bots, stored as a finished match of alice and bob."""
    playout = play(GAMES["dudo"], [get_bot("dudo", "heuristic"), get_bot("dudo", "heuristic")], 11)
    match = Match.objects.create(game="dudo", players=2, seed=11, status=Match.Status.FINISHED, seq=len(playout.log))
    Seat.objects.create(match=match, number=0, user=alice)
    Seat.objects.create(match=match, number=1, user=bob)
    MatchAction.objects.bulk_create(
        MatchAction(match=match, seq=seq, seat=seat, action=action, source=MatchAction.Source.BROWSER)
        for seq, (seat, action) in enumerate(playout.log)
    )
    return match, tally(playout.state.history)


def test_a_finished_match_is_counted_once_per_account(played_dudo, alice):
    match, counts = played_dudo
    assert record_bluffs(match.pk) == 2
    record_bluffs(match.pk)
    assert BluffRecord.objects.filter(match=match).count() == 2
    mine = BluffRecord.objects.get(match=match, user=alice)
    assert Counter({f: getattr(mine, f) for f in counts[0]}) == counts[0]


def test_games_without_bluffing_and_unfinished_matches_are_not_counted(alice):
    dobble = Match.objects.create(game="dobble", players=1, seed=1, status=Match.Status.FINISHED)
    running = Match.objects.create(game="dudo", players=2, seed=1, status=Match.Status.RUNNING)
    assert record_bluffs(dobble.pk) == 0
    assert record_bluffs(running.pk) == 0


def test_the_summary_gives_rates_of_what_was_shown(played_dudo, bob):
    match, counts = played_dudo
    record_bluffs(match.pk)
    [row] = player_bluffs(bob)
    mine = counts[1]
    assert row["name"] == "Dudo" and row["matches"] == 1
    assert row["bluff_rate"] == round(mine["bluffs"] / mine["judged"], 3)
    assert row["doubt_accuracy"] == (round(mine["doubts_right"] / mine["doubts"], 3) if mine["doubts"] else None)


def test_profile_and_api_show_the_figures(client, played_dudo, alice):
    match, counts = played_dudo
    record_bluffs(match.pk)
    page = client.get(reverse("profile", args=[alice.username])).content.decode()
    assert "Bluffing and doubting" in page
    assert f"({counts[0]['bluffs']} of {counts[0]['judged']} shown)" in page
    answer = client.get(f"/api/bluffs/{alice.username}/").json()
    assert answer[0]["game"] == "dudo" and answer[0]["claims"] == counts[0]["claims"]


def test_a_profile_without_bluffing_games_has_no_section(client, alice):
    assert "Bluffing and doubting" not in client.get(reverse("profile", args=[alice.username])).content.decode()


def test_settling_a_finished_match_counts_its_bluffs(played_dudo):
    match, _ = played_dudo
    settle(match.pk)
    assert BluffRecord.objects.filter(match=match).count() == 2


def test_a_log_that_does_not_replay_is_skipped_not_fatal(alice, bob):
    match = Match.objects.create(game="dudo", players=2, seed=1, status=Match.Status.FINISHED, seq=1)
    Seat.objects.create(match=match, number=0, user=alice)
    Seat.objects.create(match=match, number=1, user=bob)
    MatchAction.objects.create(match=match, seq=1, seat=0, action={"type": "x"}, source=MatchAction.Source.HOUSE)
    assert record_bluffs(match.pk) == 0


def test_moves_the_server_made_for_a_person_are_not_theirs(played_dudo, alice, bob):
    """Alice's clock ran out on every move; bob left, and a house bot finished for him."""
    match, counts = played_dudo
    match.actions.filter(seat=0).update(source=MatchAction.Source.TIMEOUT)
    match.actions.filter(seat=1).update(source=MatchAction.Source.HOUSE)
    record_bluffs(match.pk)
    for user in (alice, bob):
        mine = BluffRecord.objects.get(match=match, user=user)
        assert (mine.claims, mine.judged, mine.doubts, mine.chances) == (0, 0, 0, 0)
