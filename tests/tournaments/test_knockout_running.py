"""Knockouts run end to end: a seeded best-of-three bracket with byes, and a free-for-all knockout."""

from datetime import timedelta

import pytest
from django.utils import timezone

from tournaments import running, services
from tournaments.models import Score, Tournament
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)


def knockout(olga, game, bots, **fields):
    cup = Tournament.objects.create(
        name=f"{game} knockout",
        game=game,
        organizer=olga,
        starts_at=timezone.now() - timedelta(seconds=1),
        format="knockout",
        **fields,
    )
    for bot in bots:
        services.add_house_bot(cup.pk, bot)
    running.start(cup.pk)
    return running.play_out(cup.pk, max_matches=200)


def test_a_best_of_three_bracket_gives_byes_to_the_top_seeds_and_ends_with_one_champion(olga, client):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 3, best_of=3)
    assert cup.status == Tournament.Status.FINISHED and cup.rounds == 3
    byes = Score.objects.filter(tournament=cup, kind="bye")
    assert sorted(cup.entries.get(pk=b.entry_id).seed for b in byes) == [1, 2], "6 players: seeds 1 and 2 skip round 1"
    for table in cup.tables.filter(round=1).exclude(match=None):
        games = cup.tables.filter(
            round=1, number__gt=(table.number - 1) // 5 * 5, number__lte=(table.number - 1) // 5 * 5 + 5
        )
        assert 2 <= games.count() <= 5
    rows = standings(cup)
    assert rows[0]["points"] == 4.0 and [r["points"] for r in rows].count(4.0) == 1, "one champion"
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Bracket" in page and "(bye)" in page and "Final" in page
    client.force_login(olga)  # a signed-in visitor: the byes' tables have no match and no chooser
    assert "(bye)" in client.get(f"/tournaments/{cup.pk}/").content.decode()


def test_a_free_for_all_knockout_sends_the_top_two_of_each_table_to_the_final(olga):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 4, table_size=4, advance=2)
    assert cup.status == Tournament.Status.FINISHED
    first, final = cup.tables.filter(round=1), cup.tables.filter(round=2)
    assert first.count() == 2 and final.count() == 1 and len(final.get().seating) == 4


def test_an_i_doubt_it_knockout_fills_its_final_table_with_the_best_second_place(olga):
    """Six players at two tables of three, one going through from each: two cannot play I Doubt
    It, so the better of the two second places joins them at the final table."""
    cup = knockout(olga, "doubt-it", ["heuristic", "random"] * 3, table_size=3, advance=1)
    assert cup.status == Tournament.Status.FINISHED
    first, final = cup.tables.filter(round=1), cup.tables.get(round=2)
    winners = {table.seating[table.match.result["ranking"][0][0]] for table in first}
    assert len(final.seating) == 3 and winners < set(final.seating)
    second = (set(final.seating) - winners).pop()
    assert any(table.seating[table.match.result["ranking"][1][0]] == second for table in first)
