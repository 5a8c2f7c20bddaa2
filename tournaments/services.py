"""Entering and leaving tournaments; running them is Celery's job (running.py)."""

from django.db import transaction

from games.bots import bot_names
from games.matches.errors import MatchError
from games.matches.lifecycle import house_bot_user
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


def add_house_bot(tournament_id: int, bot_name: str) -> Entry:
    """Enter one of the game's house bots (organizers fill fields with them); each copy is an account."""
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        if not tournament.is_open:
            raise MatchError("closed", "Entries for this tournament are closed.")
        if bot_name not in bot_names(tournament.game):
            raise MatchError(
                "bad_request", f"No house bot {bot_name!r}; choose from {', '.join(bot_names(tournament.game))}."
            )
        if tournament.entries.count() >= tournament.max_entries:
            raise MatchError("full", "This tournament is full.")
        copy = 1 + tournament.entries.filter(house_bot=bot_name).count()
        return Entry.objects.create(tournament=tournament, user=house_bot_user(bot_name, copy), house_bot=bot_name)
