"""House bots and clocks: due moves happen through the same path, at the right time."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import get_game
from games.matches import clocks, lifecycle, played, presence, replays, scheduling, tasks, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match, MatchAction

pytestmark = pytest.mark.django_db


def seed_where_seat_1_starts() -> int:
    engine = get_game("dudo")
    return next(seed for seed in range(100) if engine.to_act(engine.new_game(2, seed)) == [1])


def bot_table(alice, bot="heuristic"):
    """alice against a house bot that has the first move."""
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=seed_where_seat_1_starts())
    lifecycle.add_house_bot(match.pk, alice, bot)
    return match


def test_a_house_bot_moves_after_its_thinking_time_and_not_before(alice):
    start = timezone.now()
    match = bot_table(alice)
    lifecycle.start_match(match.pk, alice, now=start)
    match.refresh_from_db()
    assert start + timedelta(milliseconds=250) <= match.wake_at <= start + timedelta(milliseconds=750)
    assert wakeups.wake(match.pk, now=match.wake_at - timedelta(milliseconds=1)) is False
    assert wakeups.wake(match.pk, now=match.wake_at) is True
    assert MatchAction.objects.get(match=match).source == "house"


def test_a_match_between_house_bots_plays_out_to_a_result(alice, bob):
    match = lifecycle.create_match(game="dudo", players=3, seed=3)
    for name in ["heuristic", "random", "heuristic"]:
        lifecycle.seat_house_bot(match, name)
    lifecycle.start_match(match.pk, None)
    match = wakeups.play_out(match.pk)
    assert match.status == Match.Status.FINISHED
    assert sorted(seat for group in match.result["ranking"] for seat in group) == [0, 1, 2]
    assert match.seq == match.actions.count() > 0


def test_a_per_turn_clock_plays_the_default_move_when_time_runs_out(alice, bob):
    start = timezone.now()
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5, clock="turn", clock_initial_ms=10_000)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice, now=start)
    match.refresh_from_db()
    assert match.wake_at == start + timedelta(seconds=10)
    assert wakeups.wake(match.pk, now=start + timedelta(seconds=9)) is False
    assert wakeups.wake(match.pk, now=start + timedelta(seconds=10)) is True
    logged = MatchAction.objects.get(match=match)
    assert logged.source == "timeout"
    engine = get_game("dudo")
    assert logged.action == engine.default_action(engine.new_game(2, 5), logged.seat)


def test_a_per_game_clock_charges_the_mover_and_adds_the_increment(alice, bob):
    from games.matches import actions

    start = timezone.now()
    match = lifecycle.create_match(
        game="dudo", players=2, host=alice, seed=5, clock="game", clock_initial_ms=60_000, clock_increment_ms=2_000
    )
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice, now=start)
    seat = get_game("dudo").to_act(Match.objects.get(pk=match.pk).load_state())[0]
    mover = match.seats.get(number=seat)
    actions.submit_action(
        match.pk, mover.user, {"type": "bid", "quantity": 1, "face": 2}, 0, now=start + timedelta(seconds=15)
    )
    mover.refresh_from_db()
    assert mover.clock_ms == 60_000 - 15_000 + 2_000


def test_a_disconnected_player_is_played_for_after_the_grace_period(alice, bob, settings):
    from games.matches import presence

    settings.MATCH_DISCONNECT_GRACE_SECONDS = 30
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    seat = get_game("dudo").to_act(Match.objects.get(pk=match.pk).load_state())[0]
    presence.connected(match.pk, seat, "socket-1", True)
    presence.connected(match.pk, seat, "socket-1", False)
    match.refresh_from_db()
    gone = match.seats.get(number=seat).disconnected_at
    assert match.wake_at == max(gone, match.turn_started_at) + timedelta(seconds=30)
    assert wakeups.wake(match.pk, now=match.wake_at) is True
    assert MatchAction.objects.get(match=match).source == "timeout"


def test_the_sweep_wakes_matches_whose_time_has_come(alice):
    start = timezone.now() - timedelta(seconds=5)
    match = bot_table(alice, bot="random")
    lifecycle.start_match(match.pk, alice, now=start)
    assert wakeups.sweep() == 1
    assert MatchAction.objects.get(match=match).source == "house"


def test_a_doubt_window_closes_when_its_timer_runs_out_even_without_a_clock(alice, bob, carol):
    start = timezone.now()
    match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=8, options={"doubt_window_s": 15})
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    lifecycle.start_match(match.pk, alice, now=start)
    match.refresh_from_db()
    assert match.wake_at is None, "without a clock nobody is hurried to play"
    engine, state = get_game("doubt-it"), match.load_state()
    player = engine.to_act(state)[0]
    users = {seat.number: seat.user for seat in match.seats.all()}
    played = start + timedelta(seconds=30)
    submit_action(match.pk, users[player], engine.legal_actions(state, player)[0], 0, now=played)
    match.refresh_from_db()
    assert match.wake_at == played + timedelta(seconds=15)
    seats, state = list(match.seats.all()), match.load_state()
    told = clocks.snapshot(match, state, seats, engine.to_act(state), played + timedelta(seconds=4))
    assert told["window_ms_left"] == 11_000, "the table counts the window down beside its question"
    assert set(told["ms_left"].values()) == {11_000}, "and a bot still hears when its own timeout is"
    assert wakeups.wake(match.pk, now=played + timedelta(seconds=14)) is False
    assert wakeups.wake_all_due(match.pk, now=played + timedelta(seconds=15)) == 2
    answers = MatchAction.objects.filter(match=match, source="timeout")
    assert [logged.action for logged in answers] == [{"type": "pass"}, {"type": "pass"}]
    match.refresh_from_db()
    assert match.wake_at is None and not match.load_state().waiting
    state = match.load_state()
    told = clocks.snapshot(match, state, list(match.seats.all()), engine.to_act(state), timezone.now())
    assert told["window_ms_left"] is None


def test_a_pass_the_clock_made_marks_no_one_elses_entry_as_the_clocks(alice, bob, carol):
    """An I Doubt It pass adds no history entry while others may still doubt: the clock's pass
    for one seat marked the next entry, another player's own doubt, "no move in time"."""
    start = timezone.now()
    match = lifecycle.start_seated_match(
        game="doubt-it", seats=[{"user": alice}, {"user": bob}, {"user": carol}], now=start, seed=8,
        options={"doubt_window_s": 0}, clock="turn", clock_initial_ms=30_000,
    )  # fmt: skip
    engine, users = get_game("doubt-it"), {0: alice, 1: bob, 2: carol}
    state = match.load_state()
    player = engine.to_act(state)[0]
    match = submit_action(match.pk, users[player], engine.legal_actions(state, player)[0], match.seq, now=start)
    first, second = engine.to_act(match.load_state())
    assert wakeups.wake(match.pk, now=start + timedelta(seconds=31))  # the first of them runs out: a pass
    match.refresh_from_db()
    assert engine.to_act(match.load_state()) == [second]
    match = submit_action(match.pk, users[second], {"type": "doubt"}, match.seq, now=start + timedelta(seconds=32))
    assert match.clock_moves == [] and Match.objects.get(pk=match.pk).clock_moves_in_history() == []


