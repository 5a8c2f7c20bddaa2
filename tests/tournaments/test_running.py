"""Tournaments run end to end: started by the beat tick, every match played through the match
service, scored by the task that hears a match finish, reseated or continued, finished."""

import asyncio
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone

from games.dobble.points import SERIES_OPENER
from games.matches import broadcast, wakeups
from games.matches.errors import MatchError
from games.matches.models import Match
from games.matches.tasks import settle_match
from tournaments import organizing, rounds, running, services
from tournaments.formats import dobble_series
from tournaments.models import Score, Tournament
from tournaments.standings import player_games, standings, tiebreak_labels

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def tournament(olga, game, bots, **fields):
    created = Tournament.objects.create(
        name=f"{game} cup", game=game, organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), **fields
    )
    for bot in bots:
        services.enter_house_bot(created.pk, bot)
    return created


def test_a_swiss_tournament_starts_on_time_and_runs_every_round_to_a_final_standing(olga):
    cup = tournament(olga, "dudo", ["heuristic", "random", "heuristic", "random"], rounds=3)
    assert running.start_due(now=cup.starts_at - timedelta(seconds=5)) == 0
    assert running.start_due() == 1
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.RUNNING and cup.tables.filter(round=1).count() == 2
    cup = running.play_out(cup.pk)
    assert cup.status == Tournament.Status.FINISHED
    assert cup.tables.count() == 6 and not cup.tables.filter(scored=False).exists()
    pairs = [frozenset(table.seating) for table in cup.tables.all()]
    assert len(set(pairs)) == 6, "four players over three rounds never meet twice"
    rows = standings(cup)
    assert sum(row["points"] for row in rows) == 6.0 and all(row["played"] == 3 for row in rows)
    assert [row["place"] for row in rows][0] == 1
    assert rows == sorted(rows, key=lambda row: (-row["points"], -row["tiebreak"]))
    assert all(Match.objects.get(tournament_table__seating=t.seating).ranked for t in cup.tables.all())


def test_a_tournament_played_out_in_simulated_time_moves_on_in_the_order_of_its_games_times(olga):
    """Played ahead of the clock (demo data), a round's game that ended later was scored first, and
    the next round began before it ended: a bot's games list and its rating history disagreed."""
    cup = tournament(olga, "dudo", ["heuristic", "random", "heuristic", "random", "heuristic", "random"], rounds=3)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    matches = {table.round: [] for table in cup.tables.all()}
    for table in cup.tables.select_related("match"):
        matches[table.round].append(table.match)
    for round_number in (2, 3):
        ended = max(match.finished_at for match in matches[round_number - 1])
        assert all(match.started_at >= ended for match in matches[round_number])
    assert cup.finished_at == max(match.finished_at for games in matches.values() for match in games)
    last_round = max(match.finished_at for match in matches[3])
    assert last_round > timezone.now(), "the check means something: the games ran ahead of the clock"


def test_an_odd_field_gives_one_bye_a_round_to_a_different_player_each_time(olga):
    cup = tournament(olga, "dudo", ["heuristic", "random", "heuristic", "random", "heuristic"], rounds=3)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    byes = list(Score.objects.filter(tournament=cup, table=None).values_list("entry_id", "points"))
    assert len(byes) == 3 and len({entry for entry, _ in byes}) == 3 and all(points == 1.0 for _, points in byes)
    assert sum(row["points"] for row in standings(cup)) == 3 * 2 + 3


def test_a_round_robin_meets_everyone_once(olga):
    cup = tournament(olga, "dubito", ["heuristic", "random", "heuristic"], format="round-robin")
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    assert cup.rounds == 3 and cup.status == Tournament.Status.FINISHED
    entries = sorted(cup.entries.values_list("pk", flat=True))
    every_pair = sorted([a, b] for a in entries for b in entries if a < b)
    assert sorted(sorted(t.seating) for t in cup.tables.all()) == every_pair


