"""The staff review page and its actions; every action in the audit log; players see nothing."""

import pytest

from fairplay.models import Flag, RatedPlayStop, ReviewAction
from games.lobby import matchmaking
from games.matches.errors import MatchError
from ratings.models import Rating, RatingChange
from ratings.services import rate_match

pytestmark = pytest.mark.django_db


@pytest.fixture
def steward(make_user):
    return make_user("steward", is_staff=True)


@pytest.fixture
def flag(alice, bob):
    chart = {"labels": ["0-250", "250+"], "unit": "share", "series": {"this account": [0.9, 0.1], "people": [0, 1]}}
    evidence = {"right claims": 40, "share under bound": 0.95, "chart": chart}
    return Flag.objects.create(user=alice, kind=Flag.Kind.REACTIONS, game="dobble", score=42, evidence=evidence,
                               matches_seen=3)  # fmt: skip


def test_only_staff_find_the_page_and_the_flagged_player_never_learns_of_it(client, flag, alice, bob):
    for player in (alice, bob):
        client.force_login(player)
        assert client.get("/staff/fair-play/").status_code == 404
        assert client.post(f"/staff/fair-play/{flag.pk}/", {"action": "dismiss"}).status_code == 404
    profile = client.get(f"/accounts/u/{alice.username}/")
    assert profile.status_code == 200 and "faster than people" not in profile.content.decode()
    assert Flag.objects.get().status == Flag.Status.OPEN


def test_staff_see_each_flag_with_its_figures_and_chart(client, flag, steward):
    client.force_login(steward)
    page = client.get("/staff/fair-play/").content.decode()
    assert "alice: Dobble reactions faster than people&#x27;s" in page
    assert "share under bound" in page and "0.95" in page
    assert '<svg xmlns="http://www.w3.org/2000/svg" class="evidence-chart"' in page
    assert "after 3 matches" in page


def test_dismissing_a_flag_is_written_in_the_audit_log(client, flag, steward):
    client.force_login(steward)
    client.post(f"/staff/fair-play/{flag.pk}/", {"action": "dismiss", "note": "a quick player, seen live"})
    flag.refresh_from_db()
    assert flag.status == Flag.Status.DISMISSED
    entry = ReviewAction.objects.get()
    assert (entry.staff, entry.user, entry.kind) == (steward, flag.user, ReviewAction.Kind.DISMISS)
    assert entry.note == "a quick player, seen live"
    assert "a quick player, seen live" in client.get("/staff/fair-play/").content.decode()


def test_voiding_a_match_takes_it_out_of_the_ratings(client, flag, steward, alice, bob, carol, finished_match):
    earlier = finished_match("dudo", [alice, carol], [[0], [1]])
    voided = finished_match("dudo", [alice, bob], [[0], [1]])
    rate_match(earlier.pk)
    rate_match(voided.pk)
    client.force_login(steward)
    assert f'<option value="{voided.pk}">' in client.get("/staff/fair-play/").content.decode()
    client.post(f"/staff/fair-play/{flag.pk}/", {"action": "void", "match": voided.pk})
    assert not RatingChange.objects.filter(match=voided).exists()
    assert Rating.objects.get(user=alice, game="dudo").games == 1  # recomputed without it
    assert not Rating.objects.filter(user=bob, game="dudo", games__gt=0).exists()
    assert ReviewAction.objects.get().match_id == voided.pk


def test_an_account_whose_rated_play_is_stopped_may_not_queue_and_its_results_rate_nobody(
    client, flag, steward, alice, bob, finished_match
):
    from games.matches import tasks

    client.force_login(steward)
    client.post(f"/staff/fair-play/{flag.pk}/", {"action": "stop", "note": "script"})
    assert RatedPlayStop.objects.filter(user=alice).exists()
    with pytest.raises(MatchError, match="may not play rated games"):
        matchmaking.join_queue(alice, "dudo", 2, 1500.0)
    match = finished_match("dudo", [alice, bob], [[0], [1]])
    tasks.settle(match.pk)
    assert not RatingChange.objects.filter(match=match).exists()
    assert ReviewAction.objects.get().kind == ReviewAction.Kind.STOP_RATED
