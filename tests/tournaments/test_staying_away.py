"""Staying away never beats playing badly, also after a series' points are evened out across
table sizes (an organizer's Dobble and Dudab Buba events ranked players who never came above
players who played)."""

import pytest
from django.utils import timezone

from tournaments import scoring, services
from tournaments.formats.dobble_series import shifted_series_points
from tournaments.formats.rounds_total import normalised_totals
from tournaments.models import Score, Table, Tournament

pytestmark = pytest.mark.django_db


def event(olga, game: str, format: str, results: list[list[tuple[float, str]]], **fields):
    """One round of tables (their sizes from `results`), each seat's (points, kind) scored; the
    entries' ids in seat order, table by table."""
    cup = Tournament.objects.create(
        name="Cup", game=game, format=format, organizer=olga, starts_at=timezone.now(), rounds=1, **fields
    )
    entries = [services.enter_house_bot(cup.pk, "random").pk for table in results for _ in table]
    seated = iter(entries)
    for number, table in enumerate(results, start=1):
        seats = [next(seated) for _ in table]
        placed = Table.objects.create(
            tournament=cup, round=1, number=number, seating=seats, mini_game="towering-inferno", scored=True
        )
        for entry_id, (points, kind) in zip(seats, table, strict=True):
            Score.objects.create(tournament=cup, entry_id=entry_id, round=1, table=placed, points=points, kind=kind)
    return cup, entries


def test_a_dobble_forfeit_at_a_big_table_is_no_better_than_the_worst_game_played(olga):
    played, forfeited = scoring.PLAYED, scoring.FORFEITED
    cup, (a, b, absent, c, d) = event(
        olga, "dobble", "dobble-series", [[(2, played), (1, played), (0, forfeited)], [(12, played), (5, played)]],
        table_size=3,
    )  # fmt: skip
    value, _ = shifted_series_points(cup)
    assert value[absent] <= min(value[a], value[b], value[c], value[d]), value
    assert value[d] == pytest.approx(1.5), "the averages are of the games played: (2+1+12+5)/4 - 8.5 + 5"


def test_a_dudab_forfeit_scaled_at_a_small_table_is_no_better_than_the_worst_total_played(olga):
    played, forfeited = scoring.PLAYED, scoring.FORFEITED
    three = [(300, played), (480, played), (480, forfeited)]
    four = [(200, played), (250, played), (300, played), (470, played)]
    cup, (a, b, absent, c, d, e, f) = event(
        olga, "dudab", "rounds-total", [three, four], table_size=4, size_factors={"3": 0.9, "4": 1.0}
    )
    totals = normalised_totals(cup)
    assert totals[absent] >= max(totals[x] for x in (a, b, c, d, e, f)), totals
    assert totals[b] == pytest.approx(432.0) and totals[f] == pytest.approx(470.0)
