"""Check-in before the start, late entry and withdrawal between rounds, organizers' corrections."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import wakeups
from games.matches.errors import MatchError
from tournaments import organizing, running, services
from tournaments.models import Score, ScoreCorrection, Tournament
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)


def cup(olga, bots, **fields):
    created = Tournament.objects.create(
        name="club night", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(minutes=5), **fields
    )
    for bot in bots:
        services.enter_house_bot(created.pk, bot)
    return created


def play_round(tournament, number):
    for table in tournament.tables.filter(round=number):
        wakeups.play_out(table.match_id)


def test_players_who_do_not_check_in_are_left_out_at_the_start(olga, alice, bob):
    night = cup(olga, ["heuristic", "random"], check_in_minutes=10)
    services.enter(night.pk, alice)
    services.enter(night.pk, bob)
    with pytest.raises(MatchError, match="Check-in is open from"):
        services.check_in(night.pk, alice, now=night.starts_at - timedelta(minutes=11))
    services.check_in(night.pk, alice, now=night.starts_at - timedelta(minutes=1))
    running.start(night.pk, now=night.starts_at)
    assert sorted(e.user.username for e in night.entries.all()) == ["HeuristicBot", "RandomBot", "alice"]
    assert night.tables.filter(round=1).count() == 1 and Score.objects.filter(kind="bye").count() == 1


def test_a_late_entrant_joins_from_the_next_round_and_a_withdrawn_player_is_not_paired_again(
    olga, alice, bob, client
):
    night = cup(olga, ["heuristic", "random", "heuristic", "random"], rounds=3, late_entry_rounds=2, no_show_minutes=0)
    running.start(night.pk, now=night.starts_at)
    services.enter(night.pk, alice)  # the clock plays for her (no-show time 0): she stays in
    services.enter_house_bot(night.pk, "heuristic")
    play_round(night, 1)
    assert {e for t in night.tables.filter(round=2) for e in t.seating} >= {night.entries.get(user=alice).pk}, (
        "alice plays from round 2"
    )
    leaving = night.entries.get(user__username="RandomBot")
    services.withdraw(night.pk, leaving.user)
    with pytest.raises(MatchError, match="closed"):
        services.enter(night.pk, bob)
    client.force_login(bob)
    assert "Late entry closed when round 2 was seated." in client.get(f"/tournaments/{night.pk}/").content.decode()
    play_round(night, 2)
    assert leaving.pk not in {e for t in night.tables.filter(round=3) for e in t.seating}
    row = next(r for r in standings(night) if r["entry"].pk == leaving.pk)
    assert row["withdrawn"] and row["played"] == 2


@pytest.mark.parametrize(("rule", "missed_points"), [(0.5, [0.5, 0.5]), (0.0, [0.0, 0.0])])
def test_a_late_entrant_gets_the_organizers_bye_for_each_round_missed(client, olga, alice, rule, missed_points):
    night = cup(olga, ["heuristic", "random", "heuristic"], rounds=4, late_entry_rounds=3, late_entry_points=rule)
    running.start(night.pk, now=night.starts_at)
    play_round(night, 1)
    services.enter(night.pk, alice)  # round 2 is seated: alice missed rounds 1 and 2
    late = night.entries.get(user=alice)
    missed = Score.objects.filter(entry=late).order_by("round")
    assert [s.points for s in missed] == missed_points and {s.kind for s in missed} == {"late"}
    assert not missed.filter(round=3).exists()
    play_round(night, 2)
    assert late.pk in {e for t in night.tables.filter(round=3) for e in t.seating}
    row = next(r for r in standings(night) if r["entry"].pk == late.pk)
    assert row["missed"] == 2 and row["played"] == 0 and row["points"] == sum(missed_points)
    page = client.get(f"/tournaments/{night.pk}/").content.decode()
    assert "entered late" in page
    rule_words = "half a point" if rule else "no points"
    assert f"Entered late: {rule_words} for each round played before the entry" in page


def test_a_latecomer_enters_while_the_organizer_has_paused_between_rounds(client, olga, alice):
    """An arbiter admits a latecomer in the pause: the page says late entry is open and till when."""
    night = cup(olga, ["heuristic", "random", "heuristic"], rounds=4, late_entry_rounds=3, late_entry_points=0.5)
    client.force_login(alice)
    before = client.get(f"/tournaments/{night.pk}/").content.decode()
    assert "Late entry is open until round 3 is seated" in before and "0.5 points for each round" in before
    running.start(night.pk, now=night.starts_at)
    organizing.pause(olga, night.pk)
    play_round(night, 1)
    page = client.get(f"/tournaments/{night.pk}/").content.decode()
    assert "Enter late (from the next round)" in page
    client.post(f"/tournaments/{night.pk}/entry/")
    late = night.entries.get(user=alice)
    assert list(Score.objects.filter(entry=late).values_list("round", "points")) == [(1, 0.5)], "one round missed"
    organizing.resume(olga, night.pk)
    assert late.pk in {e for t in night.tables.filter(round=2) for e in t.seating}


def test_an_organizer_corrects_a_result_and_the_change_is_on_record(olga, alice):
    night = cup(olga, ["heuristic", "random"], rounds=2)
    running.start(night.pk, now=night.starts_at)
    table = night.tables.get(round=1)
    wakeups.play_out(table.match_id)
    winner, loser = sorted(Score.objects.filter(table=table), key=lambda s: -s.points)
    with pytest.raises(MatchError, match="Only the tournament's organizer"):
        services.correct_result(table.pk, alice, {winner.entry_id: 0, loser.entry_id: 1}, "appeal")
    with pytest.raises(MatchError, match="Say why"):
        services.correct_result(table.pk, olga, {winner.entry_id: 0, loser.entry_id: 1}, " ")
    with pytest.raises(MatchError, match="from 0 .* to 1"):
        services.correct_result(table.pk, olga, {winner.entry_id: 7, loser.entry_id: 1}, "typo")
    with pytest.raises(MatchError, match="gives 1 point in all; these add up to 2"):
        services.correct_result(table.pk, olga, {winner.entry_id: 1, loser.entry_id: 1}, "both won?")
    with pytest.raises(MatchError, match="points are 0, 0.5 or 1: 0.3 is not a result"):
        services.correct_result(table.pk, olga, {winner.entry_id: 0.3, loser.entry_id: 0.7}, "typo")
    services.correct_result(table.pk, olga, {winner.entry_id: 0.5, loser.entry_id: 0.5}, "Illegal bid accepted")
    correction = ScoreCorrection.objects.get()
    assert correction.by == olga and correction.reason == "Illegal bid accepted"
    assert correction.before == {str(winner.entry_id): 1.0, str(loser.entry_id): 0.0}
    assert sorted(Score.objects.filter(table=table).values_list("points", flat=True)) == [0.5, 0.5]
    services.correct_result(table.pk, olga, {winner.entry_id: 0, loser.entry_id: 1}, "The bid was illegal")
    Tournament.objects.filter(pk=night.pk).update(tiebreaks=["wins"])
    rows = {row["entry"].pk: row for row in standings(Tournament.objects.get(pk=night.pk))}
    assert rows[loser.entry_id]["points"] == 1 and rows[winner.entry_id]["points"] == 0
    assert (rows[loser.entry_id]["tiebreak"], rows[winner.entry_id]["tiebreak"]) == (1, 0), "wins read the correction"


def test_a_knockout_result_is_not_corrected_after_it_decided_who_went_through(olga):
    night = cup(olga, ["heuristic", "random"], format="knockout")
    running.start(night.pk, now=night.starts_at)
    table = night.tables.filter(round=1).exclude(match=None).first()
    wakeups.play_out(table.match_id)
    table.refresh_from_db()
    with pytest.raises(MatchError, match="knockout's results decided who went through"):
        services.correct_result(table.pk, olga, dict.fromkeys(table.seating, 0.5), "appeal")


def test_a_dobble_series_player_cannot_walk_out_of_the_series(olga, alice):
    night = Tournament.objects.create(
        name="spot it", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2
    )
    services.enter_house_bot(night.pk, "hard")
    services.enter(night.pk, alice)
    running.start(night.pk, now=night.starts_at)
    with pytest.raises(MatchError, match="no longer withdraw once the tournament has started: a series keeps"):
        services.withdraw(night.pk, alice)


def test_an_entrant_is_told_to_check_in_when_the_tournament_asks_for_it(client, olga, alice):
    night = cup(olga, ["random"], check_in_minutes=10)
    client.force_login(alice)
    page = client.post(f"/tournaments/{night.pk}/entry/", follow=True).content.decode()
    opens = night.starts_at - timedelta(minutes=10)
    assert f"Check in on this page between {opens:%H:%M} and the start at {night.starts_at:%H:%M} UTC" in page

