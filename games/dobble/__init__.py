"""Dobble (Spot it!): the deck, the five real-time mini-games, tournament points and bots."""

from games.dobble.bots import BOTS
from games.dobble.reactions import reaction_times
from games.dobble.rules import GAME
from games.registration import Registration

REGISTRATION = Registration(
    engine=GAME,
    house_bots=BOTS,
    bench_players=2,
    reaction_times=reaction_times,
)
