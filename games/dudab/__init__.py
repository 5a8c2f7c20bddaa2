"""Dudab Buba: shed cards onto shared columns, dodge collecting them; fewest points wins."""

from games.dudab.bots import BOTS
from games.dudab.rules import GAME
from games.registration import Registration

REGISTRATION = Registration(engine=GAME, house_bots=BOTS, bench_players=4)
