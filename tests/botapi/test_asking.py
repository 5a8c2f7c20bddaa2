"""Bots that think for seconds hold up nobody else: they are asked off the thread that wakes matches.

The attack (issue 14): three uploaded bots that sleep through their moves, and an unrelated
house bot whose move was due; embedded, the ticker asked each sleeping bot in turn, and the
house bot's move came 56.8 s late instead of after its thinking time.
"""

import threading
import time
from datetime import timedelta

import pytest
from django.utils import timezone

from botapi import players
from botapi.models import BotCode, MoveQuestion
from games.matches import asking, lifecycle, tasks, wakeups
from games.matches.models import Match, MatchAction

pytestmark = pytest.mark.django_db(transaction=True)

SLEEPER = "import time\n\ndef choose(view, legal):\n    time.sleep(0.5)\n    return legal[0]\n"


def sleeping_bot(owner, name: str):
    bot = type(owner).objects.create_user(username=name, is_bot=True, bot_owner=owner)
    BotCode.objects.create(bot=bot, version=1, source=SLEEPER)
    return {"user": bot, "house_bot": "", "code_version": 1}


def eventually(condition, seconds: float = 20) -> None:
    """Wait for what the bot threads do, as long as it takes them (and no longer)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the bot threads did not get there"
        time.sleep(0.02)


class QuestionsNoted:
    """A bot pool that only notes what it is given."""

    def __init__(self):
        self.asked = []

    def submit(self, party, function, *args):
        self.asked.append(args)


def house(name: str, copy: int = 1) -> dict:
    return {"user": lifecycle.house_bot_user(name, copy), "house_bot": name, "code_version": None}


@pytest.fixture
def bot_matches(alice, settings):
    """Three matches waiting for sleeping uploaded bots, and one house-bot match due now."""
    settings.BOT_MOVE_SECONDS = 3
    now = timezone.now() - timedelta(seconds=2)  # started two seconds ago: every first move is due
    sleepers = []
    for number in range(3):
        seats = [sleeping_bot(alice, f"Sleepy{number}a"), sleeping_bot(alice, f"Sleepy{number}b")]
        sleepers.append(lifecycle.start_seated_match(game="dudo", seats=seats, now=now))
    house_match = lifecycle.start_seated_match(game="dudo", seats=[house("random"), house("random", 2)], now=now)
    Match.objects.update(wake_at=now)
    return sleepers, house_match


def test_a_tick_with_three_thinking_bots_plays_the_house_bot_without_waiting_for_them(
    bot_matches, settings, monkeypatch
):
    """Deterministic, not timed: the bots think until the test releases them, so a tick that asked
    them itself could not return before they answered."""
    settings.MATCH_WAKEUPS = "thread"
    sleepers, house_match = bot_matches
    released, answered = threading.Event(), []
    ask = players.HostedBot.ask

    def think_until_released(self, match, state, seat):
        released.wait(10)
        answered.append(match.pk)
        return ask(self, match, state, seat)

    monkeypatch.setattr(players.HostedBot, "ask", think_until_released)
    monkeypatch.setattr(asking, "_pool", asking.FairPool(threads=3, per_party=3))
    wakeups.sweep()
    assert answered == [], "the tick returned while every bot was still thinking"
    assert MatchAction.objects.filter(match=house_match).count() >= 1, "and the house bot has moved"
    released.set()
    eventually(lambda: MatchAction.objects.filter(source=MatchAction.Source.SANDBOX).count() == 3)
    assert sorted(answered) == sorted(match.pk for match in sleepers)
    for match in sleepers:
        assert MoveQuestion.objects.filter(match=match).count() == 1
        assert MatchAction.objects.filter(match=match, source=MatchAction.Source.SANDBOX).count() == 1


def test_an_outstanding_question_is_not_asked_twice_until_its_deadline(bot_matches, settings, monkeypatch):
    settings.MATCH_WAKEUPS = "thread"
    pool = QuestionsNoted()
    monkeypatch.setattr(asking, "_pool", pool)
    match = bot_matches[0][0]
    now = timezone.now()
    assert wakeups.wake_all_due(match.pk, now) == 1
    assert wakeups.wake_all_due(match.pk, now + timedelta(seconds=7)) == 0
    match.refresh_from_db()
    assert match.wake_at == MoveQuestion.objects.get(match=match).deadline
    assert wakeups.wake_all_due(match.pk, match.wake_at) == 1, "a question lost with its thread is asked again"
    assert len(pool.asked) == 2


def test_on_the_real_stack_the_question_goes_to_a_worker(bot_matches, settings, monkeypatch):
    settings.MATCH_WAKEUPS = "celery"
    queued = []
    monkeypatch.setattr(tasks.ask_seat, "delay", lambda *args, **kwargs: queued.append((args, kwargs)))
    monkeypatch.setattr(tasks.wake_match, "apply_async", lambda *args, **kwargs: None)
    match = bot_matches[0][0]
    assert wakeups.wake_all_due(match.pk, timezone.now()) == 1
    assert MatchAction.objects.filter(match=match).count() == 0, "the waking task did not ask the bot itself"
    owner = match.seats.first().user.bot_owner_id
    assert queued == [((match.pk, 0, match.engine.to_act(match.load_state())[0]), {"party": f"owner-{owner}"})]
    monkeypatch.setattr(asking, "_pool", asking.FairPool(threads=1, per_party=1))
    args, kwargs = queued[0]
    tasks.ask_seat(*args, **kwargs)  # on the bot worker: into its bot threads
    eventually(lambda: MatchAction.objects.filter(match=match, source=MatchAction.Source.SANDBOX).count() == 1)
