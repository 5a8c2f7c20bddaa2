"""The bot ladder runs itself: opted-in bots of similar rating meet in rated matches, within budget."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from botapi import ladder
from botapi.models import BotCode, BotProfile
from botapi.tasks import ladder_tick
from games.matches import wakeups
from games.matches.models import Match
from ratings.models import Rating
from ratings.services import PAIR_GAMES_PER_DAY

pytestmark = pytest.mark.django_db(transaction=True)

# Doubts whenever it may: the shortest Dudo games, since every move runs in the sandbox.
DOUBTER = 'def choose(view, legal):\n    return next((a for a in legal if a["type"] == "doubt"), legal[0])\n'


def ladder_bot(owner, name: str, elo: float = 1500, opted_in: bool = True, per_day: int = 20):
    bot = type(owner).objects.create_user(username=name, is_bot=True, bot_owner=owner)
    BotCode.objects.create(bot=bot, version=1, source=DOUBTER)
    BotProfile.objects.create(bot=bot, ladder=opted_in, ladder_game="dudo", ladder_games_per_day=per_day)
    Rating.objects.create(user=bot, game="dudo", elo=elo, mu=25 + (elo - 1500) / 60)
    return bot


def opponents(match) -> set[str]:
    return set(match.seats.values_list("user__username", flat=True))


def test_the_beat_task_pairs_opted_in_bots_of_other_owners_and_similar_rating(alice, bob, carol, settings):
    settings.MATCHMAKING_RATING = "elo"
    ladder_bot(alice, "Ace", 1500), ladder_bot(alice, "Deuce", 1510)
    ladder_bot(bob, "Bee", 1520)
    ladder_bot(carol, "Far", 2400)
    ladder_bot(carol, "Shy", 1505, opted_in=False)
    assert ladder_tick() == 1
    match = Match.objects.get()
    assert match.ranked and match.status == Match.Status.RUNNING
    assert opponents(match) in ({"Ace", "Bee"}, {"Deuce", "Bee"}), "never Ace against Deuce (one owner)"
    assert ladder_tick() == 0, "a bot plays one ladder match at a time; Far has nobody near"


def test_ladder_matches_are_rated_and_stop_at_the_daily_budget(alice, bob, settings):
    settings.MATCHMAKING_RATING = "elo"
    ladder_bot(alice, "Ace", per_day=2), ladder_bot(bob, "Bee", per_day=5)
    for _ in range(2):
        (match,) = ladder.run_ladder()
        finished = wakeups.play_out(match.pk)
        assert finished.rating_changes.count() == 2
    assert ladder.run_ladder() == [], "Ace has played its two rated matches today"
    tomorrow = timezone.now() + timedelta(days=1, minutes=1)
    assert len(ladder.run_ladder(tomorrow)) == 1


def test_two_bots_that_used_up_their_rated_games_together_today_are_not_paired_again(alice, bob, settings):
    """One pair's rated games are limited a day (docs/security.md, "Fair play"): the ladder does not
    seat them for a game that would not be rated."""
    settings.MATCHMAKING_RATING = "elo"
    ladder_bot(alice, "Ace"), ladder_bot(bob, "Bee")
    for _ in range(PAIR_GAMES_PER_DAY):
        (match,) = ladder.run_ladder()
        assert wakeups.play_out(match.pk).rating_changes.count() == 2
    assert ladder.run_ladder() == [], "a sixth game between them today would not be rated"
    assert len(ladder.run_ladder(timezone.now() + timedelta(days=1, minutes=1))) == 1


def test_a_suspended_bot_sits_out(alice, bob):
    ladder_bot(alice, "Ace"), ladder_bot(bob, "Bee")
    BotProfile.objects.filter(bot__username="Bee").update(suspended_at=timezone.now())
    assert ladder.run_ladder() == []


def test_the_owner_opts_in_for_a_game_over_the_api(alice):
    client = APIClient()
    client.force_authenticate(alice)
    client.post("/api/bots/", {"name": "Ace"}, format="json")
    opted = client.post("/api/bots/Ace/ladder/", {"ladder": True, "game": "dudo", "games_per_day": 7}, format="json")
    assert opted.status_code == 200, opted.json()
    assert opted.json()["ladder"] is True and opted.json()["ladder_game"] == "dudo"
    assert BotProfile.objects.get().ladder_games_per_day == 7
    refused = client.post("/api/bots/Ace/ladder/", {"ladder": True}, format="json")
    assert refused.status_code == 400


def test_a_driven_bot_that_came_is_not_blamed_for_one_that_did_not(alice, bob):
    """A tester's bot that had opened its table waited for the silent bot seated to start, never had
    a turn, and was named as not coming and kept off the ladder with it."""
    from botapi.models import LadderMatch
    from games.matches import lifecycle, presence

    came = type(alice).objects.create_user(username="Came", is_bot=True, bot_owner=alice)
    silent = type(alice).objects.create_user(username="Silent", is_bot=True, bot_owner=bob)
    now = timezone.now()
    match = lifecycle.start_seated_match(game="dudo", seats=[{"user": came}, {"user": silent}], now=now, ranked=True)
    LadderMatch.objects.create(match=match, started_at=now)
    presence.connected(match.pk, 0, "came-s-socket", True)
    later = now + timedelta(seconds=ladder.SHOW_UP_SECONDS + 1)
    assert ladder.call_off_no_shows(later) == [match]
    assert not ladder.did_not_come(came, now) and ladder.did_not_come(silent, now)
