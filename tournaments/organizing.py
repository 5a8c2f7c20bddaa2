"""What an organizer does to their own tournaments: create, edit, start, pause, resume, cancel,
withdraw an entrant.

The dashboard (dashboard.py) only calls these. Each change locks the tournament row and
checks who asks and what state the tournament is in, so two clicks or two organizers racing
leave it consistent. Organizers manage their own tournaments; superusers manage anybody's;
staff see everybody's. Running a tournament stays the runner's job (running.py): pausing
only stops it from seating new tables, and resuming hands the tables that finished in the
meantime back to it.
"""


from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from botapi.services import check_entered_with_consent
from games.engine import get_game
from games.matches import lifecycle
from games.matches.errors import MatchError
from games.matches.models import Match
from tournaments import notices, running, series, services
from tournaments.models import Entry, Series, Table, Tournament, may_organize

Status = Tournament.Status
# Fields an organizer sets on the dashboard form; the runner owns status and the timestamps.
EDITABLE = (
    "name", "format", "table_size", "rounds", "max_entries", "turn_seconds", "starts_at", "description", "options",
    "late_entry_rounds", "late_entry_points", "check_in_minutes", "tiebreaks", "accelerated_rounds", "forbidden_pairs",
    "series_ranking", "best_of", "advance", "no_show_minutes", "withdraw_no_shows", "time_control", "duration_minutes",
    "berserk",
)


def sees_all(user) -> bool:
    """Staff see every tournament; organizers their own."""
    return user.is_superuser or user.role == user.Role.STAFF


def visible_to(user) -> QuerySet:
    """The tournaments a dashboard lists: staff see everybody's, organizers their own."""
    found = Tournament.objects.select_related("organizer")
    return found if sees_all(user) else found.filter(organizer=user)


def create(organizer, game: str, fields: dict, house_bots: list[str]) -> Tournament:
    """A scheduled tournament owned by `organizer`, with house bots entered (fields are cleaned by the form)."""
    if not may_organize(organizer):
        raise PermissionDenied("Only organizers create tournaments.")
    with transaction.atomic():
        tournament = Tournament.objects.create(organizer=organizer, game=game, **fields)
        for name in house_bots:
            services.enter_house_bot(tournament.pk, name)
    return tournament


