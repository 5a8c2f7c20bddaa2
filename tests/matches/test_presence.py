"""Who is connected: sockets counted in and out, and the sockets of a crashed web process
counted out once their heartbeat stops, so the disconnect grace and Dobble's absent-seat rule
still apply to their players."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from rest_framework.authtoken.models import Token

from games.matches import consumers, lifecycle, presence
from games.matches.models import Seat, SeatSocket

pytestmark = pytest.mark.django_db


@pytest.fixture
def duel(alice, bob, settings):
    settings.MATCH_SOCKET_HEARTBEAT_SECONDS = 20
    settings.MATCH_DISCONNECT_GRACE_SECONDS = 60
    match = lifecycle.create_match(game="dudo", players=2, host=alice, seed=5)
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice)


def seat(match, number: int) -> Seat:
    return Seat.objects.get(match=match, number=number)


def test_an_opening_socket_reads_its_seat_the_pace_and_whether_its_token_still_names_its_account(duel, alice, carol):
    token = Token.objects.create(user=alice).key
    by_token = {"user": alice, "token_auth": True, "headers": [(b"authorization", f"Token {token}".encode())]}
    number, realtime, signed_in, message = consumers.arrive(duel.pk, by_token, "tab-1")
    assert (number, realtime, signed_in, message["seat"]) == (0, False, True, 0)
    assert seat(duel, 0).connections == 1
    assert consumers.arrive(duel.pk, {"user": carol}, "carol") == (None, False, False, None), "no session: signed out"
    assert consumers.arrive(duel.pk, {"user": AnonymousUser()}, "visitor") == (None, False, True, None)
    assert consumers.arrive(duel.pk + 1, by_token, "elsewhere")[0] is False
    Token.objects.filter(user=alice).delete()  # retired between the handshake and the seat
    assert consumers.arrive(duel.pk, by_token, "tab-2") == (0, False, False, None)
    assert seat(duel, 0).connections == 1, "a retired token's socket is not counted"


def test_an_opening_counts_its_socket_once_however_often_it_is_reported(duel, alice):
    Seat.objects.filter(match=duel, number=0).update(disconnected_at=timezone.now())  # came before, left
    token = Token.objects.create(user=alice).key
    by_token = {"user": alice, "token_auth": True, "headers": [(b"authorization", f"Token {token}".encode())]}
    for name in ("tab-1", "tab-2", "tab-1"):  # the first one reported twice
        consumers.arrive(duel.pk, by_token, name)
    assert (seat(duel, 0).connections, seat(duel, 0).disconnected_at) == (2, None)
    presence.connected(duel.pk, 0, "tab-2", False)
    presence.connected(duel.pk, 0, "tab-1", False)
    assert seat(duel, 0).connections == 0 and seat(duel, 0).disconnected_at is not None


def test_each_socket_counts_once_however_often_it_is_reported(duel):
    presence.connected(duel.pk, 0, "tab-1", True)
    presence.connected(duel.pk, 0, "tab-2", True)
    presence.connected(duel.pk, 0, "tab-1", True)
    assert seat(duel, 0).connections == 2
    presence.connected(duel.pk, 0, "tab-1", False)
    presence.connected(duel.pk, 0, "tab-1", False)  # a disconnect retried after a failure
    assert seat(duel, 0).connections == 1 and seat(duel, 0).disconnected_at is None
    presence.connected(duel.pk, 0, "tab-2", False)
    assert seat(duel, 0).connections == 0 and seat(duel, 0).disconnected_at is not None


def test_a_socket_whose_heartbeat_stopped_is_counted_out_from_its_last_beat(duel):
    mover = duel.engine.to_act(duel.load_state())[0]
    presence.connected(duel.pk, mover, "crashed-process", True)
    presence.connected(duel.pk, 1 - mover, "live-process", True)
    last_beat = SeatSocket.objects.get(channel_name="crashed-process").last_seen
    SeatSocket.objects.filter(channel_name="live-process").update(last_seen=last_beat + timedelta(seconds=59))

    assert presence.count_out_dead_sockets(now=last_beat + timedelta(seconds=59)) == 0, "two missed beats: late"
    assert presence.count_out_dead_sockets(now=last_beat + timedelta(seconds=61)) == 1
    gone, live = seat(duel, mover), seat(duel, 1 - mover)
    assert (gone.connections, gone.disconnected_at) == (0, last_beat)
    assert (live.connections, live.disconnected_at) == (1, None)
    duel.refresh_from_db()
    assert duel.wake_at == max(duel.turn_started_at, last_beat) + timedelta(seconds=60), "the mover's grace runs"


def test_a_socket_taken_for_dead_counts_again_at_its_next_beat_unless_it_closed_meanwhile(duel):
    presence.connected(duel.pk, 0, "slow-process", True)
    presence.connected(duel.pk, 1, "closed-meanwhile", True)
    presence.count_out_dead_sockets(now=timezone.now() + timedelta(minutes=5))
    assert seat(duel, 0).connections == 0 and seat(duel, 1).connections == 0
    presence.beat({"slow-process": (duel.pk, 0), "closed-meanwhile": (duel.pk, 1)}, lambda name: name == "slow-process")
    assert seat(duel, 0).connections == 1 and seat(duel, 0).disconnected_at is None
    assert seat(duel, 1).connections == 0


def test_one_beat_refreshes_every_live_socket_of_the_process(duel):
    presence.connected(duel.pk, 0, "tab-1", True)
    presence.connected(duel.pk, 1, "tab-2", True)
    SeatSocket.objects.update(last_seen=timezone.now() - timedelta(seconds=50))
    presence.beat({"tab-1": (duel.pk, 0), "tab-2": (duel.pk, 1)}, lambda name: True)
    assert presence.count_out_dead_sockets(now=timezone.now() + timedelta(seconds=30)) == 0
    assert (seat(duel, 0).connections, seat(duel, 1).connections) == (1, 1)


@pytest.mark.parametrize("is_open", [True, False])
def test_a_socket_opening_or_closing_is_a_handful_of_statements(duel, django_assert_max_num_queries, is_open):
    """It waits on the database thread with the process's moves, and every move asked for
    meanwhile waits behind it: lock and load, the socket's row, the count, the seat, the wake-up."""
    presence.connected(duel.pk, 0, "tab-1", True)
    with django_assert_max_num_queries(5 + 2):  # and the test transaction's savepoint and its release
        presence.connected(duel.pk, 0, "tab-2" if is_open else "tab-1", is_open)
