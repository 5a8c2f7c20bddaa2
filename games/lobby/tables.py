"""What the lobby's forms do: open a table, play the computer, join the quick pairing.

Thin views call these; every table goes through the match service (lifecycle).
"""

from django.db import transaction

from games.lobby import matchmaking
from games.matches import lifecycle
from games.matches.models import Match
from games.matches.time_controls import PRESETS


def open_table(user, game: str, players: int, options: dict, time_control: str, ranked: bool) -> Match:
    """An open table with the user in seat 0, waiting for others to join."""
    return lifecycle.create_match(
        game=game, players=players, host=user, options=options, ranked=ranked, **PRESETS[time_control].as_table()
    )


def play_the_computer(user, game: str, bot: str, players: int, options: dict, time_control: str) -> Match:
    """The user against `players - 1` house bots of one strength, started at once (casual)."""
    with transaction.atomic():
        match = lifecycle.create_match(
            game=game, players=players, host=user, options=options, **PRESETS[time_control].as_table()
        )
        for _ in range(players - 1):
            lifecycle.seat_house_bot(match, bot)
        return lifecycle.start_match(match.pk, user)


def quick_pairing(user, game: str, players: int, time_control: str, rating: float) -> Match | None:
    """Queue the user and pair at once: the match they were seated in, or None while they wait.

    Pairing here, not only on the beat, sends the player who completes a table straight to it;
    the players already waiting are sent there by their lobby socket.
    """
    matchmaking.join_queue(user, game, players, rating, time_control=time_control)
    return pair_now(user, game, players, time_control)


def pair_now(user, game: str, players: int, time_control: str) -> Match | None:
    """Pair the user's pool now, in the request, not only on the beat: the match the user was seated
    in, or None while they wait. A task on the worker waited behind a stall attack's moves for 2.5 s
    (docs/security.md, "Bots cannot stall the site")."""
    started = matchmaking.matchmake(game, players, time_control=time_control)
    seated = next((match for match in started if match.seats.filter(user=user).exists()), None)
    return seated or matchmaking.just_paired(user, game)  # or paired by the beat meanwhile
