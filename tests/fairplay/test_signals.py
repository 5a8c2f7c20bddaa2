"""The after-match task: finished matches are read in Celery, accounts judged, flags kept."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from fairplay import tasks
from fairplay.judge import judge_match
from fairplay.models import ChallengeRecord, Flag, PlayRecord, Sighting
from games.matches import tasks as match_tasks
from games.matches.models import Match
from ratings.services import rate_match

pytestmark = pytest.mark.django_db


def as_people(match: Match, make_user, prefix: str) -> list:
    """Give the bots' seats to people's accounts, as if people had played those moves."""
    people = []
    for seat in match.seats.order_by("number"):
        person = make_user(f"{prefix}{seat.number}")
        match.seats.filter(pk=seat.pk).update(user=person)
        people.append(person)
    return people


def test_a_finished_match_is_read_after_scoring_and_a_dobble_script_is_flagged(
    monkeypatch, make_user, django_capture_on_commit_callbacks
):
    from dubium import demo
    from games.dobble.bots import HardBot

    monkeypatch.setattr(HardBot, "median_ms", 300)  # seat 0 claims like a script: right, in a third of a second
    monkeypatch.setattr(HardBot, "sigma", 0.05)
    match = demo.play_bot_match("dobble", ["hard", "easy"], seed=3)
    script, person = as_people(match, make_user, "dobble")
    with django_capture_on_commit_callbacks(execute=True):
        match_tasks.settle(match.pk)  # the match service's announcement, as its scoring task makes it
    assert PlayRecord.objects.filter(match=match).count() == 2
    flag = Flag.objects.get(user=script)
    assert flag.kind == Flag.Kind.REACTIONS and flag.matches_seen == 1
    assert flag.evidence["share under bound"] > 0.9 and flag.evidence["chart"]["labels"][0] == "0-250"
    assert not Flag.objects.filter(user=person).exists()


def test_reading_a_match_twice_adds_nothing(make_user):
    from dubium import demo

    match = demo.play_bot_match("doubt-it", ["heuristic"] * 3, seed=4)
    as_people(match, make_user, "twice")
    tasks.review_match(match.pk)
    rows = list(ChallengeRecord.objects.filter(match=match).values_list("chances", "doubts"))
    assert rows and sum(c for c, _ in rows) > 0
    tasks.review_match(match.pk)
    assert ChallengeRecord.objects.filter(match=match).count() == len(rows)
    assert PlayRecord.objects.filter(match=match).count() == 3


def test_a_pair_that_never_doubts_each_other_at_four_seat_tables_is_flagged(finished_match, make_user):
    a, b = make_user("ann"), make_user("ben")
    others = [make_user(f"other{n}") for n in range(12)]
    for n in range(6):
        x, y = others[2 * n], others[2 * n + 1]
        match = finished_match("doubt-it", [a, b, x, y], [[0], [1], [2], [3]], ranked=False)
        table = [(a, b, 12, 0), (b, a, 12, 0)] + [
            (doubter, target, 12, 3) for doubter in (a, b, x, y) for target in (a, b, x, y)
            if doubter != target and {doubter, target} != {a, b}
        ]  # fmt: skip
        ChallengeRecord.objects.bulk_create(
            ChallengeRecord(match=match, doubter=d, target=t, chances=c, doubts=k) for d, t, c, k in table
        )
        tasks.review_match(match.pk)
    flagged = {(f.user, f.partner) for f in Flag.objects.filter(kind=Flag.Kind.COLLUSION)}
    assert flagged == {(a, b), (b, a)}


def test_a_pair_that_hands_one_account_its_wins_from_one_browser_is_flagged_for_farming(finished_match, make_user):
    winner, feeder, rival = make_user("winner"), make_user("feeder"), make_user("rival")
    Sighting.objects.create(user=winner, address="10.0.0.7", browser="b" * 32)
    Sighting.objects.create(user=feeder, address="10.0.0.9", browser="b" * 32)
    for _ in range(3):
        fair = finished_match("dudo", [winner, rival], [[1], [0]])
        rate_match(fair.pk)
        tasks.review_match(fair.pk)
    for day in range(9):  # a game a day: the pair limit leaves a few a day rated (docs/security.md)
        match = finished_match("dudo", [winner, feeder], [[0], [1]], minute=(day + 1) * 24 * 60)
        rate_match(match.pk)
        tasks.review_match(match.pk)
    flags = Flag.objects.filter(kind=Flag.Kind.FARMING)
    assert {(f.user, f.partner) for f in flags} == {(winner, feeder), (feeder, winner)}
    assert flags.get(user=winner).evidence["shared address or browser"] is True


def test_signing_in_notes_the_address_and_the_browser(client, alice):
    client.get("/")
    browser = client.cookies["dubium_browser"].value
    client.post("/accounts/login/", {"username": "alice", "password": "correct horse battery"})
    assert Sighting.objects.filter(user=alice, browser=browser, address="127.0.0.1").exists()


def test_a_farmer_fed_by_fourteen_puppets_that_play_nobody_else_is_flagged_as_a_ring(finished_match, make_user):
    """A tester's 14 fresh accounts each lost the pair limit's 5 games to one account: under the pair
    signal's 6 games, and the farmer stood first on the Dudo ladder (docs/fair-play.md, "Rings")."""
    farmer = make_user("farmer")
    for number in range(14):
        puppet = make_user(f"puppet{number}")
        for _ in range(5):
            match = finished_match("dudo", [farmer, puppet], [[0], [1]])
            rate_match(match.pk)
            tasks.review_match(match.pk)
    [flag] = Flag.objects.all()
    assert (flag.user, flag.kind, flag.game, flag.partner) == (farmer, Flag.Kind.RING, "dudo", None)
    assert {key: flag.evidence[key] for key in ("opponents", "opponents who played nobody outside the ring")} == {
        "opponents": 14,
        "opponents who played nobody outside the ring": 14,
    }
    assert flag.evidence["score against them"] == 1.0 and flag.evidence["rating gained from them"] > 350
    assert len(flag.evidence["chart"]["labels"]) == 14


