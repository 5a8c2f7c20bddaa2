"""The one action path: validation, the log, the snapshot, refusals."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import get_game
from games.matches import actions, lifecycle, presence, replays
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction
from tests.engines.test_dobble_helpers import right_claim, wrong_claim
from tests.matches.conftest import OPENING_BID

pytestmark = pytest.mark.django_db


def first_to_act(match):
    match.refresh_from_db()
    return get_game("dudo").to_act(match.load_state())[0]


def user_on(match, seat):
    return match.seats.get(number=seat).user


def test_an_action_is_logged_and_the_snapshot_saved(dudo_match):
    seat = first_to_act(dudo_match)
    actions.submit_action(dudo_match.pk, user_on(dudo_match, seat), OPENING_BID, seq=0)
    dudo_match.refresh_from_db()
    assert dudo_match.seq == 1
    logged = MatchAction.objects.get(match=dudo_match)
    assert (logged.seq, logged.seat, logged.action, logged.source) == (1, seat, OPENING_BID, "browser")
    engine = get_game("dudo")
    expected = engine.apply(engine.new_game(2, 42), seat, OPENING_BID)
    assert dudo_match.state == engine.dump(expected)


def test_a_stale_or_repeated_move_is_refused_and_never_applied_twice(dudo_match):
    seat = first_to_act(dudo_match)
    actions.submit_action(dudo_match.pk, user_on(dudo_match, seat), OPENING_BID, seq=0)
    with pytest.raises(MatchError) as refused:
        actions.submit_action(dudo_match.pk, user_on(dudo_match, 1 - seat), {"type": "doubt"}, seq=0)
    assert refused.value.code == "stale"
    assert "it is at move 1, you saw 0" in refused.value.message
    assert MatchAction.objects.filter(match=dudo_match).count() == 1


def test_a_move_out_of_turn_is_refused(dudo_match):
    seat = first_to_act(dudo_match)
    with pytest.raises(MatchError) as refused:
        actions.submit_action(dudo_match.pk, user_on(dudo_match, 1 - seat), OPENING_BID, seq=0)
    assert (refused.value.code, refused.value.message) == ("not_your_turn", "It is not your turn.")


def test_an_illegal_move_gets_the_engines_message_and_changes_nothing(dudo_match):
    seat = first_to_act(dudo_match)
    before = Match.objects.get(pk=dudo_match.pk).state
    with pytest.raises(MatchError) as refused:
        actions.submit_action(dudo_match.pk, user_on(dudo_match, seat), {"type": "doubt"}, seq=0)
    assert refused.value.code == "illegal"
    assert refused.value.message
    dudo_match.refresh_from_db()
    assert dudo_match.state == before and dudo_match.seq == 0


@pytest.mark.parametrize("bad", [None, "doubt", [1, 2], {"type": "bid", "quantity": "many", "face": 2}])
def test_malformed_actions_are_refused_as_illegal(dudo_match, bad):
    seat = first_to_act(dudo_match)
    with pytest.raises(MatchError) as refused:
        actions.submit_action(dudo_match.pk, user_on(dudo_match, seat), bad, seq=0)
    assert refused.value.code == "illegal"


def test_a_spectator_cannot_move(dudo_match, carol):
    with pytest.raises(MatchError) as refused:
        actions.submit_action(dudo_match.pk, carol, OPENING_BID, seq=0)
    assert refused.value.code == "not_seated"


def test_leaving_a_running_two_player_match_loses_it(dudo_match, alice):
    lifecycle.leave_match(dudo_match.pk, alice)
    dudo_match.refresh_from_db()
    assert dudo_match.status == Match.Status.FINISHED
    assert dudo_match.result["ranking"] == [[1], [0]]
    assert dudo_match.result["forfeited"] == [0] and dudo_match.result["resigned"] == [0]


def test_a_resignation_on_your_turn_leaves_the_clock_at_the_time_left_then(alice, bob):
    match = lifecycle.create_match(
        game="dudo", players=2, host=alice, seed=42, clock=Match.Clock.PER_GAME,
        clock_initial_ms=300_000, clock_increment_ms=5_000,
    )
    lifecycle.join_match(match.pk, bob)
    start = timezone.now()
    lifecycle.start_match(match.pk, alice, now=start)
    to_move = user_on(match, first_to_act(match))
    lifecycle.leave_match(match.pk, to_move, now=start + timedelta(seconds=40))
    assert match.seats.get(user=to_move).clock_ms == 260_000  # no increment: no move was made
    match.refresh_from_db()
    assert match.result["resigned"] == [match.seats.get(user=to_move).number]


def test_a_seat_given_up_has_no_one_at_it_though_its_player_still_watches(alice, bob, carol):
    """The computer plays on for carol so alice and bob can finish: that keeps nobody at her seat,
    whether or not her tab is still open."""
    match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=3)
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    lifecycle.start_match(match.pk, alice)
    for seat, user in enumerate((alice, bob, carol)):
        presence.connected(match.pk, match.seats.get(user=user).number, f"socket-{seat}", True)
    lifecycle.leave_match(match.pk, carol)
    seats = {s["player"]: s for s in presence.current_message(match.pk, None)["seats"]}
    assert seats["carol"]["forfeited"] and not seats["carol"]["connected"]
    assert seats["carol"]["gone"] == "resigned" and seats["alice"]["gone"] is None
    assert seats["alice"]["connected"] and seats["bob"]["connected"]


def test_a_player_who_resigned_is_offered_no_move_while_the_computer_plays_their_seat(alice, bob, carol):
    """A resigned I Doubt It player still had "I doubt it!" and "Pass" on their page (tester's finding)."""
    match = lifecycle.create_match(game="doubt-it", players=3, host=alice, seed=3)
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    lifecycle.start_match(match.pk, alice)
    state = match.load_state()
    player = get_game("doubt-it").to_act(state)[0]
    first_play = get_game("doubt-it").legal_actions(state, player)[0]
    match = actions.submit_action(match.pk, user_on(match, player), first_play, 0)
    waiting = get_game("doubt-it").to_act(match.load_state())
    gone = user_on(match, waiting[0])
    lifecycle.leave_match(match.pk, gone)
    assert match.seats.get(user=gone).forfeited_at is not None
    message = presence.current_message(match.pk, waiting[0])
    assert waiting[0] in message["to_act"], "the computer answers for the seat"
    assert message["legal"] == []
    assert presence.current_message(match.pk, waiting[1])["legal"], "the other may still doubt"


def test_a_finished_match_replays_from_its_export(dudo_match):
    engine = get_game("dudo")
    while dudo_match.status == Match.Status.RUNNING:
        state = dudo_match.load_state()
        seat = engine.to_act(state)[0]
        action = engine.default_action(state, seat)
        actions.submit_action(dudo_match.pk, user_on(dudo_match, seat), action, seq=dudo_match.seq)
        dudo_match.refresh_from_db()
    ok, result = replays.verify(replays.export(dudo_match))
    assert ok and result["ranking"] == dudo_match.result["ranking"]


def test_the_host_starts_only_a_full_table(alice, bob):
    match = lifecycle.create_match(game="dudo", players=3, host=alice)
    lifecycle.join_match(match.pk, bob)
    with pytest.raises(MatchError) as refused:
        lifecycle.start_match(match.pk, alice)
    assert refused.value.message == "The table needs 3 players and has 2."


def test_only_the_host_adds_bots_and_starts(alice, bob):
    match = lifecycle.create_match(game="dudo", players=2, host=alice)
    with pytest.raises(MatchError) as refused:
        lifecycle.add_house_bot(match.pk, bob, "heuristic")
    assert refused.value.code == "not_host"
    lifecycle.add_house_bot(match.pk, alice, "heuristic")
    assert [seat.user.username for seat in match.seats.all()] == ["alice", "HeuristicBot"]


def test_a_table_refuses_options_the_game_does_not_have(alice):
    with pytest.raises(MatchError) as refused:
        lifecycle.create_match(game="dudo", players=2, host=alice, options={"colour": "red"})
    assert refused.value.code == "bad_request"
    assert "has no option colour" in refused.value.message


def test_a_ranked_result_is_rated_once_and_its_changes_reach_the_table(alice, bob):
    from games.matches import broadcast, presence
    from games.matches.tasks import settle_match
    from ratings.models import RatingChange

    match = lifecycle.create_match(
        game="dudo", players=2, host=alice, seed=42, ranked=True, options={"dice": 1}, clock="turn",
        clock_initial_ms=60_000,
    )
    lifecycle.join_match(match.pk, bob)
    lifecycle.start_match(match.pk, alice)
    engine = get_game("dudo")
    match.refresh_from_db()
    first = engine.to_act(match.load_state())[0]
    actions.submit_action(match.pk, user_on(match, first), OPENING_BID, seq=0)
    actions.submit_action(match.pk, user_on(match, 1 - first), {"type": "doubt"}, seq=1)
    settle_match(match.pk)
    assert RatingChange.objects.filter(match=match).count() == 2
    match.refresh_from_db()
    facts = broadcast.rating_facts(match)
    changes = facts["rating_changes"]
    assert sorted(c["seat"] for c in changes) == [0, 1] and facts["not_rated"] is None
    assert all(c["provisional"] for c in changes), "both still provisional: the table marks ?"
    assert sum(c["delta"] for c in changes) in (-1, 0, 1), "whole changes, each rounded on its own side"
    assert presence.current_message(match.pk, None)["rating_changes"] == changes


def test_a_dobble_claim_is_stale_only_when_a_right_claim_moved_the_cards(alice, bob, carol):
    match = lifecycle.create_match(game="dobble", players=3, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    lifecycle.join_match(match.pk, carol)
    match = lifecycle.start_match(match.pk, alice)
    engine = get_game("dobble")
    state = match.load_state()
    actions.submit_action(match.pk, bob, wrong_claim(state, 1, "pile"), seq=0)
    # alice chose her claim before bob's wrong claim: the cards are the same, so it counts.
    actions.submit_action(match.pk, alice, right_claim(state, 0, "pile"), seq=0)
    match.refresh_from_db()
    assert match.seq == 2 and engine.view(match.load_state(), 0)["history"][-1]["correct"]
    with pytest.raises(MatchError) as refused:
        actions.submit_action(match.pk, carol, right_claim(state, 2, "pile"), seq=1)
    assert refused.value.code == "stale"


def test_a_dobble_claim_without_its_game_time_is_refused_as_the_protocol_says(alice, bob):
    match = lifecycle.create_match(game="dobble", players=2, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    match = lifecycle.start_match(match.pk, alice)
    claim = right_claim(match.load_state(), 0, "pile")
    del claim["at_ms"]
    with pytest.raises(MatchError) as refused:
        actions.submit_action(match.pk, alice, claim, seq=0)
    assert refused.value.code == "illegal" and "at_ms" in refused.value.message
    with pytest.raises(MatchError, match="at_ms"):  # a tester's null was taken for a time
        actions.submit_action(match.pk, alice, {**claim, "at_ms": None}, seq=0)
    actions.submit_action(match.pk, alice, {**claim, "at_ms": 0}, seq=0)  # any time: the server stamps it
