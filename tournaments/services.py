"""Entering, checking in, withdrawing, and organizers' corrections; running is Celery's job (running.py)."""

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from botapi.services import check_tested_for
from games.matches.errors import MatchError
from games.matches.lifecycle import forfeit, house_bot_user, locked, same_owner
from games.matches.models import Match
from games.registry import bot_names
from tournaments import scoring
from tournaments.models import Entry, Score, ScoreCorrection, Table, Tournament

RESEATING = (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)  # formats a player can leave between rounds


def accepts_entries(tournament: Tournament) -> bool:
    """Open before the start; a Swiss with late entry stays open until its last late round is
    seated, paused or not (a pause between rounds is when an arbiter admits a latecomer)."""
    if tournament.is_open:
        return True
    live = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    if tournament.status not in live or tournament.format != Tournament.Format.SWISS:
        return False
    if not tournament.late_entry_rounds:
        return False
    seated = tournament.tables.order_by("-round").values_list("round", flat=True).first() or 0
    return seated < tournament.late_entry_rounds


def enter(tournament_id: int, user) -> Entry:
    """Enter before the start, or late: paired from the next round on, with a zero- or
    half-point bye (the organizer's `late_entry_points`) for each round already seated."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not accepts_entries(tournament):
            raise MatchError("closed", "Entries for this tournament are closed.")
        if tournament.entries.filter(user=user).exists():
            raise MatchError("already_entered", "You are already entered.")
        if tournament.entries.count() >= tournament.max_entries:
            raise MatchError("full", "This tournament is full.")
        entered = tournament.entries.filter(house_bot="").select_related("user")
        if any(same_owner(entry.user, user) for entry in entered):
            raise MatchError(
                "same_owner", "A person and their bots (or two bots of one owner) do not enter the same tournament."
            )
        if user.is_bot:
            check_tested_for(user, tournament.game)
        entry = Entry.objects.create(tournament=tournament, user=user)
        score_missed_rounds(tournament, entry)
        return entry


def score_missed_rounds(tournament: Tournament, entry: Entry) -> None:
    """FIDE's rule for late entrants: each round they missed is an unplayed round worth the
    organizer's zero or half point, so they pair (and rank) with the players they can catch."""
    seated = tournament.tables.order_by("-round").values_list("round", flat=True).first() or 0
    Score.objects.bulk_create(
        Score(tournament=tournament, entry=entry, round=number, points=tournament.late_entry_points, kind=scoring.LATE)
        for number in range(1, seated + 1)
    )


def withdraw(tournament_id: int, user) -> None:
    """A player leaves of their own accord (take_out says how and when)."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None or entry.withdrawn_after is not None:
            raise MatchError("not_entered", "You are not entered.")
        take_out(tournament, entry)


def take_out(tournament: Tournament, entry: Entry) -> None:
    """Before the start the entry is deleted; while running, the player is not paired again
    (a match under way is played out or left as usual) and stays in the standings. The player
    leaving and the organizer withdrawing them both come here (locked tournament)."""
    if tournament.is_open:
        entry.delete()
        return
    refused = withdrawal_refused(tournament)
    if refused:
        raise MatchError("closed", refused)
    entry.withdrawn_after = tournament.tables.order_by("-round").values_list("round", flat=True).first() or 0
    entry.save(update_fields=["withdrawn_after"])
    if tournament.format == Tournament.Format.KNOCKOUT:
        leave_games(tournament, entry)


def leave_games(tournament: Tournament, entry: Entry, now: datetime | None = None) -> None:
    """A knockout cannot wait for a player who has left it: their games under way end for them
    now (resigned where they came to the table, else forfeited as never come, which is no game
    won over the board), so the opponent goes through without waiting out the no-show time
    (brackets.bracket gives a withdrawn player's series to the other; later seats are left as
    they are seated)."""
    now = now or timezone.now()
    under_way = Table.objects.filter(tournament=tournament, scored=False, match__status=Match.Status.RUNNING)
    for table in under_way:
        if entry.pk not in table.seating:
            continue
        with transaction.atomic():
            match = locked(table.match_id)
            seat = match.seat_of(entry.user)
            if match.status == Match.Status.RUNNING and seat is not None and seat.forfeited_at is None:
                forfeit(match, seat, now, resigned=seat.came)


def withdrawal_refused(tournament: Tournament) -> str:
    """Why nobody can withdraw from the tournament now, in words ("" when they can)."""
    if tournament.is_open:
        return ""
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return "The tournament is over: nobody can withdraw any more."
    if tournament.format not in RESEATING and tournament.format != Tournament.Format.KNOCKOUT:
        return "Players can no longer withdraw once the tournament has started: a series keeps its tables together."
    return ""  # a pause is when an arbiter takes withdrawals: resuming seats the next round without them


def pairing_again_refused(tournament: Tournament) -> str:
    """Why a withdrawn player cannot be paired again now, in words ("" when they can)."""
    live = (Tournament.Status.RUNNING, Tournament.Status.PAUSED)
    if tournament.status not in live or tournament.format not in RESEATING:
        return "A withdrawn player can be paired again only while a Swiss or round robin is running or paused."
    if tournament.current_round >= tournament.rounds:
        return "The last round is already seated: there is no next round to pair them in."
    return ""


def check_in(tournament_id: int, user, now: datetime | None = None) -> Entry:
    """Confirm before the start that you will play (when the tournament asks for it)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise MatchError("not_entered", "You are not entered.")
        opens = tournament.starts_at - timedelta(minutes=tournament.check_in_minutes)
        if not tournament.is_open or not tournament.check_in_minutes or not opens <= now < tournament.starts_at:
            raise MatchError(
                "not_check_in_time",
                f"Check-in is open from {opens:%H:%M} until the start at {tournament.starts_at:%H:%M}.",
            )
        entry.checked_in_at = now
        entry.save(update_fields=["checked_in_at"])
        return entry