def test_a_strong_player_whose_opponents_play_others_too_is_not_a_ring(finished_match, make_user):
    strong = make_user("strong")
    field = [make_user(f"club{number}") for number in range(8)]
    for number, member in enumerate(field):
        rate_match(finished_match("dudo", [member, make_user(f"stranger{number}")], [[0], [1]]).pk)  # the queue
        for _ in range(4):
            match = finished_match("dudo", [strong, member], [[0], [1]])
            rate_match(match.pk)
            tasks.review_match(match.pk)
    assert not Flag.objects.exists()


def test_a_review_that_flags_nobody_asks_nothing_of_the_flags(finished_match, make_user):
    """Nearly every review flags nobody; each judged account's flag was read all the same."""
    calm, steady = make_user("calm"), make_user("steady")
    match = finished_match("dudo", [calm, steady], [[0], [1]])
    rate_match(match.pk)
    with CaptureQueriesContext(connection) as queries:
        tasks.review_match(match.pk)
    assert PlayRecord.objects.filter(match=match).count() == 2
    assert not Flag.objects.exists()
    assert [query["sql"] for query in queries if Flag._meta.db_table in query["sql"]] == []


def test_an_account_that_thinks_like_a_clock_is_flagged_with_its_times_charted_beside_peoples(
    finished_match, make_user
):
    """The chart of a written flag sets the account's think times beside everybody else's (read
    only for a flag, since they are up to 5,000 records)."""
    clock, person = make_user("clock"), make_user("person")
    for _ in range(3):  # the last one just finished
        match = finished_match("dudo", [clock, person], [[0], [1]], ranked=False)
        PlayRecord.objects.create(match=match, user=clock, game="dudo", person=True, think_seconds=[2.0] * 15)
        varied = [0.7, 1.5, 4, 9, 25] * 3
        PlayRecord.objects.create(match=match, user=person, game="dudo", person=True, think_seconds=varied)

    judge_match(match, [clock.pk, person.pk])

    [flag] = Flag.objects.all()
    assert (flag.user, flag.kind, flag.evidence["moves"]) == (clock, Flag.Kind.REGULARITY, 45)
    chart = flag.evidence["chart"]
    assert chart["labels"][3] == "2-3" and chart["series"]["this account"][3] == 1.0
    assert chart["series"]["people"] == [0, 0.2, 0.2, 0, 0.2, 0, 0.2, 0, 0.2]
