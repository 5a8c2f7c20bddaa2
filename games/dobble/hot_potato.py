"""Hot potato: pass your cards on before you are left holding them all.

Each round deals one card to every seat from the draw pile (the rest stays face
down for later rounds); the cards are held open, so every top card is public. A
claim names the symbol shared by the claimant's top card and another holder's
top card, with that holder's seat as "target"; a right claim puts all the
claimant's cards on the target's, so the target's top card is now the
claimant's. A seat with no cards sits the round out. When one seat holds every
card it has lost the round and sets them aside. Rounds go on until the draw pile
cannot give every seat a card (55 // players rounds, 6 to 27), or for the number
of rounds of option `hot_potato_rounds`; the fewest cards set aside wins.

The same round, among tied seats only, settles ties (see tiebreak.py).
"""

from __future__ import annotations

from games.dobble.minigame import MiniGame, holders, record, top
from games.dobble.state import State


def deal_round(state: State, seats: list[int]) -> None:
    for seat in seats:
        state.stacks[seat].append(state.pile.pop())
    state.out = []


def pass_cards(state: State, seat: int, target: int) -> int | None:
    """Put the seat's cards on the target's; the seat left holding everything, once the round is over."""
    state.stacks[target].extend(state.stacks[seat])
    state.stacks[seat] = []
    state.out.append(seat)
    left = holders(state)
    return left[0] if len(left) == 1 else None


class RoundRules(MiniGame):
    """Claims of a hot potato round, shared by the mini-game and the tiebreak."""

    target_rule = "In hot potato you match the card of another player who still holds cards (target: their seat)."

    def claimants(self, state: State) -> list[int]:
        return holders(state)

    def idle_reason(self, state: State, seat: int) -> str:
        return "You hold no card in this round: wait for the next one."

    def targets(self, state: State, seat: int) -> list:
        return [other for other in holders(state) if other != seat]

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        return top(state, seat), top(state, target)


class HotPotato(RoundRules):
    name = "hot-potato"
    fewest_win = True

    def deal(self, state: State, first_seat: int) -> None:
        state.round = 1
        deal_round(state, list(range(state.players)))

    def take(self, state: State, seat: int, target) -> None:
        loser = pass_cards(state, seat, target)
        if loser is None:
            return
        cards = state.stacks[loser]
        state.gained[loser].extend(cards)
        state.stacks[loser] = []
        state.rounds_lost[loser] += 1
        record(state, {"type": "round-lost", "round": state.round, "seat": loser, "cards": len(cards)})
        if state.round < state.rounds:
            state.round += 1
            deal_round(state, list(range(state.players)))
            record(state, {"type": "round", "round": state.round})

    def is_done(self, state: State) -> bool:
        return not holders(state)

    def scores(self, state: State) -> list[int]:
        return [len(cards) for cards in state.gained]


HOT_POTATO = HotPotato()