def test_a_doubt_window_timer_of_zero_leaves_the_window_to_the_clock(alice, bob, carol):
    match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=8, options={"doubt_window_s": 0})
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    lifecycle.start_match(match.pk, alice)
    match.refresh_from_db()
    engine, state = get_game("doubt-it"), match.load_state()
    player = engine.to_act(state)[0]
    submit_action(match.pk, match.seats.get(number=player).user, engine.legal_actions(state, player)[0], 0)
    match.refresh_from_db()
    assert match.load_state().waiting and match.wake_at is None


def test_an_absent_dobble_player_is_forfeited_after_the_grace_so_the_table_finishes(alice, settings):
    settings.MATCH_DISCONNECT_GRACE_SECONDS = 30
    start = timezone.now()
    match = lifecycle.create_match(game="dobble", players=2, host=alice, seed=3, options={"mini_game": "the-well"})
    lifecycle.add_house_bot(match.pk, alice, "easy")
    lifecycle.start_match(match.pk, alice, now=start)
    absent = match.seats.get(user=alice)
    assert wakeups.wake(match.pk, now=start + timedelta(seconds=29)) in (True, False)
    absent.refresh_from_db()
    assert absent.forfeited_at is None
    presence.connected(match.pk, absent.number, "socket-1", True)
    presence.connected(match.pk, absent.number, "socket-1", False)
    absent.refresh_from_db()
    left = absent.disconnected_at
    match = wakeups.play_out(match.pk)
    absent.refresh_from_db()
    assert match.status == Match.Status.FINISHED
    assert absent.forfeited_at >= left + timedelta(seconds=30) and absent.house_bot == "random"
    assert match.result["forfeited"] == [absent.number]


