"""Dobble series: the last winner deals next, and the series can rank by mini-games won."""

import asyncio
import csv
import json
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.utils import timezone
from rest_framework.test import APIClient

from botapi import services as bots_api
from games.matches import broadcast, lifecycle, wakeups
from games.matches.models import Match
from tournaments import running, services, size_scale
from tournaments.formats import dobble_series
from tournaments.models import Score, Table, Tournament
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
    services.enter_house_bot(cup.pk, "hard")
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    dobble_series.choose(cup.pk, alice, "the-well")
    second = cup.tables.get(round=2)
    bot = cup.entries.get(user__username="HardBot").pk
    seat_order = running.seat_order_of(cup, second)
    assert second.match.options["last_winner"] == seat_order.index(bot), "alice never claimed: the bot won and deals"
    wakeups.play_out(second.match_id)
    rows = standings(cup)
    assert rows[0]["player"] == "HardBot" and rows[0]["points"] == 2.0 and rows[1]["points"] == 0.0
    assert rows[0]["tiebreaks"][0] > rows[1]["tiebreaks"][0], "the series points come next"


def test_dudab_totals_at_different_table_sizes_are_scaled_by_the_rules_not_by_the_field(olga):
    """The factors come from games of equal bots with the tournament's options, measured at the
    start: the same for two fields of different strength (an outside tester saw the event's own
    averages reward the weaker table), and every total scaled by its size's factor."""
    from tournaments.formats.rounds_total import size_factors
    from tournaments.models import Score

    def rounds_total(bots):
        cup = Tournament.objects.create(
            name=f"buba {bots[0]}", game="dudab", organizer=olga, starts_at=timezone.now(), format="rounds-total",
            table_size=3, rounds=1,
        )  # fmt: skip
        for bot in bots:
            services.enter_house_bot(cup.pk, bot)
        running.start(cup.pk)
        return running.play_out(cup.pk)

    strong, weak = rounds_total(["heuristic"] * 5), rounds_total(["random"] * 5)
    assert sorted(len(t.seating) for t in strong.tables.all()) == [2, 3]
    factors = size_factors(strong)
    assert factors == size_factors(weak) and set(factors) == {2}, "the largest tables are the reference"
    expected = size_scale.mean_total({}, 3) / size_scale.mean_total({}, 2)
    assert factors[2] == pytest.approx(expected, abs=1e-3)
    rows = {row["entry"].pk: row["points"] for row in standings(strong)}
    for score in Score.objects.filter(tournament=strong):
        assert rows[score.entry_id] == pytest.approx(score.points * factors.get(len(score.table.seating), 1))


def test_a_rounds_total_before_a_player_s_first_game_ends_is_no_total_not_the_best_one(olga, client):
    """Lowest total wins, so a player with no finished game (total 0 so far) must not lead."""
    cup = Tournament.objects.create(
        name="early buba", game="dudab", organizer=olga, starts_at=timezone.now(), format="rounds-total",
        table_size=3, rounds=2,
    )  # fmt: skip
    for bot in ["heuristic", "random"] * 3:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    first = cup.tables.filter(round=1).order_by("number").first()
    wakeups.play_out(first.match_id)
    running.record_match(first.match_id)
    rows = standings(Tournament.objects.get(pk=cup.pk))
    played = [row for row in rows if row["entry"].pk in first.seating]
    waiting = [row for row in rows if row["entry"].pk not in first.seating]
    assert all(row["points"] is not None for row in played) and all(row["points"] is None for row in waiting)
    assert max(row["place"] for row in played) < min(row["place"] for row in waiting)
    assert "no game yet" in client.get(f"/tournaments/{cup.pk}/").content.decode()


