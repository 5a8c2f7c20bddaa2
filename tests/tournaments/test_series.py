"""Dobble series: the last winner deals next, and the series can rank by mini-games won."""

import pytest
from django.utils import timezone

from games.matches import wakeups
from tournaments import running, services
from tournaments.models import Tournament
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_next_mini_game_starts_with_the_last_winner_and_the_series_can_rank_by_wins(olga, alice):
    cup = Tournament.objects.create(
        name="spot it",
        game="dobble",
        organizer=olga,
        starts_at=timezone.now(),
        format="dobble-series",
        rounds=2,
        series_ranking="wins",
    )
    services.add_house_bot(cup.pk, "hard")
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    running.choose(cup.pk, alice, "the-well")
    second = cup.tables.get(round=2)
    bot = cup.entries.get(user__username="HardBot").pk
    seat_order = running.seat_order_of(cup, second)
    assert second.match.options["last_winner"] == seat_order.index(bot), "alice never claimed: the bot won and deals"
    wakeups.play_out(second.match_id)
    rows = standings(cup)
    assert rows[0]["player"] == "HardBot" and rows[0]["points"] == 2.0 and rows[1]["points"] == 0.0
    assert rows[0]["tiebreaks"][0] > rows[1]["tiebreaks"][0], "the series points come next"


def test_dudab_totals_at_different_table_sizes_are_scaled_so_each_size_averages_the_same(olga):
    from tournaments.models import Score
    from tournaments.standings import size_factors

    cup = Tournament.objects.create(
        name="buba",
        game="dudab",
        organizer=olga,
        starts_at=timezone.now(),
        format="rounds-total",
        table_size=3,
        rounds=1,
    )
    for bot in ["heuristic", "random"] * 2 + ["heuristic"]:
        services.add_house_bot(cup.pk, bot)
    running.start(cup.pk)
    assert sorted(len(t.seating) for t in cup.tables.all()) == [2, 3]
    cup = running.play_out(cup.pk)
    factors = size_factors(cup)
    rows = {row["entry"].pk: row["points"] for row in standings(cup)}
    by_size = {}
    for score in Score.objects.filter(tournament=cup):
        by_size.setdefault(len(score.table.seating), []).append(score.points * factors.get(len(score.table.seating), 1))
        assert rows[score.entry_id] == pytest.approx(score.points * factors.get(len(score.table.seating), 1))
    means = [sum(totals) / len(totals) for totals in by_size.values()]
    assert means[0] == pytest.approx(means[1]), "after scaling, both sizes average the same"
