"""The poisoned gift: give the face-up pile card to another player.

Set up as the towering inferno: one face-up card per seat, the rest a draw pile
with its top card face up. A claim names the symbol shared by another seat's top
card and the top of the pile, with that seat as "target"; a right claim puts the
pile card on the target's cards. You may never target yourself. The mini-game
ends when the pile is empty; the fewest cards received wins.
"""

from __future__ import annotations

from games.dobble.minigame import MiniGame, top
from games.dobble.state import State


class PoisonedGift(MiniGame):
    name = "poisoned-gift"
    target_rule = "In the poisoned gift you give the pile card to another player (target: their seat)."
    pile_face_up = True
    fewest_win = True

    def deal(self, state: State, first_seat: int) -> None:
        for seat in range(state.players):
            state.stacks[seat].append(state.pile.pop())

    def targets(self, state: State, seat: int) -> list:
        return [other for other in range(state.players) if other != seat]

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        return state.pile[-1], top(state, target)

    def take(self, state: State, seat: int, target) -> None:
        state.stacks[target].append(state.pile.pop())

    def is_done(self, state: State) -> bool:
        return not state.pile

    def scores(self, state: State) -> list[int]:
        return [len(stack) - 1 for stack in state.stacks]


POISONED_GIFT = PoisonedGift()
