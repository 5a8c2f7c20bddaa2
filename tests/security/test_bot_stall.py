"""The stall attack (issue 32), embedded: webhooks that trickle their headers and one owner's bots
sleeping through their moves in 40 matches hold up nothing the site runs.

Before: a webhook's deadline covered its body only, a match's `end` notice was posted on the
ticker, and four bot threads were shared first come first served, so the ticker froze (a house
bot answered 40.3 s late) and another owner's bot made 2 moves in 30 s. The ticker, the bot
threads and the attackers run here as in `make run`; each check waits for its condition.
"""

import threading
from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from botapi import sandbox, services
from botapi.models import BotCode
from dubium.ticker import start_ticker
from games.lobby import matchmaking
from games.lobby.models import QueuePairing
from games.matches import asking, lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match, MatchAction
from tests.botapi.test_asking import eventually, house
from tests.botapi.webhook_server import BotServer
from tournaments import services as tournament_services
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)

SLEEPER = "import time\n\ndef choose(view, legal):\n    time.sleep(0.9)\n    return legal[0]\n"


@pytest.fixture
def site(settings, monkeypatch):
    """Embedded wake-ups as `make run` has them, beat entries that come round every second."""
    settings.MATCH_WAKEUPS = "thread"
    settings.HOUSE_BOT_THINK_MS = 200
    settings.BOT_MOVE_SECONDS = 1.5
    settings.BOT_WEBHOOK_ALLOW_PRIVATE = True
    settings.BOT_WEBHOOK_MOVE_SECONDS = {"default": 1}
    every_second = {name: {**entry, "schedule": 1} for name, entry in settings.CELERY_BEAT_SCHEDULE.items()}
    settings.CELERY_BEAT_SCHEDULE = every_second
    pool = asking.FairPool(settings.BOT_ASK_THREADS, settings.BOT_ASKS_PER_OWNER)
    monkeypatch.setattr(asking, "_pool", pool)
    stop, server = threading.Event(), BotServer()
    server.mode = "slow_headers"
    yield server, stop
    stop.set()
    server.close()
    Match.objects.update(status=Match.Status.FINISHED)  # the questions still waiting are void
    eventually(lambda: not pool.known)  # no bot thread writes past the test


HELD = timedelta(seconds=10)


def bot(owner, name: str, **code) -> dict:
    account = type(owner).objects.create_user(username=name, is_bot=True, bot_owner=owner)
    Token.objects.create(user=account)
    BotCode.objects.create(bot=account, version=1, **code)
    return {"user": account, "house_bot": "", "code_version": 1}


def attack(owner, endpoint: str, sleepers: int) -> None:
    """Four matches of webhooks that trickle their headers, one of them finished and not yet
    scored (its `end` notice goes out on the first tick), and `sleepers` matches of a bot that
    sleeps through nearly all of its time."""
    now = timezone.now()
    for number in range(4):
        hook = bot(owner, f"Trickle{number}", kind=BotCode.Kind.WEBHOOK, endpoint=endpoint)
        lifecycle.start_seated_match(game="dudo", seats=[hook, house("random", number + 1)], now=now)
    Match.objects.filter(pk=Match.objects.earliest("pk").pk).update(
        status=Match.Status.FINISHED, finished_at=now - timedelta(minutes=1), result={}
    )
    sleeper = bot(owner, "Sleeper", source=SLEEPER)
    for number in range(sleepers):
        lifecycle.start_seated_match(game="dudo", seats=[sleeper, house("random", number + 10)], now=now)


def first_move(match: Match) -> MatchAction | None:
    return MatchAction.objects.filter(match=match).order_by("seq").first()


def test_the_stall_attack_holds_up_no_house_bot_clock_queue_or_tournament(
    site, alice, bob, carol, make_user
):
    server, stop = site
    attack(make_user("mallory"), server.url, sleepers=40)
    start_ticker(stop=stop)
    eventually(lambda: Match.objects.filter(settled_at__isnull=False).exists())  # its `end` notice is out

    now = timezone.now()  # what the site has to do from now on, during the attack
    house_match = lifecycle.start_seated_match(game="dudo", seats=[house("random", 90), house("random", 91)], now=now)
    clock_match = lifecycle.start_seated_matches(
        game="dudo",
        tables=[lifecycle.SeatedTable([{"user": alice}, {"user": bob}])],
        now=now,
        clock=Match.Clock.PER_TURN,
        clock_initial_ms=1000,
    )[0]
    olga = make_user("olga", role="organizer")
    cup = Tournament.objects.create(name="Stall cup", game="dudo", organizer=olga, starts_at=now + timedelta(seconds=1))
    for name in ("random", "heuristic"):
        tournament_services.enter_house_bot(cup.pk, name)
    queued_at = timezone.now()
    for player in (carol, make_user("dave")):
        matchmaking.join_queue(player, "dudo", 2, rating=1500, now=queued_at)

    eventually(lambda: first_move(house_match) and MatchAction.objects.filter(match=clock_match).exists())
    eventually(lambda: QueuePairing.objects.filter(user=carol).exists() and cup.tables.exists())
    house_late = first_move(house_match).created_at - house_match.wake_at
    clock_late = first_move(clock_match).created_at - (now + timedelta(seconds=1))
    tick = timedelta(seconds=1)  # how often the queue and the tournaments are looked at here
    queue_late = QueuePairing.objects.get(user=carol).paired_at - queued_at - tick
    cup_late = Match.objects.filter(pk__in=cup.tables.values("match")).earliest("started_at").started_at - cup.starts_at
    assert first_move(clock_match).source == MatchAction.Source.TIMEOUT
    late = {"house bot": house_late, "clock": clock_late, "queue": queue_late, "tournament": cup_late - tick}
    # Held, not stalled: before, the ticker froze and the worker stood for minutes. The goal of a
    # second is measured by bench/stall.py on a quiet machine (docs/security.md); a suite's machine may be busy.
    assert all(delay <= HELD for delay in late.values()), late


@pytest.mark.once  # the web process's own line
def test_uploads_are_tried_two_at_a_time_eight_wait_and_more_are_refused(alice, monkeypatch):
    """Ten uploads at once ran ten bots of 200 MB side by side in the web process."""
    trying, most, refused, released, lock = [], [0], [], threading.Event(), threading.Lock()

    def first_move(source, request, limits):
        with lock:
            trying.append(source)
            most[0] = max(most[0], len(trying))
        released.wait(20)
        with lock:
            trying.remove(source)
        return request["legal"][0]

    def upload() -> None:
        try:
            services.upload_code(alice, "Busy", "def choose(view, legal):\n    return legal[0]\n", "dudo")
        except MatchError as error:
            refused.append(error)

    services.create_bot(alice, "Busy")
    monkeypatch.setattr(sandbox, "run", first_move)
    uploads = [threading.Thread(target=upload) for _ in range(12)]
    for thread in uploads:
        thread.start()
    eventually(lambda: len(trying) == 2 and len(refused) == 2)
    released.set()
    for thread in uploads:
        thread.join()
    assert most[0] == 2 and BotCode.objects.count() == 10
    assert {(error.code, error.message) for error in refused} == {
        ("busy", "Too many bots are being checked right now: try again in a minute.")
    }
