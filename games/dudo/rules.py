"""Dudo, also called Kubdubo or Perudo: liar's dice for 2 to 10 players.

Rules (docs/rules/dudo.md has them in full):
  Every player starts with five dice. Each round all players roll in secret. The
  round's starter bids "there are at least Q dice showing F on the table"; in
  turn, each next player raises the bid or doubts it. A raise names more dice
  (any face) or as many dice of a higher face. Ones are wild: they count for
  every face except in a bid on ones. Going onto ones needs half the quantity,
  rounded up; leaving ones needs twice the quantity plus one (games/dudo/bids.py
  turns both into one ladder). On a doubt every die is shown and counted: if the
  bid holds the doubter loses a die, otherwise the bidder does. The loser starts
  the next round; a player without dice is out; the last player with dice wins.

  One-die round (Perudo's palifico): in the round after a player first comes
  down to a single die (that player starts it), only players holding a single
  die may change the face of the bid; the others may only raise the quantity on
  the face already bid.

Decisions where the document is silent (options in brackets, defaults first):
  * opening_ones [False, True]: may the opening bid be on ones while ones are wild.
  * palifico_wild [False, True]: are ones wild in a one-die round (classic Perudo:
    no, and then ones are an ordinary face, the lowest, and may open the round).
  * dice [5, 1-5]: dice per player at the start (with 1 nobody comes down to one
    die, so there are no one-die rounds).
  * starter ["drawn", "first_seat"]: who starts the first round: a seat drawn by the
    seeded generator, or seat 0 (tournaments that decide who sits first: games/starting.py).
    Later rounds start with the loser; when the loser is out, the next seat after them that
    still has dice starts.
  * A bid names 1 to the number of dice still on the table.
  * Timeout: the strong house bot's move from the seat's own dice, chance left out (bots.careful_move).
  * Ranking: the winner, then the others by elimination, the last one out first;
    scores are the dice left (only the winner has any).

Speed (compared with OpenSpiel's C++ liars_dice): the state is a few lists of
ints; legal actions are slices of per-table-size tuples of shared read-only
dicts; `is_legal` validates without copying; `clone` copies the lists and shares
the generator until one of the two states rolls.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from dataclasses import dataclass

from games.base import Game, IllegalAction, Option, action_type, check_seat, new_rng, rng_dump, rng_load
from games.dudo.bids import DOUBT, FACES, PLURAL, ladder, openings, strength, why_not_a_raise
from games.dudo.bots import careful_move
from games.starting import drawn_or, starter_option


@dataclass(slots=True)
class DudoState:
    """Small on purpose (lists of ints): playouts and clones must be cheap."""

    players: int
    options: dict
    rng: random.Random
    dice: list[list[int]]  # each seat's dice, sorted; [] once the seat is out
    out: list[int]  # seats in the order they went out
    history: list[dict]  # public events; an entry is never changed once written
    total: int  # dice still on the table
    turn: int
    quantity: int = 0  # the standing bid; 0 before the round's opening bid
    face: int = 0
    bidder: int = -1
    round: int = 1
    palifico: bool = False
    ones_wild: bool = True
    rng_shared: bool = False  # a clone shares the generator until either state rolls (copy on write)


def may_open_on_ones(state: DudoState) -> bool:
    """Ones may open a round when the table allows it, or when ones are an ordinary face this round."""
    return state.options["opening_ones"] or not state.ones_wild


def face_locked(state: DudoState, seat: int) -> bool:
    """In a one-die round a seat holding more than one die must keep the face already bid."""
    return state.palifico and len(state.dice[seat]) > 1


class Dudo(Game):
    def new_game(self, players, seed, options=None):
        options = self.clean_options(players, options)
        rng = new_rng(seed)
        state = DudoState(
            players=players, options=options, rng=rng, dice=[[0] * options["dice"] for _ in range(players)],
            out=[], history=[], total=players * options["dice"], turn=drawn_or(rng, players, options, 0),
        )
        self._roll(state)
        return state

    def to_act(self, state):
        return [] if len(state.out) >= state.players - 1 else [state.turn]

    def is_over(self, state):
        return len(state.out) >= state.players - 1

    def legal_actions(self, state, seat):
        """Every legal bid, weakest first, then the doubt when a bid stands (shared read-only dicts)."""
        if seat != state.turn or len(state.out) >= state.players - 1:
            return []
        if not state.quantity:
            return list(openings(state.total, state.ones_wild, may_open_on_ones(state)))
        rungs, bids = ladder(state.total, state.ones_wild)
        raises = bids[bisect_right(rungs, strength(state.quantity, state.face, state.ones_wild)):]
        if face_locked(state, seat):
            return [bid for bid in raises if bid["face"] == state.face] + [DOUBT]
        return [*raises, DOUBT]


    def apply(self, state, seat, action):
        if self.check(state, seat, action) == "doubt":
            self._doubt(state, seat)
        else:
            quantity, face = action["quantity"], action["face"]
            state.quantity, state.face, state.bidder = quantity, face, seat
            state.history.append({"type": "bid", "seat": seat, "quantity": quantity, "face": face})
            state.turn = self._next_in(state, seat)
        return state

    def check(self, state: DudoState, seat: int, action: dict) -> str:
        """The action's type once the whole action is known to be legal; IllegalAction otherwise."""
        kind = action_type(action, ("bid", "doubt"))
        check_seat(seat, state.players)
        if seat != state.turn or len(state.out) >= state.players - 1:
            if self.is_over(state):
                raise IllegalAction("The game is over.")
            raise IllegalAction("It is not your turn.")
        if kind == "doubt":
            if not state.quantity:
                raise IllegalAction("There is no bid to doubt yet: open the round with a bid.")
            return kind
        quantity, face = action.get("quantity"), action.get("face")
        if type(quantity) is not int or type(face) is not int or not 1 <= face <= 6:
            raise IllegalAction("A bid names a number of dice and a face from one to six.")
        problem = self._bid_problem(state, seat, quantity, face)
        if problem:
            raise IllegalAction(problem)
        return kind

    def _bid_problem(self, state: DudoState, seat: int, quantity: int, face: int) -> str | None:
        """None for a legal bid, else what is wrong with it and what is allowed."""
        if not 1 <= quantity <= state.total:
            return f"A bid names 1 to {state.total} dice: that is how many dice are on the table."
        if not state.quantity:
            if face == 1 and not may_open_on_ones(state):
                return "The opening bid may not be on ones: bid another face."
            return None
        if face != state.face and face_locked(state, seat):
            return (
                "In a one-die round only players with a single die may change the face: "
                f"bid more than {state.quantity} {PLURAL[state.face]}."
            )
        if strength(quantity, face, state.ones_wild) > strength(state.quantity, state.face, state.ones_wild):
            return None
        return why_not_a_raise((state.quantity, state.face), quantity, face, state.ones_wild)

    def _doubt(self, state: DudoState, seat: int) -> None:
        """Show every die, count the bid's face, take a die from the loser and start the next round."""
        quantity, face, bidder = state.quantity, state.face, state.bidder
        if state.ones_wild and face != 1:
            found = sum(d == face or d == 1 for dice in state.dice for d in dice)
        else:
            found = sum(dice.count(face) for dice in state.dice)
        loser = seat if found >= quantity else bidder
        state.history.append({
            "type": "doubt", "seat": seat, "bidder": bidder, "quantity": quantity, "face": face,
            "count": found, "loser": loser, "dice": [list(dice) for dice in state.dice],
        })
        state.dice[loser].pop()
        state.total -= 1
        state.quantity = state.face = 0
        state.bidder = -1
        if not state.dice[loser]:
            state.out.append(loser)
            state.history.append({"type": "out", "seat": loser})
            if self.is_over(state):
                return  # the last round's palifico stays, so a loaded state has its ones_wild too
            state.turn = self._next_in(state, loser)
        else:
            state.turn = loser
        # Coming down to one die happens once per player at most, as dice never come back.
        state.palifico = len(state.dice[loser]) == 1
        state.round += 1
        self._roll(state)

    def _roll(self, state: DudoState) -> None:
        if state.rng_shared:
            state.rng, state.rng_shared = rng_load(rng_dump(state.rng)), False
        choices = state.rng.choices
        for dice in state.dice:
            if dice:
                dice[:] = sorted(choices(FACES, k=len(dice)))
        state.ones_wild = not state.palifico or state.options["palifico_wild"]
        state.history.append({
            "type": "round", "round": state.round, "starter": state.turn,
            "palifico": state.palifico, "ones_wild": state.ones_wild,
            "dice_counts": [len(dice) for dice in state.dice],
        })

    @staticmethod
    def _next_in(state: DudoState, seat: int) -> int:
        """The next seat after `seat` (wrapping round) that still has dice."""
        players, dice = state.players, state.dice
        candidate = (seat + 1) % players
        while not dice[candidate]:
            candidate = (candidate + 1) % players
        return candidate

    def view(self, state, seat):
        """What `seat` may see: its own dice and everyone's dice counts (history entries are read-only)."""
        over = self.is_over(state)
        bid = None
        if state.quantity:
            bid = {"quantity": state.quantity, "face": state.face, "seat": state.bidder}
        return {
            "game": self.slug, "seat": seat, "players": state.players,
            "to_act": [] if over else [state.turn], "is_over": over,
            "result": self.result(state) if over else None,
            "history": list(state.history),
            "dice": None if seat is None else list(state.dice[seat]),
            "dice_counts": [len(dice) for dice in state.dice],
            "total_dice": state.total,
            "bid": bid,
            "round": state.round, "palifico": state.palifico, "ones_wild": state.ones_wild,
            "out": list(state.out), "options": dict(state.options),
        }

    def result(self, state):
        """Ranking: the winner, then the last one out, and so on; scores: dice left (the winner's margin)."""
        order = [seat for seat in range(state.players) if seat not in state.out] + state.out[::-1]
        return {
            "ranking": [[seat] for seat in order],
            "scores": {str(seat): len(state.dice[seat]) for seat in range(state.players)},
        }

    def default_action(self, state, seat):
        """On timeout: what a careful player would do from the seat's own dice (doubt an unlikely bid,
        else the raise most likely true), never a doubt of "1 two"; None when not to act."""
        if seat not in self.to_act(state):
            return None
        return careful_move(self.view(state, seat), self.legal_actions(state, seat))

    def dump(self, state):
        return {
            "players": state.players, "options": dict(state.options), "rng": rng_dump(state.rng),
            "dice": [list(dice) for dice in state.dice], "turn": state.turn,
            "quantity": state.quantity, "face": state.face, "bidder": state.bidder, "round": state.round,
            "palifico": state.palifico, "out": list(state.out),
            "history": list(state.history),
        }

    def load(self, data):
        options = dict(data["options"])
        return DudoState(
            players=data["players"], options=options, rng=rng_load(data["rng"]),
            dice=[list(dice) for dice in data["dice"]], total=sum(len(dice) for dice in data["dice"]),
            turn=data["turn"], quantity=data["quantity"], face=data["face"], bidder=data["bidder"],
            round=data["round"], palifico=data["palifico"],
            ones_wild=not data["palifico"] or options["palifico_wild"],
            out=list(data["out"]), history=list(data["history"]),
        )

    def clone(self, state):
        """A copy of a few short lists; the generator is shared until either state rolls (see `_roll`)."""
        state.rng_shared = True
        return DudoState(
            players=state.players, options=state.options, rng=state.rng,
            dice=[list(dice) for dice in state.dice], out=list(state.out), history=list(state.history),
            total=state.total, turn=state.turn, quantity=state.quantity, face=state.face, bidder=state.bidder,
            round=state.round, palifico=state.palifico, ones_wild=state.ones_wild, rng_shared=True,
        )


GAME = Dudo(
    action_keys=frozenset({"type", "quantity", "face"}),
    slug="dudo", name="Dudo", min_players=2, max_players=10,
    options={
        "opening_ones": Option(
            False, "The opening bid may be on ones while ones are wild.", label="Opening bid on ones"
        ),
        "palifico_wild": Option(
            False,
            "Ones stay wild in a one-die round (classic Perudo: they do not).",
            label="Ones wild in one-die rounds",
        ),
        "dice": Option(5, "Dice per player at the start.", minimum=1, maximum=5, label="Dice per player"),
        "starter": starter_option(
            "Who bids first in the first round: a player drawn at random, or the first seat. "
            "Every later round starts with the player who lost a die."
        ),
    },
)
