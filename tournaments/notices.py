"""What a tournament tells its people on whatever page they have open (notices.js): that it was
cancelled or is over, to a player with no table in a round, why, and at a Dobble series table,
who chooses the next mini-game."""

from django.db import transaction
from django.urls import reverse

from games.engine import get_game
from games.matches import broadcast
from games.matches.models import Match, Seat
from tournaments.models import Table, Tournament


def tell_entrants(tournament: Tournament, text: str, link_text: str = "See the tournament", entries=None) -> None:
    """Its people (withdrawn ones too: they stay in the standings), or those of `entries` (ids),
    hear it on whatever page they have open, once it is committed."""
    chosen = tournament.entries.all() if entries is None else tournament.entries.filter(pk__in=entries)
    people = list(chosen.filter(user__is_bot=False).values_list("user_id", flat=True))
    link = {"href": reverse("tournament", args=[tournament.pk]), "text": link_text}
    if people:
        transaction.on_commit(lambda: broadcast.send_notice(people, text, link))


def tell_sitting_out(tournament: Tournament, round_number: int, byes: list[tuple[int, float]], walkovers) -> None:
    """The players with no table this round hear why (nothing else would tell them the round began)."""
    then = (
        "The tournament seats your next game when it ends."
        if round_number < tournament.rounds
        else "The final standings come when every table has finished."
    )
    said = {}
    for entry_id, points in byes:
        if entry_id in walkovers:
            why = "your opponent has withdrawn: you win by forfeit, 1 point"
        elif points:
            why = "you have a bye, 1 point"
        else:
            why = "you sit this round out (in an odd field everyone does, once)"
        said.setdefault(f"{tournament.round_name(round_number)}: {why}. {then} ", []).append(entry_id)
    for text, entries in said.items():
        tell_entrants(tournament, text, entries=entries)


def series_choice_message(tournament: Tournament, finished: Table, seconds: int, otherwise: str) -> dict:
    """What a driven bot that lost a series' mini-game is asked: the mini-games it may name, where
    to POST its answer, and what it gets when it does not answer in time."""
    return {
        "type": "series_choice",
        "tournament": tournament.pk,
        "about": tournament.round_name(finished.round + 1),
        "lost": finished.match_id,
        "choices": list(get_game("dobble").options["mini_game"].choices),
        "seconds": seconds,
        "otherwise": otherwise,
        "answer": f"/api/tournaments/{tournament.pk}/choice/",
    }


def tell_entrants_cancelled(tournament: Tournament) -> None:
    """Called off by its organizer (or the staff). A player whose game of it is still under way
    hears that it is played out and rated (organizing.cancel), which they must know before walking
    away from it; the others hear only that it was cancelled."""
    playing = Seat.objects.filter(
        match__tournament_table__tournament=tournament, match__status=Match.Status.RUNNING, forfeited_at=None
    ).values_list("user_id", flat=True)
    at_a_table = list(tournament.entries.filter(user_id__in=playing).values_list("pk", flat=True))
    others = list(tournament.entries.exclude(pk__in=at_a_table).values_list("pk", flat=True))
    cancelled = f"{tournament.name} was cancelled."
    playing_on = " Your game of it still under way is played to the end and rated, but no longer counts."
    tell_entrants(tournament, f"{cancelled}{playing_on} ", entries=at_a_table)
    tell_entrants(tournament, f"{cancelled} ", entries=others)


def tell_choice(tournament: Tournament, finished: Table, following: Table, seconds: int, otherwise: str) -> None:
    """The loser of a series' mini-game hears that they choose the next one, and the others at
    the table who chooses: the table page of the game just ended offers the choice (its line
    is drawn again on a notice), so the link leads there. A bot driven from outside is asked on
    its event stream, in a message a program reads (docs/protocol/dobble.md)."""
    chooser = following.chooser
    about = tournament.round_name(following.round)
    link = {"href": reverse("table", args=[finished.match_id]), "text": "Choose at your table"}
    if chooser.user.is_bot:
        asked = series_choice_message(tournament, finished, seconds, otherwise)
        transaction.on_commit(
            lambda: broadcast.deliver([(broadcast.user_group(chooser.user_id), broadcast.push(asked))])
        )
    else:
        said = f"{about}: you lost the last mini-game, so you choose the next one ({seconds} seconds). "
        transaction.on_commit(lambda: broadcast.send_notice([chooser.user_id], said, link))
    others = tournament.entries.filter(pk__in=following.seating, user__is_bot=False).exclude(pk=chooser.pk)
    people = list(others.values_list("user_id", flat=True))
    told = f"{about}: {chooser.user.username} lost the last mini-game and chooses the next one ({seconds} seconds). "
    see = {**link, "text": "See your table"}
    if people:
        transaction.on_commit(lambda: broadcast.send_notice(people, told, see))