def duel_with_bob_away(alice, bob, settings, grace=30, **clock):
    """alice and bob at Dudo; bob opened the table and closed it at once."""
    settings.MATCH_DISCONNECT_GRACE_SECONDS = grace
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5, **clock)
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    away = match.seats.get(user=bob).number
    presence.connected(match.pk, away, "socket-1", True)
    presence.connected(match.pk, away, "socket-1", False)
    return match, away


def alice_bids(match, alice, now) -> None:
    engine = get_game("dudo")
    state = match.load_state()
    bid = next(a for a in engine.legal_actions(state, engine.to_act(state)[0]) if a["type"] == "bid")
    submit_action(match.pk, alice, bid, match.seq, now=now)


def play_until_bob_times_out(match, alice, away: int, times: int) -> Match:
    """alice bids a second into her turns; bob's seat is woken when its time comes, `times` times;
    returns the match on bob's turn (or over)."""
    while True:
        match = Match.objects.get(pk=match.pk)
        if match.status != Match.Status.RUNNING:
            return match
        if match.engine.to_act(match.load_state()) != [away]:
            alice_bids(match, alice, match.turn_started_at + timedelta(seconds=1))
        elif not times:
            return match
        elif wakeups.wake(match.pk, now=match.wake_at):
            times -= 1
        # else it was not due yet (the test moved bob's departure): the wake-up is planned again


def leaving_seats(match) -> list[int]:
    state = match.load_state()
    seats = list(match.seats.select_related("user"))
    return clocks.snapshot(match, state, seats, match.engine.to_act(state), timezone.now())["leaving"]


def test_a_player_who_left_forfeits_once_the_computer_has_moved_for_them_twice(alice, bob, settings):
    match, away = duel_with_bob_away(alice, bob, settings)
    match = play_until_bob_times_out(match, alice, away, 1)
    assert leaving_seats(match) == []
    match = play_until_bob_times_out(match, alice, away, 1)
    assert list(match.actions.filter(seat=away).values_list("source", flat=True)) == ["timeout", "timeout"]
    assert leaving_seats(match) == [away]
    assert wakeups.wake(match.pk, now=match.wake_at) is True
    match = Match.objects.get(pk=match.pk)
    assert match.status == Match.Status.FINISHED
    assert match.result["forfeited"] == [away] and match.result["ranking"] == [[1 - away], [away]]
    assert match.actions.filter(seat=away).count() == 2  # the third timeout was the forfeit, not a move
    assert [seat["gone"] for seat in presence.current_message(match.pk, None)["seats"]][away] == "left"


def test_coming_back_starts_the_count_again(alice, bob, settings):
    match, away = duel_with_bob_away(alice, bob, settings)
    match = play_until_bob_times_out(match, alice, away, 2)
    presence.connected(match.pk, away, "socket-2", True)
    presence.connected(match.pk, away, "socket-2", False)
    # He came back and left again half a second into his turn (the test's moves run ahead of the
    # real clock, which presence.connected reads).
    match.seats.filter(number=away).update(disconnected_at=match.turn_started_at + timedelta(milliseconds=500))
    match = play_until_bob_times_out(match, alice, away, 2)
    assert match.status == Match.Status.RUNNING
    assert match.actions.filter(seat=away, source="timeout").count() == 4


def test_a_player_who_stays_connected_but_never_moves_is_counted_out_at_the_third_timeout(alice, bob, settings):
    """An open tab is not a player: the clock moves for bob twice, and his third timeout in a row
    counts him out as if he had left (clocks.idles_out); it used to play for him without end."""
    match, away = duel_with_bob_away(alice, bob, settings, clock="turn", clock_initial_ms=10_000)
    presence.connected(match.pk, away, "socket-2", True)
    match = play_until_bob_times_out(match, alice, away, 1)
    assert leaving_seats(match) == []
    match = play_until_bob_times_out(match, alice, away, 1)
    assert leaving_seats(match) == [away]  # the table says so before it happens
    match = play_until_bob_times_out(match, alice, away, 1)
    assert match.status == Match.Status.FINISHED
    assert match.actions.filter(seat=away, source="timeout").count() == 2
    assert match.result["forfeited"] == [away] and match.result["ranking"] == [[1 - away], [away]]


