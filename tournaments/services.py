"""Entering and leaving tournaments; running them is Celery's job (tournaments issue)."""

from django.db import transaction

from games.matches.errors import MatchError
from tournaments.models import Entry, Tournament


def enter(tournament_id: int, user) -> Entry:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.is_open:
            raise MatchError("closed", "Entries for this tournament are closed.")
        if tournament.entries.filter(user=user).exists():
            raise MatchError("already_entered", "You are already entered.")
        if tournament.entries.count() >= tournament.max_entries:
            raise MatchError("full", "This tournament is full.")
        return Entry.objects.create(tournament=tournament, user=user)


def withdraw(tournament_id: int, user) -> None:
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.is_open:
            raise MatchError("closed", "The tournament has started: you can no longer withdraw.")
        if not tournament.entries.filter(user=user).delete()[0]:
            raise MatchError("not_entered", "You are not entered.")
