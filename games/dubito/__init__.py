"""Dubito: build four rows, each with its own rule."""

from games.dubito.bots import BOTS
from games.dubito.rules import GAME
from games.registration import Registration

REGISTRATION = Registration(engine=GAME, house_bots=BOTS, bench_players=2)
