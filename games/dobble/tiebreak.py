"""The end of a mini-game and the duels that settle its ties.

When a mini-game ends its figures are frozen in `state.scores` and its ranking
in `state.ranking`. Every group of tied seats is then settled, best places
first, by one hot potato round among the tied seats only: with two seats that
is the document's duel (each shows a card, the first to name the shared symbol
wins), with three or more it is the round of hot potato the document asks for.
The seats finish in the order they pass their cards on; the one left holding
them all is last of the group. Before each tiebreak all 55 cards are gathered
and shuffled, and each tied seat gets one.
"""

from __future__ import annotations

from games.dobble.hot_potato import RoundRules, deal_round, pass_cards
from games.dobble.minigame import MiniGame, record
from games.dobble.state import OVER, TIEBREAK, State


def finish_mini_game(state: State, mini_game: MiniGame) -> None:
    state.scores = mini_game.scores(state)
    state.ranking = mini_game.ranking(state, state.scores)
    state.ties = [list(group) for group in state.ranking if len(group) > 1]
    record(state, {"type": "end", "scores": list(state.scores), "ranking": [list(g) for g in state.ranking]})
    if state.ties:
        state.phase = TIEBREAK
        start_tiebreak(state)
    else:
        state.phase = OVER


def start_tiebreak(state: State) -> None:
    cards = state.pile + state.middle + [card for card in state.revealed if card is not None]
    for zone in state.stacks + state.gained:
        cards.extend(zone)
        zone.clear()
    state.middle, state.revealed = [], []
    state.rng.shuffle(cards)
    state.pile = cards
    deal_round(state, state.ties[0])
    record(state, {"type": "tiebreak", "seats": list(state.ties[0])})


class Tiebreak(RoundRules):
    name = "tiebreak"
    target_rule = "In a tiebreak you match another tied player who still holds a card (target: their seat)."

    def idle_reason(self, state: State, seat: int) -> str:
        tied = state.ties[0]
        if seat in tied:
            return "You have passed your card on: you are through this tiebreak."
        return "Only the tied players play this tiebreak: wait for the next game."

    def take(self, state: State, seat: int, target) -> None:
        last = pass_cards(state, seat, target)
        if last is None:
            return
        order = state.out + [last]
        group = state.ties.pop(0)
        place = state.ranking.index(group)
        state.ranking[place : place + 1] = [[finisher] for finisher in order]
        state.tiebreaks.append(order)
        record(state, {"type": "tiebreak-end", "order": list(order)})
        if state.ties:
            start_tiebreak(state)
        else:
            state.phase = OVER


TIEBREAK_RULES = Tiebreak()
