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


def accepts_entries(tournament: Tournament) -> bool:
    """Open before the start; after it, while running or paused, where the format takes late
    entries (a Swiss with late entry)."""
    if tournament.is_open:
        return True
    return tournament.status in Tournament.LIVE and tournament.rules.accepts_late_entries()


def enter(tournament_id: int, user) -> Entry:
    """Enter before the start, or late where the format takes late entries (a Swiss: paired from
    the next round on; TournamentFormat.entered)."""
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
        refused = tournament.rules.entry_refused(user)
        if refused:
            raise MatchError("refused", refused)
        entry = Entry.objects.create(tournament=tournament, user=user)
        tournament.rules.entered(entry)
        return entry


def acted_on(tournament_id: int, user, entry_id: int | None) -> tuple[Tournament, Entry]:
    """The tournament, locked, and the entry `user` acts on: their own, or, given `entry_id`, that
    entry of a tournament they manage (anybody else's is as missing as one that does not exist)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
    if entry_id is None:
        entry = tournament.entries.filter(user=user).first()
        if entry is None:
            raise MatchError("not_entered", "You are not entered.")
        return tournament, entry
    if not tournament.managed_by(user):
        raise Tournament.DoesNotExist(f"No tournament {tournament_id} of yours.")
    entry = tournament.entries.select_related("user").filter(pk=entry_id).first()
    if entry is None:
        raise MatchError("not_entered", "That entry is not in this tournament.")
    return tournament, entry


def withdraw(tournament_id: int, user, entry_id: int | None = None) -> Entry:
    """A player leaves of their own accord, or, given `entry_id`, their organizer takes them out
    for them (one who left the club); take_out says how and when."""
    with transaction.atomic():
        tournament, entry = acted_on(tournament_id, user, entry_id)
        if entry.withdrawn_after is not None and entry_id is None:
            raise MatchError("not_entered", "You are not entered.")
        if entry.withdrawn_after is not None:
            raise MatchError("withdrawn", f"{entry.user.username} has already withdrawn.")
        take_out(tournament, entry)
    return entry


def take_out(tournament: Tournament, entry: Entry) -> None:
    """Before the start the entry is deleted; while running, the player is not paired again
    (a match under way is played out or left as usual) and stays in the standings (locked
    tournament; `withdraw` is how a player or their organizer asks for it)."""
    if tournament.is_open:
        entry.delete()
        return
    refused = withdrawal_refused(tournament)
    if refused:
        raise MatchError("closed", refused)
    entry.withdrawn_after = tournament.current_round
    entry.save(update_fields=["withdrawn_after"])
    if tournament.rules.leaves_at_once:
        leave_games(tournament, entry)


def leave_games(tournament: Tournament, entry: Entry, now: datetime | None = None) -> None:
    """A format that cannot wait for a player who has left it (a knockout, `leaves_at_once`):
    their games under way end for them now (resigned where they came to the table, else
    forfeited as never come, which is no game won over the board), so the opponent goes through
    without waiting out the no-show time (brackets.bracket gives a withdrawn player's series to
    the other; later seats are left as they are seated)."""
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
    return tournament.rules.withdrawal_refused()  # a pause is when an arbiter takes withdrawals


def pairing_again_refused(tournament: Tournament) -> str:
    """Why a withdrawn player cannot be paired again now, in words ("" when they can)."""
    if tournament.status not in Tournament.LIVE or not tournament.rules.reseats:
        return "A withdrawn player can be paired again only while a Swiss or round robin is running or paused."
    if tournament.current_round >= tournament.rounds:
        return "The last round is already seated: there is no next round to pair them in."
    return ""


def check_in(tournament_id: int, user, entry_id: int | None = None, now: datetime | None = None) -> Entry:
    """Confirm before the start that a player will play, where the tournament asks for it: the
    player in the last `check_in_minutes`, or, given `entry_id`, their organizer for them (one who
    tells the desk they are here) any time before the start. The first check-in stands."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament, entry = acted_on(tournament_id, user, entry_id)
        asked = tournament.is_open and tournament.check_in_minutes
        opens = tournament.starts_at - timedelta(minutes=tournament.check_in_minutes)
        if entry_id is None and not (asked and opens <= now < tournament.starts_at):
            raise MatchError(
                "not_check_in_time",
                f"Check-in is open from {opens:%H:%M} until the start at {tournament.starts_at:%H:%M}.",
            )
        if not asked:
            raise MatchError("no_check_in", "Check-in is over, or this tournament does not ask for it.")
        entry.checked_in_at = entry.checked_in_at or now
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
        # a stopped game's points counted nowhere: None, "not counted" on the page
        before = {str(e): None if s.kind == scoring.UNPLAYED else s.points for e, s in scores.items()}
        # 0 for everyone is a double forfeit (FIDE: lost by both, no game for either), not a draw of nothing
        kind = scoring.FORFEITED if tournament.rules.double_forfeit(points) else scoring.PLAYED
        for entry_id, earned in points.items():
            score = scores.get(entry_id) or Score(
                tournament=tournament, entry_id=entry_id, round=table.round, table=table
            )
            score.points, score.kind = float(earned), kind
            score.save()
        return ScoreCorrection.objects.create(
            table=table,
            by=organizer,
            reason=reason.strip(),
            before=before,
            after={str(entry_id): float(earned) for entry_id, earned in points.items()},
        )


def check_correction(tournament: Tournament, points: dict[int, float]) -> None:
    """Refused where the format's results stay (a knockout's decided who went on), or where the
    points cannot be a table's result by the format (a Swiss table's shares)."""
    refused = tournament.rules.corrections_refused or tournament.rules.correction_errors(points)
    if refused:
        raise MatchError("bad_request", refused)


def enter_house_bot(tournament_id: int, bot_name: str) -> Entry:
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
        tournament.rules.entered(entry)
        return entry
