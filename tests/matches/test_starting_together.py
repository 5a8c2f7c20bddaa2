"""Many seated matches started at once (a tournament round): the matches one start gives, in a
few queries however many there are, with every bot due to move and every wake-up queued together."""

import json
from datetime import timedelta

import pytest
from django.db import connection
from django.forms.models import model_to_dict
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games.bots import RandomBot
from games.matches import lifecycle, replays, tasks, wakeups
from games.matches.errors import MatchError
from games.matches.lifecycle import SeatedTable
from games.matches.models import Match
from games.simulate import replay

pytestmark = pytest.mark.django_db

BANK = {"clock": Match.Clock.PER_GAME, "clock_initial_ms": 60_000, "clock_increment_ms": 2_000}


def house(name: str) -> dict:
    return {"user": lifecycle.house_bot_user(name), "house_bot": name}


def bot_tables(count: int) -> list[SeatedTable]:
    return [SeatedTable([house("random"), house("heuristic")], {"dice": 1}) for _ in range(count)]


def stored(match: Match) -> dict:
    match.refresh_from_db()
    return {
        "status": match.status,
        "state": json.loads(json.dumps(match.engine.dump(match.load_state()))),
        "seq": match.seq,
        "ranked": match.ranked,
        "started_at": match.started_at,
        "turn_started_at": match.turn_started_at,
        "wake_at": match.wake_at,
        "seats": [(s.number, s.user_id, s.house_bot, s.clock_ms) for s in match.seats.all()],
    }


def test_a_match_started_with_others_is_the_match_its_host_would_have_started(alice, bob, carol, make_user):
    now = timezone.now()
    table = lifecycle.create_match(game="dudo", players=2, host=alice, seed=11, ranked=True, **BANK)
    lifecycle.join_match(table.pk, bob)
    by_host = lifecycle.start_match(table.pk, alice, now)
    dave = make_user("dave")
    together = lifecycle.start_seated_matches(
        game="dudo",
        tables=[SeatedTable([{"user": alice}, {"user": bob}], seed=11), SeatedTable([{"user": carol}, {"user": dave}])],
        now=now,
        ranked=True,
        **BANK,
    )
    assert stored(together[0]) == stored(by_host)
    second = stored(together[1])
    assert second["seats"] == [(0, carol.pk, "", 60_000), (1, dave.pk, "", 60_000)]
    assert second["wake_at"] == now + timedelta(seconds=60), "the first player's bank runs out then"


def test_house_bots_seated_together_are_due_at_once_and_play_their_matches_out(settings):
    now = timezone.now()
    matches = lifecycle.start_seated_matches(game="dudo", tables=bot_tables(3), now=now)
    think = timedelta(milliseconds=settings.HOUSE_BOT_THINK_MS * 1.5)
    assert all(now < match.wake_at <= now + think for match in matches)
    for match in matches:
        assert wakeups.wake(match.pk, now=match.wake_at) is True
        assert Match.objects.get(pk=match.pk).seq == 1, "the bot on turn made its move"
        assert wakeups.play_out(match.pk).status == Match.Status.FINISHED


def test_a_house_bot_chooses_its_move_when_it_wakes_not_when_its_wake_up_is_planned(monkeypatch):
    chosen, choose = [], RandomBot.choose
    monkeypatch.setattr(RandomBot, "choose", lambda bot, *args: chosen.append(1) or choose(bot, *args))
    second = {"user": lifecycle.house_bot_user("random", 2), "house_bot": "random"}
    tables = [SeatedTable([house("random"), second], {"dice": 1}) for _ in range(3)]
    matches = lifecycle.start_seated_matches(game="dudo", tables=tables, now=timezone.now())
    assert chosen == [], "a turn-based bot's think time does not hang on its move"
    assert wakeups.wake(matches[0].pk, now=matches[0].wake_at) is True
    assert chosen == [1] and Match.objects.get(pk=matches[0].pk).seq == 1


