"""Rounds without a game in a Swiss, end to end: a stopped game corrected to 0–0 (a double forfeit)
and the rounds a player missed between a withdrawal and being paired again (docs/tournaments.md,
"Tiebreaks" and "Entries, check-in, withdrawals, corrections"). An outside arbiter found the first
counted as a played draw and the second as nothing."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import wakeups
from games.matches.models import Match
from tournaments import organizing, running, services
from tournaments.models import Score, Tournament
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def swiss(olga, rounds: int) -> Tournament:
    cup = Tournament.objects.create(
        name="Stop cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=rounds
    )
    for bot in ("heuristic", "random", "heuristic", "random"):
        services.enter_house_bot(cup.pk, bot)
    return running.start(cup.pk)


def play_round(cup: Tournament, number: int) -> None:
    for table in cup.tables.filter(round=number, match__status=Match.Status.RUNNING):
        wakeups.play_out(table.match_id)


def games_played(cup: Tournament) -> dict[int, list[tuple[int, float]]]:
    """Each entry's games played over the board, read from the scores as an arbiter reads the
    pairings export: (opponent, points scored against them)."""
    found: dict = {}
    for table in cup.tables.all():
        scores = dict(Score.objects.filter(table=table, kind="played").values_list("entry_id", "points"))
        if len(scores) == 2:
            for player, points in scores.items():
                found.setdefault(player, []).extend((other, points) for other in scores if other != player)
    return found


def test_a_stopped_game_corrected_to_0_0_is_a_double_forfeit_no_game_for_either(client, olga):
    """FIDE: a double forfeit is a forfeit loss for both and no game played. Each of the two counts
    round 1 against a stand-in (their own points, at most the other's), adds nothing to
    Sonneborn-Berger for it, drops it first in cut 1, and has not played it."""
    cup = swiss(olga, rounds=3)
    stopped = cup.tables.get(round=1, number=1)
    organizing.stop_table(olga, cup.pk, stopped.pk)
    for number in (1, 2, 3):
        play_round(cup, number)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    first, second = stopped.seating
    services.correct_result(stopped.pk, olga, {first: 0, second: 0}, "neither came back")

    assert set(Score.objects.filter(table=stopped).values_list("kind", flat=True)) == {"forfeited"}
    rows = {row["entry"].pk: row for row in standings(cup)}
    score = {pk: row["points"] for pk, row in rows.items()}
    played = games_played(cup)
    for player, other in ((first, second), (second, first)):
        opponents = sum(score[opponent] for opponent, _ in played[player])
        stand_in = min(score[player], score[other])
        cut_1, buchholz, sonneborn_berger, _ = rows[player]["tiebreaks"]
        assert rows[player]["played"] == 2, "round 1 was no game"
        assert (cut_1, buchholz) == (pytest.approx(opponents), pytest.approx(opponents + stand_in))
        assert sonneborn_berger == pytest.approx(sum(points * score[opponent] for opponent, points in played[player]))

    names = {pk: row["player"] for pk, row in rows.items()}
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "stopped with no result · corrected: 0–0, a double forfeit: no game for either" in page
    assert "counts for nobody" not in page
    for player in (first, second):
        said = page.split(f"<dt>{names[player]}</dt>")[1].split("</dd>")[0]
        assert "Round 1 (double forfeit) counts against a stand-in with" in said
    assert (
        f"{names[first]} not counted → 0, {names[second]} not counted → 0 (a double forfeit: no game for either)"
        in page
    )
    exported = client.get(f"/tournaments/{cup.pk}/pairings.json").json()["pairings"]
    round_1 = next(line for line in exported if line["match"] == stopped.match_id)
    assert [seat["kind"] for seat in round_1["seats"]] == ["forfeited", "forfeited"]


def test_a_round_missed_before_being_paired_again_counts_against_a_stand_in_with_the_players_own_points(
    client, olga
):
    """Withdrawn during round 1, paired again for round 3: round 2 is a round missed (FIDE: a
    zero-point bye), which counts against a stand-in with the player's own points (at most half a
    point a round) and is cut first; the page lists it."""
    cup = swiss(olga, rounds=3)
    leaving = cup.entries.select_related("user").get(pk=cup.tables.get(round=1, number=1).seating[0])
    services.withdraw(cup.pk, olga, leaving.pk)
    table = cup.tables.get(round=1, number=1)
    play_round(cup, 1)
    other = next(pk for pk in table.seating if pk != leaving.pk)
    services.correct_result(table.pk, olga, {leaving.pk: 1, other: 0}, "a win, so the stand-in has points")
    assert cup.tables.filter(round=2).exists() and not any(
        leaving.pk in table.seating for table in cup.tables.filter(round=2)
    )
    organizing.pair_again(olga, cup.pk, leaving.pk)
    play_round(cup, 2)
    play_round(cup, 3)
    assert any(leaving.pk in table.seating for table in cup.tables.filter(round=3)), "paired again"

    row = next(row for row in standings(cup) if row["entry"].pk == leaving.pk)
    score = {row["entry"].pk: row["points"] for row in standings(cup)}
    opponents = sum(score[opponent] for opponent, _ in games_played(cup)[leaving.pk])
    stand_in = min(score[leaving.pk], 0.5 * 3)
    cut_1, buchholz, *_ = row["tiebreaks"]
    assert (cut_1, buchholz) == (pytest.approx(opponents), pytest.approx(opponents + stand_in))
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    said = page.split(f"<dt>{leaving.user.username}</dt>")[1].split("</dd>")[0]
    assert "Round 2 (missed) counts against a stand-in with" in said
    # The round list, the round sheet and the pairings export show it as the standings count it.
    said = f"Withdrawn, not paired: {leaving.user.username}, 0 points"
    round_2 = page.split('id="round-2"')[1].split("</ul>")[0]
    assert said in round_2 and page.count(said) == 1, "round 2 only"
    assert f"{said} (no game)." in client.get(f"/tournaments/{cup.pk}/round/2/").content.decode()
    exported = client.get(f"/tournaments/{cup.pk}/pairings.json").json()["pairings"]
    missed = [line for line in exported if line["seats"][0]["player"] == leaving.user.username and not line["match"]]
    assert [(line["round"], line["seats"][0]["points"], line["seats"][0]["kind"]) for line in missed] == [
        (2, 0.0, "missed")
    ]
    assert missed[0]["result"] == said[0].lower() + said[1:]
    csv = client.get(f"/tournaments/{cup.pk}/pairings.csv").content.decode()
    assert f"2,,{leaving.user.username}," in csv and said[0].lower() + said[1:] in csv
