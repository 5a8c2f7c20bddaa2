"""What staff do about a flag: dismiss it, void one match's rating changes, stop an account's
rated play. Each writes its line in the audit log (ReviewAction) in the same transaction."""

from django.db import transaction

from fairplay.models import Flag, RatedPlayStop, ReviewAction
from games.matches.models import Match
from ratings.models import RatingChange
from ratings.recompute import recompute


def dismiss(flag: Flag, staff, note: str = "") -> None:
    with transaction.atomic():
        flag.status = Flag.Status.DISMISSED
        flag.save(update_fields=["status", "updated_at"])
        ReviewAction.objects.create(staff=staff, user=flag.user, flag=flag, kind=ReviewAction.Kind.DISMISS, note=note)


def void_match(match: Match, user, staff, flag: Flag | None = None, note: str = "") -> int:
    """Take the match out of the ratings ledger and rebuild its game's ratings without it; how
    many rating changes it undid."""
    with transaction.atomic():
        undone = unrate(match)
        if flag is not None:
            flag.status = Flag.Status.ACTED
            flag.save(update_fields=["status", "updated_at"])
        ReviewAction.objects.create(
            staff=staff, user=user, flag=flag, kind=ReviewAction.Kind.VOID_MATCH, match_id=match.pk, note=note
        )
    return undone


def stop_rated_play(user, staff, flag: Flag | None = None, note: str = "") -> None:
    """From now on the account's rated results are voided as they come, and it may not join the
    ranked queue; what it already won stays unless voided match by match."""
    with transaction.atomic():
        RatedPlayStop.objects.get_or_create(user=user)
        if flag is not None:
            flag.status = Flag.Status.ACTED
            flag.save(update_fields=["status", "updated_at"])
        ReviewAction.objects.create(staff=staff, user=user, flag=flag, kind=ReviewAction.Kind.STOP_RATED, note=note)


def rated_play_stopped(user) -> bool:
    return user.is_authenticated and RatedPlayStop.objects.filter(user=user).exists()


def void_stopped_players(match_id: int) -> int:
    """A finished match where an account whose rated play is stopped sat changes nobody's rating."""
    if not RatedPlayStop.objects.filter(user__seats__match_id=match_id).exists():
        return 0  # nearly always: the match row (its snapshot too) is read only when needed
    match = Match.objects.filter(pk=match_id).first()
    return 0 if match is None else unrate(match)


def unrate(match: Match) -> int:
    undone, _ = RatingChange.objects.filter(match=match).delete()
    if undone:
        recompute(match.game)
    return undone