def test_starting_forty_matches_takes_no_more_queries_than_starting_two():
    now = timezone.now()
    few, many = bot_tables(2), bot_tables(40)
    with CaptureQueriesContext(connection) as two:
        lifecycle.start_seated_matches(game="dudo", tables=few, now=now)
    with CaptureQueriesContext(connection) as forty:
        lifecycle.start_seated_matches(game="dudo", tables=many, now=now)
    assert len(forty.captured_queries) == len(two.captured_queries)
    assert Match.objects.filter(status=Match.Status.RUNNING).count() == 42


def test_one_table_that_cannot_start_starts_none(alice, bob, carol):
    tables = [SeatedTable([{"user": alice}, {"user": bob}]), SeatedTable([{"user": carol}])]
    with pytest.raises(MatchError) as refused:
        lifecycle.start_seated_matches(game="dudo", tables=tables, now=timezone.now())
    assert refused.value.message == "Dudo takes 2 to 10 players, not 1."
    assert not Match.objects.exists()


def test_on_the_real_stack_the_wake_ups_are_queued_after_the_commit_over_one_connection(
    settings, monkeypatch, django_capture_on_commit_callbacks
):
    settings.MATCH_WAKEUPS = "celery"
    queued = []
    monkeypatch.setattr(
        tasks.wake_match, "apply_async", lambda args, eta, producer: queued.append((args, eta, id(producer)))
    )
    with django_capture_on_commit_callbacks(execute=True):
        matches = lifecycle.start_seated_matches(game="dudo", tables=bot_tables(3), now=timezone.now())
        assert queued == [], "nothing is queued before the matches are committed"
    assert [(args, eta) for args, eta, _ in queued] == [((match.pk,), match.wake_at) for match in matches]
    assert len({producer for _, _, producer in queued}) == 1


def test_matches_started_in_bulk_read_back_as_started_and_play_out_to_their_replay(alice, bob):
    now = timezone.now()
    tables = [
        *bot_tables(3),
        SeatedTable([{"user": alice}, house("random")], seed=5),
        SeatedTable([{"user": bob}, house("random")]),
    ]
    started = lifecycle.start_seated_matches(game="dudo", tables=tables, now=now, ranked=True, **BANK)
    for match, table in zip(started, tables, strict=True):
        stored = Match.objects.get(pk=match.pk)
        assert model_to_dict(stored) == model_to_dict(match) and stored.created_at == match.created_at
        assert [(s.number, s.user_id, s.house_bot, s.clock_ms) for s in stored.seats.all()] == [
            (number, seat["user"].pk, seat.get("house_bot", ""), 60_000) for number, seat in enumerate(table.seats)
        ]
        assert stored.state is None, "nothing is written of a position its seed deals again"
        assert stored.engine.dump(stored.load_state()) == stored.engine.dump(stored.new_game())
    for match in started[:3]:
        finished = wakeups.play_out(match.pk)
        replayed = replay(
            finished.engine,
            finished.players,
            finished.seed,
            finished.options,
            list(finished.actions.values_list("seat", "action")),
        )
        assert replays.verify(replays.export(finished)) == (True, finished.engine.result(replayed))
        assert finished.whole_history() == finished.engine.dump(replayed)["history"]


def test_ids_reserved_for_a_bulk_start_are_never_handed_out_again(alice, bob):
    first = lifecycle.start_seated_matches(game="dudo", tables=bot_tables(2), now=timezone.now())
    single = lifecycle.create_match(game="dudo", players=2, host=alice)
    second = lifecycle.start_seated_matches(game="dudo", tables=bot_tables(2), now=timezone.now())
    ids = [m.pk for m in first] + [single.pk] + [m.pk for m in second]
    assert ids == sorted(ids) and len(set(ids)) == 5
    assert Match.objects.filter(pk__in=ids).count() == 5