def test_in_an_odd_round_robin_everyone_sits_out_once_for_nothing(olga):
    cup = tournament(olga, "dubito", ["heuristic", "random", "heuristic"], format="round-robin")
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    out = list(Score.objects.filter(tournament=cup, table=None).values_list("entry_id", "points", "kind"))
    assert sorted(points for _, points, _ in out) == [0.0, 0.0, 0.0] and len({entry for entry, _, _ in out}) == 3
    assert sum(row["points"] for row in standings(cup)) == 3.0, "three games, one point each, nothing for sitting out"
    words = [line.result for lines in rounds.lines(cup).values() for line in lines if not line.table]
    assert len(words) == 3 and all(w.startswith("sits out: ") and w.endswith(", 0 points") for w in words), words
    rows = {row["entry"].pk: row for row in standings(cup)}
    games, _ = player_games(cup)
    sonneborn_berger = [label["name"] for label in tiebreak_labels(cup)].index("sonneborn-berger")
    for entry_id, row in rows.items():  # checkable by hand: the opponents' real points, a sit-out no draw
        by_hand = sum(result * rows[other]["points"] for g in games[entry_id] for other, result in g.against.items())
        assert row["tiebreaks"][sonneborn_berger] == pytest.approx(by_hand), row["player"]


def test_a_round_robin_player_who_withdraws_leaves_each_later_opponent_a_win_by_forfeit(olga):
    cup = tournament(olga, "dubito", ["heuristic", "random", "heuristic", "random"], format="round-robin")
    running.start(cup.pk)
    leaver = cup.entries.order_by("pk").first()
    services.withdraw(cup.pk, olga, leaver.pk)
    cup = running.play_out(cup.pk)
    walkovers = list(Score.objects.filter(tournament=cup, table=None).values_list("round", "points"))
    assert sorted(walkovers) == [(2, 1.0), (3, 1.0)]
    assert all(leaver.pk not in table.seating for table in cup.tables.filter(round__gt=1))
    said = [line.result for number in (2, 3) for line in rounds.lines(cup)[number] if not line.where]
    gone = leaver.user.username
    assert len(said) == 2 and all(f" – {gone} (withdrawn): won by forfeit, 1 point" in words for words in said), said


def test_a_result_heard_twice_counts_once(olga):
    cup = tournament(olga, "dudo", ["heuristic", "random"], rounds=2)
    running.start(cup.pk)
    first = cup.tables.get(round=1).match
    wakeups.play_out(first.pk)
    before = list(Score.objects.values_list("entry_id", "round", "points"))
    assert running.record_match(first.pk) is False
    settle_match.apply((first.pk,))
    assert list(Score.objects.values_list("entry_id", "round", "points")) == before
    assert cup.tables.filter(round=2).count() == 1


def test_too_few_entries_cancel_the_tournament(olga, alice):
    cup = tournament(olga, "doubt-it", ["heuristic"])
    services.enter(cup.pk, alice)
    assert running.start(cup.pk).status == Tournament.Status.CANCELLED
    assert not cup.tables.exists()


@pytest.mark.django_db(transaction=True)
def test_its_entrants_hear_when_too_few_came_and_the_tournament_is_cancelled(client, olga, alice, bob):
    layer = get_channel_layer()
    heard = {user.username: async_to_sync(layer.new_channel)() for user in (alice, bob)}
    for user in (alice, bob):
        async_to_sync(layer.group_add)(broadcast.user_group(user.pk), heard[user.username])
    cup = tournament(olga, "doubt-it", [])
    services.enter(cup.pk, alice)
    services.enter(cup.pk, bob)
    services.withdraw(cup.pk, bob)
    running.start(cup.pk)
    notice = json.loads(async_to_sync(layer.receive)(heard["alice"])["text"])
    assert notice["text"] == f"{cup.name} was cancelled at its start: too few players came (1 of the 3 a table needs). "
    assert notice["link"] == {"href": f"/tournaments/{cup.pk}/", "text": "See the tournament"}
    with pytest.raises(asyncio.TimeoutError):  # bob withdrew before the start: he is no entrant
        async_to_sync(asyncio.wait_for)(layer.receive(heard["bob"]), 0.2)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "too few players came (1 of the 3 a table needs)" in page, "the page says why, too"