def test_a_player_counted_out_at_the_table_is_said_to_have_timed_out_not_to_have_left(alice, bob, settings):
    """bob never left: his tab was open all along. The table, the history, the replay and his
    profile say what happened (they used to say "bob left")."""
    match, away = duel_with_bob_away(alice, bob, settings, clock="turn", clock_initial_ms=10_000)
    presence.connected(match.pk, away, "socket-2", True)
    match = play_until_bob_times_out(match, alice, away, 3)
    assert match.status == Match.Status.FINISHED
    seat = presence.current_message(match.pk, None)["seats"][away]
    assert (seat["gone"], seat["gone_words"]) == ("timed out", "was counted out: their clock ran out 3 times in a row")
    assert [(mark["why"], mark["words"]) for mark in replays.frame(match, match.seq, None)["gone"]] == [
        ("timed out", "was counted out: their clock ran out 3 times in a row")
    ]
    assert played.outcome(match, match.seats.get(number=away)) == "Lost, timed out"
    assert played.listed(played.seats_of(alice))[0]["others_gone"] == ["bob timed out"]


def test_a_move_of_your_own_starts_the_count_of_timeouts_again(alice, bob, settings):
    match, away = duel_with_bob_away(alice, bob, settings, clock="turn", clock_initial_ms=10_000)
    presence.connected(match.pk, away, "socket-2", True)
    match = play_until_bob_times_out(match, alice, away, 2)
    engine = get_game("dudo")
    own = engine.legal_actions(match.load_state(), away)[-1]
    submit_action(match.pk, bob, own, match.seq, now=match.turn_started_at + timedelta(seconds=1))
    match = play_until_bob_times_out(match, alice, away, 2)
    assert match.status == Match.Status.RUNNING and not match.seats.get(number=away).forfeited_at
    assert match.actions.filter(seat=away, source="timeout").count() == 4


def test_timeouts_within_the_grace_to_come_back_never_forfeit(alice, bob, settings):
    """A 10 s clock runs out four times before bob's minute of grace is over: he may still come back."""
    match, away = duel_with_bob_away(alice, bob, settings, grace=60, clock="turn", clock_initial_ms=10_000)
    left = match.seats.get(number=away).disconnected_at
    match = play_until_bob_times_out(match, alice, away, 4)
    assert match.status == Match.Status.RUNNING
    assert match.actions.filter(seat=away, source="timeout").count() == 4
    assert match.actions.filter(seat=away).last().created_at < left + timedelta(seconds=60)


def test_the_tasks_queued_from_below_tasks_py_are_found_by_the_names_they_are_queued_by():
    queued_by_name = [scheduling.WAKE_MATCH, scheduling.SETTLE_MATCH, scheduling.ASK_SEAT]
    assert [scheduling.task(name).run for name in queued_by_name] == [
        tasks.wake_match.run,
        tasks.settle_match.run,
        tasks.ask_seat.run,
    ]


def test_a_clock_far_ahead_is_queued_by_the_sweep_once_it_comes_within_reach_not_at_every_move(
    alice, bob, settings, monkeypatch, django_capture_on_commit_callbacks
):
    from django.core.cache import cache

    settings.MATCH_WAKEUPS = "celery"
    cache.delete(scheduling.COMING_KEY)
    queued = []
    monkeypatch.setattr(tasks.wake_match, "apply_async", lambda args, eta, producer: queued.append((args[0], eta)))
    with django_capture_on_commit_callbacks(execute=True):
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now(), seed=3, **BANK_3_2
        )
        mover = [alice, bob][get_game("dudo").to_act(match.load_state())[0]]
        match = submit_action(match.pk, mover, {"type": "bid", "quantity": 1, "face": 2}, 0)
    assert queued == [], "three minutes of clock away: nothing queued at the start nor at the move"

    before = match.wake_at - scheduling.WAKE_AHEAD - timedelta(seconds=3)
    assert scheduling.queue_coming(before) == 0
    for later in (2, 4, 6):  # the beat's sweeps, two seconds apart
        scheduling.queue_coming(before + timedelta(seconds=later))
    assert queued == [(match.pk, match.wake_at)], "queued once, by the sweep that first reached it"


BANK_3_2 = {"clock": "game", "clock_initial_ms": 180_000, "clock_increment_ms": 2_000}
