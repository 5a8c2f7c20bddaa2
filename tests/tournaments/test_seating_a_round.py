"""A round's matches are started together through the match service: every table gets its
running match with the seats in table order, the house bots are due to move, the people hear
where they play in one announcement, and a big round costs no more queries than a small one."""

import json
from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.matches import broadcast, wakeups
from games.matches.models import Match
from tournaments import running, services
from tournaments.models import Entry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)  # announcements go out after commit


def swiss(olga, bots: int) -> Tournament:
    cup = Tournament.objects.create(
        name=f"Dudo open for {bots}",
        game="dudo",
        organizer=olga,
        starts_at=timezone.now() - timedelta(seconds=1),
        rounds=2,
        turn_seconds=30,
        max_entries=100,
    )
    for number in range(bots):
        services.enter_house_bot(cup.pk, "heuristic" if number % 2 else "random")
    return cup


def test_every_table_of_a_round_gets_its_match_with_seats_in_table_order(olga, alice, bob, monkeypatch):
    sent = []
    monkeypatch.setattr(broadcast, "deliver", sent.append)
    cup = swiss(olga, 4)
    services.enter(cup.pk, alice)
    services.enter(cup.pk, bob)
    now = timezone.now()
    running.start(cup.pk, now)
    tables = list(cup.tables.select_related("match").filter(round=1))
    assert len(tables) == 3
    for table in tables:
        entries = Entry.objects.in_bulk(table.seating)
        seats = list(table.match.seats.all())
        assert [(s.user_id, s.house_bot) for s in seats] == [
            (entries[e].user_id, entries[e].house_bot) for e in table.seating
        ]
        assert table.match.status == Match.Status.RUNNING and table.match.ranked
        assert table.match.clock_initial_ms == 30_000 and table.match.started_at == now
        assert table.match.wake_at is not None, "a bot moves or a clock runs out: something is due"
    found = [events for events in sent if any(group.startswith("user-") for group, _ in events)]
    match_of = {seat.user_id: table.match.pk for table in tables for seat in table.match.seats.all()}
    assert len(found) == 1, "the round's players hear where they play in one announcement"
    assert sorted(group for group, _ in found[0]) == sorted([f"user-{alice.pk}", f"user-{bob.pk}"])
    for group, event in found[0]:
        user_id = int(group.removeprefix("user-"))
        assert json.loads(event["text"])["url"] == f"/match/{match_of[user_id]}/"


def test_the_house_bots_of_a_round_play_it_and_the_next_round_is_seated(olga):
    cup = swiss(olga, 6)
    running.start(cup.pk)
    for table in cup.tables.select_related("match"):
        match = table.match
        assert wakeups.wake(match.pk, now=match.wake_at) is True, "the bot on turn was asked for its move"
        wakeups.play_out(match.pk)
    assert cup.tables.filter(round=2).count() == 3
    assert Match.objects.filter(tournament_table__round=2, status=Match.Status.RUNNING).count() == 3


def test_a_round_of_forty_tables_takes_as_many_queries_as_a_round_of_two(olga):
    counted = []
    for bots in (4, 80):
        cup = swiss(olga, bots)
        Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.RUNNING)
        with CaptureQueriesContext(connection) as queries, transaction.atomic():
            Tournament.objects.select_for_update().get(pk=cup.pk).rules.seat_round(1, timezone.now())
        assert cup.tables.filter(round=1, match__status=Match.Status.RUNNING).count() == bots // 2
        counted.append(len(queries.captured_queries))
    assert counted[0] == counted[1]