def test_a_dobble_series_at_tables_of_three_and_four_shifts_each_mini_game_s_points_per_size(olga, client):
    """Seven players: a table of four and one of three, which deals each player more cards.
    Each size's players average the same once shifted, and the page says by how much."""
    cup = Tournament.objects.create(
        name="mixed dobble", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series",
        table_size=4, rounds=1,
    )  # fmt: skip
    for bot in ["hard", "easy"] * 3 + ["hard"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    assert sorted(len(t.seating) for t in cup.tables.all()) == [3, 4]
    cup = running.play_out(cup.pk)
    rows = {row["entry"].pk: row["points"] for row in standings(cup)}
    means = []
    for table in cup.tables.all():
        raw = dict(cup.scores.filter(table=table).values_list("entry_id", "points"))
        means.append(sum(rows[e] for e in raw) / len(raw))
        shift = rows[next(iter(raw))] - raw[next(iter(raw))]
        assert all(rows[e] - raw[e] == pytest.approx(shift) for e in raw), "one shift for a whole table"
    assert means[0] == pytest.approx(means[1]), "after the shift both sizes average the same"
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Towering Inferno points at 3-player tables" in page and "so each mini-game averages the same" in page


def test_a_dobble_no_show_scores_no_better_than_the_worst_player_at_the_table(olga, alice):
    """The well gives the last out -20: a player who never came scored 0 and finished above one
    who played (outside tester 17)."""
    cup = Tournament.objects.create(
        name="spot it", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2,
        table_size=3, no_show_minutes=1,
    )  # fmt: skip
    services.enter(cup.pk, alice)
    for bot in ["hard", "easy"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    table = cup.tables.get(round=1)
    Match.objects.filter(pk=table.match_id).update(options={**table.match.options, "mini_game": "the-well"})
    Table.objects.filter(pk=table.pk).update(mini_game="the-well")
    assert running.forfeit_no_shows(now=timezone.now() + timedelta(minutes=2)) == 1
    wakeups.play_out(table.match_id)
    points = dict(Score.objects.filter(table=table).values_list("entry__user__username", "points"))
    assert points["alice"] == min(points.values()) == -20, points


def test_the_loser_chooses_the_next_mini_game_at_the_table_and_the_other_player_sees_who(client, olga, alice, bob):
    """An organizer's series never asked the loser: the table said the tournament would seat the
    next game, the choice was only on the tournament page, and the default was always applied."""
    cup = Tournament.objects.create(
        name="spot it", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2
    )
    services.enter(cup.pk, alice)
    services.enter(cup.pk, bob)
    running.start(cup.pk)
    first = cup.tables.get(round=1)
    wakeups.play_out(first.match_id)
    chooser = cup.tables.get(round=2).chooser.user
    other = bob if chooser == alice else alice
    told = {user.username: [n["text"] for n in broadcast.recent_notices(user.pk)] for user in (chooser, other)}
    assert told[chooser.username] == [
        "Round 2 of spot it: you lost the last mini-game, so you choose the next one (30 seconds). "
    ]
    assert told[other.username] == [
        f"Round 2 of spot it: {chooser.username} lost the last mini-game and chooses the next one (30 seconds). "
    ]

    client.force_login(other)
    theirs = client.get(f"/match/{first.match_id}/").content.decode()
    assert f"{chooser.username} lost this mini-game and is choosing the next one, by " in theirs
    assert 'id="occasion-choice"' not in theirs

    client.force_login(chooser)
    mine = client.get(f"/match/{first.match_id}/").content.decode()
    assert "You lost this mini-game, so you choose the next one." in mine and 'id="occasion-choice"' in mine
    assert 'name="mini_game" value="the-well">The Well<' in mine and "seconds left" in mine
    assert "the mini-game your table has played least is chosen for you" in mine
    chosen = client.post(f"/tournaments/{cup.pk}/choose/", {"mini_game": "the-well"})
    second = cup.tables.get(round=2)
    assert chosen.status_code == 302 and chosen["Location"] == f"/match/{second.match_id}/", "straight to the game"
    assert second.match.options["mini_game"] == "the-well" and second.choice == Table.Choice.CHOSEN

    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert f"The Well (chosen by {chooser.username})" in page
    assert "The Towering Inferno (the series&#x27; opener)" in page
    exported = client.get(f"/tournaments/{cup.pk}/pairings.csv").content.decode("utf-8-sig")
    rows = list(csv.reader(exported.splitlines()))
    assert rows[0][-2:] == ["mini-game", "chosen"]
    assert [row[-2:] for row in rows[1:]] == [
        ["The Towering Inferno", "the series' opener"],
        ["The Well", f"chosen by {chooser.username}"],
    ]
    tables = client.get(f"/api/tournaments/{cup.pk}/").json()["tables"]
    assert [(t["chosen_by"], t["choice"]) for t in tables] == [(None, None), (chooser.username, "chosen")]


def test_a_default_mini_game_is_recorded_as_the_loser_s_time_running_out_or_a_house_bot_s_pick(olga, alice, client):
    cup = Tournament.objects.create(
        name="spot it", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2
    )
    services.enter(cup.pk, alice)
    services.enter_house_bot(cup.pk, "hard")
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    pending = cup.tables.get(round=2)
    dobble_series.choose_overdue(now=pending.choose_by)
    pending.refresh_from_db()
    assert pending.chooser.user == alice and pending.choice == Table.Choice.TIMED_OUT
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "The Well (alice&#x27;s time to choose ran out: the least played so far)" in page

    bots = Tournament.objects.create(
        name="bots", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2
    )
    for bot in ["hard", "easy"]:
        services.enter_house_bot(bots.pk, bot)
    running.start(bots.pk)
    bots = running.play_out(bots.pk)
    second = bots.tables.get(round=2)
    assert second.chooser is not None and second.choice == Table.Choice.HOUSE_BOT
    assert (
        f"{second.chooser.user.username}&#x27;s, a house bot&#x27;s, pick"
        in client.get(f"/tournaments/{bots.pk}/").content.decode()
    )


def series_lost_by(olga, bot) -> Tournament:
    """A two-game series of `bot` against HardBot whose first mini-game `bot` resigns at once."""
    cup = Tournament.objects.create(
        name="spot it", game="dobble", organizer=olga, starts_at=timezone.now(), format="dobble-series", rounds=2
    )
    services.enter(cup.pk, bot)
    services.enter_house_bot(cup.pk, "hard")
    running.start(cup.pk)
    lifecycle.leave_match(cup.tables.get(round=1).match_id, bot)
    return cup


def test_a_bot_played_by_its_code_has_the_next_mini_game_chosen_for_it_at_once(olga, alice, client):
    """Uploaded code answers a match's positions only: nobody asked it, and its table waited out
    the 30 seconds (recorded as its time running out)."""
    bot, _ = bots_api.create_bot(alice, "Spotty")
    bots_api.upload_code(alice, "Spotty", "def choose(view, legal):\n    return legal[0]\n", "dobble")
    cup = series_lost_by(olga, bot)
    second = cup.tables.get(round=2)
    assert second.chooser.user == bot and second.choice == Table.Choice.BOT_CODE
    assert second.match.options["mini_game"] == "the-well", "the least played, at once"
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "The Well (made for Spotty, a bot played by its code: the least played so far)" in page


def test_a_driven_bot_is_asked_for_the_next_mini_game_on_its_event_stream_and_answers_over_the_api(olga, alice):
    bot, token = bots_api.create_bot(alice, "Spotty")
    layer = get_channel_layer()
    stream = async_to_sync(layer.new_channel)()
    async_to_sync(layer.group_add)(broadcast.user_group(bot.pk), stream)
    cup = series_lost_by(olga, bot)

    async def next_message():  # a bounded wait: the stream may carry other notices first, or fewer
        return json.loads((await asyncio.wait_for(layer.receive(stream), 10))["text"])

    asked = async_to_sync(next_message)()
    while asked["type"] != "series_choice":
        asked = async_to_sync(next_message)()
    assert asked == {
        "type": "series_choice",
        "tournament": cup.pk,
        "about": "Round 2 of spot it",
        "lost": cup.tables.get(round=1).match_id,
        "choices": ["towering-inferno", "the-well", "hot-potato", "gotta-catch-them-all", "poisoned-gift"],
        "seconds": 30,
        "otherwise": "the-well",
        "answer": f"/api/tournaments/{cup.pk}/choice/",
    }
    driven = APIClient()
    driven.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert driven.post(asked["answer"], {"mini_game": "hot-potato"}, format="json").status_code == 200
    second = cup.tables.get(round=2)
    assert second.match.options["mini_game"] == "hot-potato" and second.choice == Table.Choice.CHOSEN
