"""Reading a finished match once, for the Celery task: each account's figures (PlayRecord) and
who could doubt whom and did (ChallengeRecord). Idempotent: a match read twice adds nothing."""

from django.db import transaction

from fairplay import evidence
from fairplay.models import ChallengeRecord, PlayRecord
from games.matches.models import Match, MatchAction
from games.registry import registered

# The moves a seat's own player made: not the clock's default move, nor a house bot finishing for them.
OWN_MOVES = (MatchAction.Source.BROWSER, MatchAction.Source.API, MatchAction.Source.SANDBOX)


def read_match(match: Match) -> list[int]:
    """Store what the finished match says of each seated account; the accounts' ids."""
    seats = list(match.seats.select_related("user"))
    seat_user = {seat.number: seat.user_id for seat in seats}
    history = match.whole_history()
    game = registered(match.game)
    reactions = game.reaction_times(history) if game.reaction_times else {}
    thinking = evidence.think_times(think_moves(match))
    pairs = game.doubt_chances(history) if game.doubt_chances else {}
    with transaction.atomic():
        PlayRecord.objects.bulk_create(
            [
                PlayRecord(
                    match=match,
                    user_id=seat.user_id,
                    game=match.game,
                    person=not seat.user.is_bot,
                    reactions_ms=reactions.get(seat.number, []),
                    think_seconds=[round(s, 3) for s in thinking.get(seat.number, [])],
                )
                for seat in seats
            ],
            ignore_conflicts=True,
        )
        ChallengeRecord.objects.bulk_create(
            [
                ChallengeRecord(
                    match=match, doubter_id=seat_user[doubter], target_id=seat_user[target], chances=c, doubts=d
                )
                for (doubter, target), (c, d) in pairs.items()
            ],
            ignore_conflicts=True,
        )
    return list(seat_user.values())


def think_moves(match: Match) -> list[tuple[int, float]]:
    """(seat, seconds since the previous move or the start) for each move a player made
    themselves, in a turn-based game (a real-time race has no turns to think on)."""
    if match.engine.realtime or match.started_at is None:
        return []
    moves, previous = [], match.started_at
    for seat, source, at in match.actions.order_by("seq").values_list("seat", "source", "created_at"):
        if source in OWN_MOVES:
            moves.append((seat, (at - previous).total_seconds()))
        previous = at
    return moves