def edit(user, tournament_id: int, fields: dict) -> Tournament:
    """Change a tournament that has not started; the game stays (its options depend on it)."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.status != Status.SCHEDULED:
            raise MatchError("started", "The tournament has started: it can no longer be edited.")
        for name in EDITABLE:
            if name in fields:
                setattr(tournament, name, fields[name])
        too_many = tournament.too_many_entered()  # more may have entered since the form was checked
        if too_many:
            raise MatchError("too_many_entered", too_many)
        tournament.save()
    return tournament


def enter_house_bots(user, tournament_id: int, names: list[str]) -> int:
    with transaction.atomic():
        locked_if_managed(user, tournament_id)
        for name in names:
            services.enter_house_bot(tournament_id, name)
    return len(names)


def enter_player(user, tournament_id: int, username: str) -> Entry:
    """Enter a registered player for them (one who signs up at the club's desk); the same
    rules as entering oneself (services.enter): open entries, room, one owner's accounts apart."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        player = get_user_model().objects.filter(username__iexact=username.strip(), is_active=True).first()
        if player is None:
            raise MatchError("no_player", f"Nobody is registered as “{username.strip()}”.")
        if tournament.entries.filter(user=player).exists():
            raise MatchError("already_entered", f"{player.username} is already entered.")
        check_entered_with_consent(user, player)
        return services.enter(tournament.pk, player)


def left_out_at_start(tournament: Tournament) -> list[str]:
    """The names of those starting now leaves out (Tournament.left_out_at_start)."""
    missing = tournament.left_out_at_start().order_by("user__username")
    return list(missing.values_list("user__username", flat=True))


def pair_again(user, tournament_id: int, entry_id: int) -> Entry:
    """Undo a withdrawal (a no-show who explains, a player who changed their mind): paired again
    from the next round seated; the rounds missed stay unplayed."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        entry = tournament.entries.select_related("user").filter(pk=entry_id).first()
        if entry is None or entry.withdrawn_after is None:
            raise MatchError("not_withdrawn", "That player is not withdrawn.")
        refused = services.pairing_again_refused(tournament)
        if refused:
            raise MatchError("closed", refused)
        entry.withdrawn_after = entry.no_show_round = None
        entry.made_no_move = False
        entry.save(update_fields=["withdrawn_after", "no_show_round", "made_no_move"])
    return entry


def start_now(user, tournament_id: int) -> Tournament:
    """Close entries and seat round 1 now instead of at the scheduled time."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.status != Status.SCHEDULED:
            raise MatchError("started", "Only a tournament that has not started can be started.")
        needed = get_game(tournament.game).smallest_table
        entered = tournament.entries.count()
        left_out = len(left_out_at_start(tournament))
        # At the scheduled time too few cancels it; asked now, it waits for more (an arena starts empty).
        if entered - left_out < needed and tournament.rules.needs_a_table_to_start:
            unchecked = f" ({left_out} not checked in)" if left_out else ""
            words = (
                f"Too few to start: {entered - left_out} of {entered} entered would play{unchecked}, at least "
                f"{needed} needed. Add players or house bots{', or check players in' if left_out else ''}."
            )
            raise MatchError("too_few", words)
    return running.start(tournament_id)


def pause(user, tournament_id: int) -> Tournament:
    """Seat no new table: matches already under way are played out and wait to be scored."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.status != Status.RUNNING:
            raise MatchError("not_running", "Only a running tournament can be paused.")
        tournament.status = Status.PAUSED
        tournament.save(update_fields=["status"])
    return tournament


def resume(user, tournament_id: int, now=None) -> Tournament:
    """Run again: seat what follows the tables scored during the pause, score any that finished
    unheard, and let the format take up what waited (Dobble choosers get their full time again)."""
    now = now or timezone.now()
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.status != Status.PAUSED:
            raise MatchError("not_paused", "Only a paused tournament can be resumed.")
        tournament.status = Status.RUNNING
        tournament.save(update_fields=["status"])
        tournament.rules.resumed(now)
        running.move_on(tournament, now)
        finished = list(
            tournament.tables.filter(scored=False, match__status=Match.Status.FINISHED).values_list(
                "match_id", flat=True
            )
        )
    for match_id in finished:
        running.record_match(match_id, now)
    return Tournament.objects.get(pk=tournament_id)


def cancel(user, tournament_id: int) -> Tournament:
    """Stop for good; matches under way are played out (and rated) but no longer count."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.status not in (Status.SCHEDULED, Status.RUNNING, Status.PAUSED):
            raise MatchError("over", "This tournament is already over.")
        notices.tell_entrants_cancelled(tournament)
        tournament.status = Status.CANCELLED
        by = " by its organizer" if tournament.organizer_id == user.pk else ""
        tournament.cancelled_because = f"called off{by}"
        tournament.save(update_fields=["status", "cancelled_because"])
    return tournament


def stop_table(user, tournament_id: int, table_id: int, now=None) -> Table:
    """Close a game that cannot end (players gone, the clock crawling through their turns): the
    match stops with no result and the table is scored as not played, for nobody, so the round
    goes on; the organizer may then correct its result to award points."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        table = tournament.tables.select_related("match").filter(pk=table_id).first()
        if table is None or table.match is None or table.match.status != Match.Status.RUNNING:
            raise MatchError("not_running", "That table has no game under way.")
        lifecycle.abort_match(table.match_id, now)
    return table


def repeat(user, tournament_id: int, every: str, time_zone: str) -> Series:
    """Repeat the tournament every hour, day or week (series.py): it becomes the series' first
    event, and each next one is created one period ahead with its settings and house bots."""
    if every not in Series.Every.values:
        raise MatchError("bad_request", "Repeat it every hour, every day or every week.")
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.series_id:
            raise MatchError("repeated", f"{tournament.name} is already one of the series {tournament.series}.")
        if Series.objects.filter(name=tournament.name).exists():
            words = f"There is a series called {tournament.name} already: rename this event first."
            raise MatchError("repeated", words)
        return series.start_series(tournament, every, time_zone=time_zone)


def stop_repeating(user, tournament_id: int) -> Series:
    """No more events of the tournament's series are created (those already listed stay)."""
    with transaction.atomic():
        tournament = locked_if_managed(user, tournament_id)
        if tournament.series is None or not tournament.series.active:
            raise MatchError("not_repeated", f"{tournament.name} is not repeated.")
        Series.objects.filter(pk=tournament.series_id).update(active=False)
        return tournament.series


def locked_if_managed(user, tournament_id: int) -> Tournament:
    """The tournament row, locked, if `user` may manage it (others get the same answer as a missing one)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None or not tournament.managed_by(user):
        raise Tournament.DoesNotExist(f"No tournament {tournament_id} of yours.")
    return tournament
