"""Finished matches made directly as rows (no engine): seats, a few moves each, a result."""

from datetime import datetime, timedelta

import pytest


@pytest.fixture
def finished_match(db):
    """finished_match(game, users, ranking) -> a finished ranked Match where every seat moved twice.

    Options: ranked, status, forfeited (seat numbers; they had opened the table, unless also in
    absent: never came and never moved), movers (seats that moved; default all),
    timeouts (seats with only clock-made moves), minute (finished_at = 2026-01-01 12:00 + minutes),
    scores.
    """
    from django.utils import timezone

    from games.matches.models import Match, MatchAction, Seat

    start = timezone.make_aware(datetime(2026, 1, 1, 12, 0))
    counter = {"minute": 0}

    def make(
        game,
        users,
        ranking,
        *,
        ranked=True,
        status="finished",
        forfeited=(),
        absent=(),
        movers=None,
        timeouts=(),
        minute=None,
        scores=None,
    ):
        counter["minute"] += 1
        at = start + timedelta(minutes=counter["minute"] if minute is None else minute)
        match = Match.objects.create(
            game=game,
            players=len(users),
            seed=1,
            ranked=ranked,
            status=status,
            started_at=at - timedelta(minutes=1),
            finished_at=at if status == "finished" else None,
            result={"ranking": ranking, "scores": scores or {}, "forfeited": list(forfeited)},
        )
        for number, user in enumerate(users):
            gone = number in forfeited
            Seat.objects.create(
                match=match, number=number, user=user, forfeited_at=at if gone else None,
                disconnected_at=at if gone and number not in absent else None,
            )  # fmt: skip
        moving = [n for n in (range(len(users)) if movers is None else movers) if n not in absent]
        log = [(n, MatchAction.Source.BROWSER) for n in moving] * 2 + [
            (n, MatchAction.Source.TIMEOUT) for n in timeouts
        ]
        for seq, (seat, source) in enumerate(log):
            MatchAction.objects.create(match=match, seq=seq, seat=seat, action={"type": "x"}, source=source)
        match.seq = len(log)
        match.save(update_fields=["seq"])
        return match

    return make


@pytest.fixture
def bot(make_user):
    return make_user("robo", is_bot=True)


@pytest.fixture
def dave(make_user):
    return make_user("dave")
