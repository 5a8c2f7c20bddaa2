"""Dudo (Kubdubo, liar's dice)."""

from games.dudo.bluffs import doubt_chances, tally
from games.dudo.bots import BOTS
from games.dudo.rules import GAME
from games.registration import Registration

REGISTRATION = Registration(
    engine=GAME, house_bots=BOTS, bench_players=2, bluff_tally=tally, doubt_chances=doubt_chances
)
