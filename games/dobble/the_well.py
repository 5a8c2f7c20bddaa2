"""The well: get rid of your cards onto the middle card first.

All cards but one are dealt one at a time, starting with the seat that won the
previous mini-game (option `last_winner`), so with 54 cards some seats may hold
one card more; the last card goes face up in the middle. Each seat's cards form
a face-down pile whose top card is face up. A claim names the symbol shared by
the claimant's top card and the middle card ("target": "middle"); a right claim
puts that card on the middle, which becomes the card everyone matches. A seat
with no cards left is out; when one seat alone still has cards it has lost, and
the seats rank in the order they went out.
"""

from __future__ import annotations

from games.dobble.minigame import MiniGame, holders, record, top
from games.dobble.state import State


class TheWell(MiniGame):
    name = "the-well"
    target_rule = 'In the well you match the middle card (target: "middle").'

    def deal(self, state: State, first_seat: int) -> None:
        for index in range(len(state.pile) - 1):
            state.stacks[(first_seat + index) % state.players].append(state.pile.pop())
        state.middle.append(state.pile.pop())

    def claimants(self, state: State) -> list[int]:
        return holders(state)

    def idle_reason(self, state: State, seat: int) -> str:
        return "You have got rid of all your cards: you are out of the well."

    def targets(self, state: State, seat: int) -> list:
        return ["middle"]

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        return top(state, seat), state.middle[-1]

    def take(self, state: State, seat: int, target) -> None:
        state.middle.append(state.stacks[seat].pop())
        if not state.stacks[seat]:
            state.out.append(seat)
            record(state, {"type": "out", "seat": seat})

    def is_done(self, state: State) -> bool:
        return len(holders(state)) <= 1

    def scores(self, state: State) -> list[int]:
        return [len(stack) for stack in state.stacks]

    def ranking(self, state: State, scores: list[int]) -> list[list[int]]:
        return [[seat] for seat in state.out + holders(state)]


THE_WELL = TheWell()