def correct_result(table_id: int, organizer, points: dict[int, float], reason: str) -> ScoreCorrection:
    """The organizer sets a scored table's points (a wrong result, a forfeit to reverse),
    recorded with who, when and why; later rounds are paired on the corrected standings."""
    if not reason.strip():
        raise MatchError("bad_request", "Say why the result is corrected.")
    with transaction.atomic():
        table = Table.objects.select_related("tournament").get(pk=table_id)
        tournament = Tournament.objects.select_for_update().get(pk=table.tournament_id)
        if tournament.organizer_id != organizer.pk and not organizer.is_superuser:
            raise MatchError("not_organizer", "Only the tournament's organizer may correct its results.")
        if not table.scored:
            raise MatchError("not_scored", "This table has no result to correct yet.")
        if sorted(points) != sorted(table.seating):
            raise MatchError("bad_request", "Give points for every player at the table, and only for them.")
        check_correction(tournament, points)
        scores = {score.entry_id: score for score in Score.objects.filter(table=table)}
        before = {str(entry_id): score.points for entry_id, score in scores.items()}
        for entry_id, earned in points.items():
            score = scores.get(entry_id) or Score(
                tournament=tournament, entry_id=entry_id, round=table.round, table=table
            )
            score.points, score.kind = float(earned), scoring.PLAYED
            score.save()
        return ScoreCorrection.objects.create(
            table=table,
            by=organizer,
            reason=reason.strip(),
            before=before,
            after={str(entry_id): float(earned) for entry_id, earned in points.items()},
        )


KNOCKOUT_RESULTS_STAY = "A knockout's results decided who went through, so they cannot be corrected afterwards."


def check_correction(tournament: Tournament, points: dict[int, float]) -> None:
    """A knockout's results already decided who went on, so they stay; Swiss and round robin
    points are shares of a table (scoring.share_points): 0 to 1 each, n/2 at most together."""
    if tournament.format == Tournament.Format.KNOCKOUT:
        raise MatchError("bad_request", KNOCKOUT_RESULTS_STAY)
    if tournament.format in (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN):
        if any(not 0 <= earned <= 1 for earned in points.values()):
            raise MatchError("bad_request", "Each player's points are from 0 (lost to everyone) to 1 (beat everyone).")
        step = 0.5 / (len(points) - 1)  # half a point per opponent: a draw with one of them
        odd = next((earned for earned in points.values() if abs(earned / step - round(earned / step)) > 1e-9), None)
        if odd is not None:
            allowed = "0, 0.5 or 1" if len(points) == 2 else f"in steps of {step:g} (0 to 1)"
            raise MatchError(
                "bad_request", f"At a table of {len(points)} a player's points are {allowed}: {odd:g} is not a result."
            )
        if sum(points.values()) > len(points) / 2:
            most = len(points) / 2
            given = f"{sum(points.values()):g}"
            raise MatchError(
                "bad_request",
                f"A table of {len(points)} gives {most:g} point{'' if most == 1 else 's'} in all; these add up to "
                f"{given}: lower someone's.",
            )


def add_house_bot(tournament_id: int, bot_name: str) -> Entry:
    """Enter one of the game's house bots (organizers fill fields with them); each copy is an account."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not accepts_entries(tournament):
            raise MatchError("closed", "Entries for this tournament are closed.")
        if bot_name not in bot_names(tournament.game):
            raise MatchError(
                "bad_request", f"No house bot {bot_name!r}; choose from {', '.join(bot_names(tournament.game))}."
            )
        if tournament.entries.count() >= tournament.max_entries:
            raise MatchError("full", "This tournament is full.")
        copy = 1 + tournament.entries.filter(house_bot=bot_name).count()
        entry = Entry.objects.create(tournament=tournament, user=house_bot_user(bot_name, copy), house_bot=bot_name)
        score_missed_rounds(tournament, entry)
        return entry
