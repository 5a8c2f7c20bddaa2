"""What every mini-game (and the tiebreak) tells the engine.

The engine (rules.py) validates a claim, decides whether it is right from the
two cards `compared` returns and, when it is, lets `take` move the cards. A
mini-game only knows its own set-up, targets, card moves, end and ranking.
"""

from __future__ import annotations

from games.dobble.state import State


class MiniGame:
    name = ""
    # How this mini-game's claims name their target; starts every refusal about the target.
    target_rule = ""
    # Whether the top card of the draw pile is face up (the towering inferno, the poisoned gift).
    pile_face_up = False
    # Whether the fewest cards win (the poisoned gift, hot potato) rather than the most.
    fewest_win = False

    def deal(self, state: State, first_seat: int) -> None:
        """Lay out the cards of the first round from the shuffled `state.pile`."""
        raise NotImplementedError

    def claimants(self, state: State) -> list[int]:
        """Seats that take part at the moment (lockouts aside)."""
        return list(range(state.players))

    def idle_reason(self, state: State, seat: int) -> str:
        """Why a seat outside `claimants` may not claim."""
        raise NotImplementedError

    def targets(self, state: State, seat: int) -> list:
        """What this seat's claims may name as "target" now."""
        raise NotImplementedError

    def compared(self, state: State, seat: int, target) -> tuple[int, int]:
        """The two cards whose shared symbol the claim names; legal_actions offers the first one's symbols."""
        raise NotImplementedError

    def take(self, state: State, seat: int, target) -> None:
        """Move the cards of a right claim (and deal the next round when one ends)."""
        raise NotImplementedError

    def is_done(self, state: State) -> bool:
        raise NotImplementedError

    def scores(self, state: State) -> list[int]:
        """Each seat's figure for the ranking and the tournament points."""
        raise NotImplementedError

    def ranking(self, state: State, scores: list[int]) -> list[list[int]]:
        """Best first; equal scores share a group (the tiebreak splits it later)."""
        return group_by_score(scores, self.fewest_win)


def group_by_score(scores: list[int], fewest_win: bool) -> list[list[int]]:
    ranking: list[list[int]] = []
    for value in sorted(set(scores), reverse=not fewest_win):
        ranking.append([seat for seat, score in enumerate(scores) if score == value])
    return ranking


def top(state: State, seat: int) -> int:
    return state.stacks[seat][-1]


def holders(state: State) -> list[int]:
    """Seats that still have cards in front of them or in hand."""
    return [seat for seat in range(state.players) if state.stacks[seat]]


def record(state: State, event: dict) -> None:
    """A public event, stamped with the game time of the claim that caused it."""
    state.history.append({**event, "at_ms": state.now_ms})
