"""The towering inferno: win cards from a face-up draw pile with your own top card.

Each seat starts with one face-up card; the rest is a draw pile whose top card is
face up. A claim names the symbol shared by the claimant's top card and the top
of the pile ("target": "pile"); a right claim moves that pile card onto the
claimant's cards, so it becomes the card they match next. The mini-game ends
when the pile is empty; the most cards won (the starting card not counted) wins.
"""

from __future__ import annotations

from games.dobble.minigame import MiniGame, top
from games.dobble.state import State


class ToweringInferno(MiniGame):
    name = "towering-inferno"
    target_rule = 'In the towering inferno you match the top card of the draw pile (target: "pile").'
    pile_face_up = True

    def deal(self, state: State, first_seat: int) -> None:
        for seat in range(state.players):
            state.stacks[seat].append(state.pile.pop())

    def targets(self, state: State, seat: int) -> list:
        return ["pile"]

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        return top(state, seat), state.pile[-1]

    def take(self, state: State, seat: int, target) -> None:
        state.stacks[seat].append(state.pile.pop())

    def is_done(self, state: State) -> bool:
        return not state.pile

    def scores(self, state: State) -> list[int]:
        return [len(stack) - 1 for stack in state.stacks]


TOWERING_INFERNO = ToweringInferno()
