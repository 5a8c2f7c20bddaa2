"""What a move does when the services around the database fail: the move stands, the
lost messages and tasks are made up for by sweeps and reconnects."""

from datetime import timedelta

import pytest
from kombu.exceptions import OperationalError

from games.matches import actions, lifecycle
from games.matches.models import Match
from games.matches.tasks import settle_forgotten
from ratings.models import RatingChange
from tests.matches.conftest import OPENING_BID

pytestmark = pytest.mark.django_db
DOUBT = {"type": "doubt"}

UNREACHABLE_REDIS = {
    "default": {
        "BACKEND": "channels_redis.core.RedisChannelLayer",
        "CONFIG": {"hosts": ["redis://127.0.0.1:1/0"]},  # nothing listens on port 1
    }
}


def play_to_the_end(match: Match) -> Match:
    """Alice and Bob bid and doubt until one-die Dudo is over."""
    while match.status == Match.Status.RUNNING:
        state = match.load_state()
        seat = match.engine.to_act(state)[0]
        move = DOUBT if DOUBT in match.engine.legal_actions(state, seat) else OPENING_BID
        actions.submit_action(match.pk, match.seats.get(number=seat).user, move, seq=match.seq)
        match.refresh_from_db()
    return match


@pytest.fixture
def ranked_duel(alice, bob):
    """Ranked one-die Dudo with a turn clock short enough for every move to ask the broker for a
    wake-up too (within scheduling.WAKE_AHEAD)."""
    match = lifecycle.create_match(
        game="dudo",
        players=2,
        host=alice,
        seed=7,
        ranked=True,
        options={"dice": 1},
        clock="turn",
        clock_initial_ms=5_000,
    )
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice)


def test_a_finished_match_whose_scoring_task_was_lost_is_rated_by_the_settle_sweep(ranked_duel):
    # In a test transaction the after-commit scoring task never runs: exactly a lost task.
    match = play_to_the_end(ranked_duel)
    assert match.settled_at is None and not RatingChange.objects.filter(match=match).exists()

    assert settle_forgotten(now=match.finished_at + timedelta(seconds=5)) == 0, "too early: the task may be on its way"
    assert settle_forgotten(now=match.finished_at + timedelta(minutes=1)) == 1
    match.refresh_from_db()
    assert match.settled_at is not None
    assert RatingChange.objects.filter(match=match).count() == 2
    assert settle_forgotten(now=match.finished_at + timedelta(minutes=2)) == 0


def test_a_move_stands_when_the_channel_layer_is_unreachable(
    ranked_duel, settings, caplog, django_capture_on_commit_callbacks
):
    settings.CHANNEL_LAYERS = UNREACHABLE_REDIS
    seat = ranked_duel.engine.to_act(ranked_duel.load_state())[0]
    with caplog.at_level("WARNING"), django_capture_on_commit_callbacks(execute=True):
        actions.submit_action(ranked_duel.pk, ranked_duel.seats.get(number=seat).user, OPENING_BID, seq=0)
    ranked_duel.refresh_from_db()
    assert ranked_duel.seq == 1
    assert "channel layer unreachable" in caplog.text


def test_a_finished_match_stands_when_the_broker_is_unreachable(
    ranked_duel, settings, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    from games.matches.tasks import settle_match, wake_match

    def broker_down(*args, **kwargs):
        raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    settings.MATCH_WAKEUPS = "celery"
    monkeypatch.setattr(wake_match, "apply_async", broker_down)
    monkeypatch.setattr(settle_match, "delay", broker_down)
    with caplog.at_level("WARNING"), django_capture_on_commit_callbacks(execute=True):
        match = play_to_the_end(ranked_duel)
    assert match.status == Match.Status.FINISHED and match.settled_at is None
    assert "wake-up not queued" in caplog.text and "the settle sweep will do it" in caplog.text
    assert settle_forgotten(now=match.finished_at + timedelta(minutes=1)) == 1