@pytest.mark.django_db(transaction=True)  # the notices go out once the cancel is committed
def test_a_cancel_tells_players_still_at_a_table_their_game_plays_on_and_the_others_only_the_cancel(
    olga, alice, bob, carol
):
    cup = tournament(olga, "dudo", [])
    for player in (alice, bob, carol):
        services.enter(cup.pk, player)
    running.start(cup.pk)
    organizing.cancel(olga, cup.pk)
    said = {user.username: [n["text"] for n in broadcast.recent_notices(user.pk)] for user in (alice, bob, carol)}
    sitting_out = [name for name, texts in said.items() if "you have a bye" in texts[0]]
    assert len(sitting_out) == 1, said
    for name, texts in said.items():
        if name in sitting_out:
            assert texts[-1] == "dudo cup was cancelled. ", name
        else:
            assert texts[-1] == (
                "dudo cup was cancelled. Your game of it still under way is played to the end and rated, "
                "but no longer counts. "
            ), name


def test_a_dudab_rounds_total_keeps_the_tables_and_ranks_the_lowest_total_first(olga):
    cup = tournament(olga, "dudab", ["heuristic", "random", "heuristic"], format="rounds-total", table_size=3,
                     rounds=2)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    tables = list(cup.tables.all())
    assert [t.round for t in tables] == [1, 2] and tables[0].seating == tables[1].seating
    assert tables[0].match.seats.get(number=0).user != tables[1].match.seats.get(number=0).user
    rows = standings(cup)
    for row in rows:
        mine = [t.match.result["scores"][str(t.match.seats.get(user=row["entry"].user).number)] for t in tables]
        assert row["points"] == sum(mine)
    assert [row["points"] for row in rows] == sorted(row["points"] for row in rows)


def test_a_dobble_series_opens_with_the_towering_inferno_and_the_loser_chooses_next(olga, alice):
    cup = tournament(olga, "dobble", ["hard"], format="dobble-series", rounds=2)
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    opening = cup.tables.get(round=1)
    assert opening.match.options["mini_game"] == SERIES_OPENER
    wakeups.play_out(opening.match_id)
    pending = cup.tables.get(round=2)
    assert pending.match is None and pending.chooser.user == alice, "alice never claimed, so she lost and chooses"
    with pytest.raises(MatchError):
        dobble_series.choose(cup.pk, alice, "musical-chairs")
    dobble_series.choose(cup.pk, alice, "the-well")
    pending.refresh_from_db()
    assert pending.match.options["mini_game"] == "the-well" and pending.match.status == Match.Status.RUNNING
    wakeups.play_out(pending.match_id)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    rows = standings(cup)
    assert rows[0]["player"] != "alice" and rows[0]["points"] > rows[1]["points"]


def test_a_chooser_who_lets_the_time_run_out_gets_the_least_played_mini_game(olga, alice):
    cup = tournament(olga, "dobble", ["hard"], format="dobble-series", rounds=2)
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    pending = cup.tables.get(round=2)
    assert dobble_series.choose_overdue(now=pending.choose_by - timedelta(seconds=1)) == 0
    assert dobble_series.choose_overdue(now=pending.choose_by) == 1
    pending.refresh_from_db()
    assert pending.match.options["mini_game"] == "the-well", "the first mini-game not yet played, in the rules' order"


def test_an_uploaded_bot_plays_its_tournament_tables_with_its_latest_code(olga, alice):
    from botapi import services as uploaded

    bot, _ = uploaded.create_bot(alice, "Dicey")
    uploaded.upload_code(alice, "Dicey", "def choose(view, legal):\n    return legal[-1]\n", "dudo")
    cup = tournament(olga, "dudo", ["heuristic"], rounds=1)
    services.enter(cup.pk, bot)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    assert cup.status == Tournament.Status.FINISHED
    seat = cup.tables.get().match.seats.get(user=bot)
    assert seat.code_version == 1 and seat.match.actions.filter(seat=seat.number, source="sandbox").exists()
