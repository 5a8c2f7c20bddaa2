"""Who starts a game whose rules draw the first player (Dudo, I Doubt It, Dudab Buba).

A table among players draws, as the rules pages say. A tournament whose format decides who sits
first (a Swiss's colours, a round robin's Berger tables, seat 1 taking turns in a knockout
series, the first seat moving on in a rounds total) sets "the first seat", so the seat order it
gave is who moves first. The option is stored with the match's options; a match from before it
has none, and its default draws exactly as every match did then, so old matches replay as played.
"""

import random

from games.base import Option

STARTER = "starter"
DRAWN, FIRST_SEAT = "drawn", "first_seat"


def starter_option(help: str) -> Option:
    """The same option in every game that has it; `help` says what starting means in that game."""
    return Option(
        DRAWN, help, (DRAWN, FIRST_SEAT), label="Who starts", choice_labels=("Drawn at random", "The first seat")
    )


def drawn_or(rng: random.Random, players: int, options: dict, seat: int) -> int:
    """A seat drawn by the seeded generator, or `seat` when the first seat starts (then nothing
    is drawn, so the rest of the deal comes from the seed alone as well)."""
    return rng.randrange(players) if options[STARTER] == DRAWN else seat
