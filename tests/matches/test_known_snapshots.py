"""A move's locking read takes the snapshot this process committed at the match's seq instead of
reading it again (rows.KNOWN), and only that one: not one rolled back, not an older one, not
another match's that had the same id."""

import json

import pytest
from django.db import connection, transaction

from games.engine import get_game
from games.matches import rows
from games.matches.actions import submit_action
from games.matches.models import Match
from tests.matches.conftest import OPENING_BID

pytestmark = pytest.mark.django_db(transaction=True)

ELSEWHERE = {"written": "by nobody"}


def bid(match: Match) -> Match:
    """The opening bid, by whoever is to act."""
    match.refresh_from_db()
    seat = get_game("dudo").to_act(match.load_state())[0]
    return submit_action(match.pk, match.seats.get(number=seat).user, OPENING_BID, seq=match.seq)


def locked_state(match_id: int):
    with transaction.atomic():
        match, _ = rows.lock_with_seats(match_id)
    return match.state


def test_a_committed_snapshot_is_known_as_written_and_used_in_place_of_the_stored_one(dudo_match):
    moved = bid(dudo_match)

    known = rows.KNOWN.get(moved.pk)
    stored = Match.objects.get(pk=moved.pk).state
    assert (known.seq, known.salt, json.loads(known.text)) == (1, moved.salt, stored)
    rows.KNOWN.note(moved.pk, known._replace(text=json.dumps(ELSEWHERE)))
    assert locked_state(moved.pk) == ELSEWHERE, "the known text stands in for the column"


def test_a_snapshot_known_at_an_older_seq_is_read_again_from_the_database(dudo_match):
    moved = bid(dudo_match)

    rows.KNOWN.note(moved.pk, rows.Known(moved.seq - 1, moved.salt, json.dumps(ELSEWHERE)))
    assert locked_state(moved.pk) == Match.objects.get(pk=moved.pk).state


def test_another_matchs_snapshot_under_the_same_id_is_not_taken(dudo_match):
    moved = bid(dudo_match)

    rows.KNOWN.note(moved.pk, rows.Known(moved.seq, "another match's salt", json.dumps(ELSEWHERE)))
    assert locked_state(moved.pk) == Match.objects.get(pk=moved.pk).state


def test_a_move_rolled_back_leaves_its_snapshot_unknown(dudo_match):
    before = rows.KNOWN.get(dudo_match.pk)

    with pytest.raises(RuntimeError), transaction.atomic():
        bid(dudo_match)
        raise RuntimeError("the transaction fails after the move")

    assert rows.KNOWN.get(dudo_match.pk) == before
    assert Match.objects.get(pk=dudo_match.pk).seq == 0


def test_the_locking_read_builds_the_match_its_seats_and_their_accounts_as_the_orm_loads_them(dudo_match):
    moved = bid(dudo_match)
    with transaction.atomic():
        match, seats = rows.lock_with_seats(moved.pk)

    def fields(instance) -> dict:
        return {name: value for name, value in vars(instance).items() if name != "_state"}

    loaded = list(Match.objects.get(pk=moved.pk).seats.select_related("user", "match"))
    assert fields(match) == fields(loaded[0].match)
    assert [fields(seat) for seat in seats] == [fields(seat) for seat in loaded]
    assert [fields(seat.user) for seat in seats] == [fields(seat.user) for seat in loaded]
    for instance in [match, *seats, *(seat.user for seat in seats)]:
        assert (instance._state.adding, instance._state.db) == (False, "default")
    assert all(seat.match is match for seat in seats)


def test_the_snapshot_is_stored_as_the_very_text_the_move_wrote(dudo_match):
    """Text, not `jsonb`, which PostgreSQL parsed at every write and printed back reordered (jsoncolumns.JSONText)."""
    moved = bid(dudo_match)

    with connection.cursor() as cursor:
        cursor.execute(f"SELECT state FROM {Match._meta.db_table} WHERE id = %s", [moved.pk])
        stored = cursor.fetchone()[0]
    assert stored == rows.KNOWN.get(moved.pk).text
    assert json.loads(stored) == Match.objects.get(pk=moved.pk).state
    if connection.vendor == "postgresql":  # a type change resets a column's compression: migration 0016 sets it again
        with connection.cursor() as cursor:
            cursor.execute("SELECT 'lz4' = ANY(enumvals) FROM pg_settings WHERE name = 'default_toast_compression'")
            has_lz4 = cursor.fetchone()[0]
            cursor.execute(
                "SELECT attcompression FROM pg_attribute WHERE attrelid = %s::regclass AND attname = 'state'",
                [Match._meta.db_table],
            )
            assert cursor.fetchone()[0] == ("l" if has_lz4 else "")
