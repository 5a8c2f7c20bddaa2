"""I Doubt It (Cheat): shed your cards, lie when you must, doubt when they lie."""

from games.doubt_it.bluffs import doubt_chances, tally
from games.doubt_it.bots import BOTS
from games.doubt_it.rules import GAME
from games.registration import Registration

REGISTRATION = Registration(
    engine=GAME, house_bots=BOTS, bench_players=4, bluff_tally=tally, doubt_chances=doubt_chances
)
