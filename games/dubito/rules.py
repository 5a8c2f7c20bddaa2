"""Dubito, a tableau-building card game for 1 to 6 players (1 = solo score attack).

Two French decks up to 4 players, three from 5. Everyone holds 8 cards. On a
turn a player puts one card from the hand at the end of one of their own four
rows, then draws one. Row 1: ascending ranks (ace low, king high). Row 2: the
suit of the row. Row 3: the suit of the row and ascending. Row 4: the rank of
the row. The first card of a row is free. A player who cannot add a card is
out for the rest of the game; it ends when nobody can play. Cards score 1, 2,
3 and 4 points in rows 1 to 4; the highest score wins, ties share the place.

Decisions (docs/rules/dubito.md), two of them options:
  ascending   "strict" (default): rows 1 and 3 need a higher rank; "equal": an equal rank may follow too.
  empty_pile  "play-on" (default): with the pile empty, play on from the hand without drawing;
              "stop": the game ends as soon as the last card of the pile is drawn.
The dealer is the last seat, so seat 0 (on the dealer's left) plays first. The
engine itself puts out a player with no legal play, so `to_act` only ever names
a seat that can play; the timeout move is the heuristic house bot's choice.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from games.base import (
    Game,
    IllegalAction,
    Option,
    action_type,
    check_seat,
    new_rng,
    require,
    rng_dump,
    rng_load,
)
from games.cards import RANKS, card_name, check_card, decks
from games.dubito.bots import best_play

ROWS = (1, 2, 3, 4)
POINTS = {1: 1, 2: 2, 3: 3, 4: 4}
HAND = 8
RANK_VALUE = {
    rank: value for value, rank in enumerate(RANKS, 1)
}  # rank_value without the call, for the hot loop
NEEDS = {1: "a {rising} rank", 2: "the same suit", 3: "the same suit and a {rising} rank", 4: "the same rank"}
RISING = {"strict": "higher", "equal": "higher or equal"}
HAND_SUITS = "SHCD"  # a hand is shown suit by suit, black and red in turn, as players hold one


def hand_order(card: str) -> tuple[int, int]:
    return HAND_SUITS.index(card[1]), RANK_VALUE[card[0]]


@dataclass(slots=True)
class DubitoState:
    players: int
    options: dict
    rng: random.Random
    hands: list[list[str]]
    rows: list[list[list[str]]]  # rows[seat][row - 1], left to right
    pile: list[str]  # the top card is the last one
    turn: int = 0
    out: list[int] = field(default_factory=list)  # in the order players dropped out
    over: bool = False
    history: list[dict] = field(default_factory=list)  # events are never changed once appended


def fits(options: dict, row: list[str], number: int, card: str) -> bool:
    """May `card` go at the end of row `number`? An empty row takes anything."""
    if not row:
        return True
    last = row[-1]
    if number == 2:
        return card[1] == last[1]
    if number == 4:
        return card[0] == last[0]
    if number == 3 and card[1] != last[1]:
        return False
    step = RANK_VALUE[card[0]] - RANK_VALUE[last[0]]
    return step > 0 or (step == 0 and options["ascending"] == "equal")


def plays(state: DubitoState, seat: int) -> list[tuple[str, int]]:
    """Every (card, row) the seat may play, each card once even if held twice."""
    rows = state.rows[seat]
    return [
        (card, n)
        for card in dict.fromkeys(state.hands[seat])
        for n in ROWS
        if fits(state.options, rows[n - 1], n, card)
    ]


def can_play(state: DubitoState, seat: int) -> bool:
    rows = state.rows[seat]
    return any(fits(state.options, rows[n - 1], n, card) for card in state.hands[seat] for n in ROWS)


def score(rows: list[list[str]]) -> int:
    return sum(POINTS[n] * len(rows[n - 1]) for n in ROWS)


class Dubito(Game):
    def new_game(self, players, seed, options=None):
        options = self.clean_options(players, options)
        rng = new_rng(seed)
        cards = decks(2 if players <= 4 else 3)
        rng.shuffle(cards)
        hands: list[list[str]] = [[] for _ in range(players)]
        for _ in range(HAND):  # one card at a time, starting on the dealer's left
            for seat in range(players):
                hands[seat].append(cards.pop())
        state = DubitoState(players, options, rng, hands, [[[], [], [], []] for _ in range(players)], cards)
        self._settle(state)
        return state

    def to_act(self, state):
        return [] if state.over else [state.turn]

    def legal_actions(self, state, seat):
        if state.over or seat != state.turn:
            return []
        return [{"type": "play", "card": card, "row": row} for card, row in plays(state, seat)]

    def apply(self, state, seat, action):
        action_type(action, ("play",))
        check_seat(seat, state.players)
        require(not state.over, "The game is over.")
        require(seat == state.turn, "It is not your turn.")
        card, row = check_card(action.get("card")), action.get("row")
        require(row in ROWS and type(row) is int, f"Choose row 1, 2, 3 or 4, not {row!r}.")
        require(card in state.hands[seat], f"You do not hold the {card_name(card)}.")
        if not fits(state.options, state.rows[seat][row - 1], row, card):
            last = state.rows[seat][row - 1][-1]
            needs = NEEDS[row].format(rising=RISING[state.options["ascending"]])
            raise IllegalAction(
                f"The {card_name(card)} cannot follow the {card_name(last)} in row {row}: that row needs {needs}."
            )

        state.hands[seat].remove(card)
        state.rows[seat][row - 1].append(card)
        if state.pile:
            state.hands[seat].append(state.pile.pop())
        state.history.append(
            {"type": "play", "seat": seat, "card": card, "row": row, "pile": len(state.pile)}
        )
        if not state.pile and state.options["empty_pile"] == "stop":
            self._end(state, "the draw pile is empty")
            return state
        state.turn = (seat + 1) % state.players
        self._settle(state)
        return state

    def _settle(self, state: DubitoState) -> None:
        """Move the turn to the next seat that can play; whoever cannot play now is out for good."""
        for _ in range(state.players):
            if state.turn not in state.out:
                if can_play(state, state.turn):
                    return
                state.out.append(state.turn)
                state.history.append(
                    {"type": "out", "seat": state.turn, "score": score(state.rows[state.turn])}
                )
            state.turn = (state.turn + 1) % state.players
        self._end(state, "nobody can play")

    def _end(self, state: DubitoState, reason: str) -> None:
        state.over = True
        state.history.append(
            {"type": "end", "reason": reason, "scores": [score(rows) for rows in state.rows]}
        )

    def view(self, state, seat):
        over = state.over
        return {
            "game": self.slug,
            "seat": seat,
            "players": state.players,
            "to_act": self.to_act(state),
            "is_over": over,
            "result": self.result(state) if over else None,
            "history": [dict(event) for event in state.history],
            "options": dict(state.options),
            "hand": None if seat is None else sorted(state.hands[seat], key=hand_order),
            "hand_counts": [len(hand) for hand in state.hands],
            "rows": [[list(row) for row in rows] for rows in state.rows],
            "scores": [score(rows) for rows in state.rows],
            "pile": len(state.pile),
            "out": list(state.out),
        }

    def is_over(self, state):
        return state.over

    def result(self, state):
        scores = [score(rows) for rows in state.rows]
        ranking = [
            [s for s in range(state.players) if scores[s] == value]
            for value in sorted(set(scores), reverse=True)
        ]
        return {"ranking": ranking, "scores": {str(s): scores[s] for s in range(state.players)}}

    def default_action(self, state, seat):
        """What the heuristic house bot would play: a timeout costs as little as possible."""
        legal = self.legal_actions(state, seat)
        return best_play(self.view(state, seat), legal) if legal else None

    def dump(self, state):
        return {
            "players": state.players,
            "options": dict(state.options),
            "rng": rng_dump(state.rng),
            "hands": [list(hand) for hand in state.hands],
            "rows": [[list(row) for row in rows] for rows in state.rows],
            "pile": list(state.pile),
            "turn": state.turn,
            "out": list(state.out),
            "over": state.over,
            "history": [dict(event) for event in state.history],
        }

    def load(self, data):
        return DubitoState(
            players=data["players"],
            options=dict(data["options"]),
            rng=rng_load(data["rng"]),
            hands=[list(hand) for hand in data["hands"]],
            rows=[[list(row) for row in rows] for rows in data["rows"]],
            pile=list(data["pile"]),
            turn=data["turn"],
            out=list(data["out"]),
            over=data["over"],
            history=[dict(event) for event in data["history"]],
        )

    def clone(self, state):
        """A fast copy. Only the deal draws from the generator, so copies share it (copying costs ~50 us)."""
        return DubitoState(
            state.players,
            state.options,
            state.rng,
            [list(hand) for hand in state.hands],
            [[list(row) for row in rows] for rows in state.rows],
            list(state.pile),
            state.turn,
            list(state.out),
            state.over,
            list(state.history),
        )


GAME = Dubito(
    action_keys=frozenset({"type", "card", "row"}),
    slug="dubito",
    name="Dubito",
    min_players=1,
    max_players=6,
    options={
        "ascending": Option(
            "strict",
            "Rows 1 and 3: each card strictly higher, or an equal rank allowed too.",
            ("strict", "equal"),
            label="Ascending rows",
            choice_labels=("Strictly higher", "Equal rank allowed"),
        ),
        "empty_pile": Option(
            "play-on",
            "When the draw pile runs out: play on from the hand, or stop the game.",
            ("play-on", "stop"),
            label="When the draw pile runs out",
            choice_labels=("Play on from the hand", "Stop the game"),
        ),
    },
)
