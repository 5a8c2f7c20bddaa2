"""Gotta catch them all: take the revealed cards that match the middle card.

Each round turns the top of the draw pile face up in the middle and reveals as
many cards around it as there are seats (fewer when the pile runs short). A
claim names the symbol shared by the middle card and one revealed card, with
that card's index in `revealed` as "target"; a right claim wins that card. The
middle card itself is never won: once every revealed card is taken it goes to
the bottom of the draw pile and the next round starts. When the pile holds
fewer than two cards no round can be laid out and the mini-game ends (54 cards
are won in all); the most cards won wins.
"""

from __future__ import annotations

from games.dobble.minigame import MiniGame, record
from games.dobble.state import State


class GottaCatchThemAll(MiniGame):
    name = "gotta-catch-them-all"
    target_rule = (
        "In gotta catch them all you match the middle card with one of the revealed cards still on the table "
        '(target: the index of that card).'
    )

    def deal(self, state: State, first_seat: int) -> None:
        state.round = 1
        self._lay_out(state)

    def targets(self, state: State, seat: int) -> list:
        return [index for index, card in enumerate(state.revealed) if card is not None]

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        return state.middle[-1], state.revealed[target]

    def take(self, state: State, seat: int, target) -> None:
        state.gained[seat].append(state.revealed[target])
        state.revealed[target] = None
        if any(card is not None for card in state.revealed):
            return
        state.pile.insert(0, state.middle.pop())
        state.revealed = []
        if len(state.pile) >= 2:
            state.round += 1
            self._lay_out(state)
            record(state, {"type": "round", "round": state.round})

    def is_done(self, state: State) -> bool:
        return not state.revealed

    def scores(self, state: State) -> list[int]:
        return [len(cards) for cards in state.gained]

    @staticmethod
    def _lay_out(state: State) -> None:
        state.middle.append(state.pile.pop())
        state.revealed = [state.pile.pop() for _ in range(min(state.players, len(state.pile)))]


GOTTA_CATCH_THEM_ALL = GottaCatchThemAll()
