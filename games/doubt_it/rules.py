"""I Doubt It (also called Cheat) for 3 to 11 players.

Rules (docs/rules/doubt-it.md has them in full):
  One 52-card deck for up to 5 players, two decks from 6. Every card is dealt,
  one at a time, starting on the dealer's left. From the dealer's left, each
  player in turn puts one or more cards face down on the pile, says how many,
  and claims they are of the rank that is due: aces, kings, queens, ... twos,
  then aces again. The claim may be a lie. Then a doubt window opens: every
  other player answers "doubt" or "pass", all at the same time. On a doubt the
  played cards are shown: if they are all of the claimed rank the doubter takes
  the whole pile, otherwise the player does. The first player to empty the hand
  and survive the window on that last play wins; the others rank by cards left.

Decisions where the document is silent (options in brackets, defaults first):
  * doubt_rule ["first", "nearest"]: "first": the first doubt to arrive is the
    challenge. "nearest" (the document's rule for doubts called together): the
    doubter nearest the dealer's left is the challenger; the window settles as
    soon as no seat still to answer sits nearer than the best doubter so far.
  * after_doubt ["next", "loser"]: after a challenge the turn passes on to the
    player's left as usual, or the loser of the challenge plays next. Either way
    the due rank moves on.
  * max_plays [400, 20-5000]: after that many plays the game stops and everyone
    ranks by cards left (random players can pass the pile around for ever).
  * starter ["drawn", "first_seat"]: the dealer is drawn by the seeded generator, or is
    the last seat, so that seat 0, on the dealer's left, plays first (tournaments that
    decide who sits first: games/starting.py).
  * A play holds at most 4 cards per deck in use: as many as one rank has.
  * Timeout: in a window, pass; on a turn, one card of the due rank if the hand
    has one, else the card whose rank comes due last (`bluff_card`).
  * Result: the winner, then the others by cards left, fewer first, ties share a
    place; scores are the cards each seat still holds.
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
from games.cards import FULL_DECK, RANK_NAMES, SUITS, card_name, check_card, decks
from games.starting import drawn_or, starter_option

DUE = "AKQJT98765432"  # the order in which ranks are claimed, round and round
# How a view sorts a hand: by the order ranks come due, then by suit.
HAND_ORDER = {card: (DUE.index(card[0]), SUITS.index(card[1])) for card in FULL_DECK}


@dataclass(slots=True)
class DoubtState:
    """Small and flat: playouts and clones must be cheap. History entries never change once written."""

    players: int
    options: dict
    rng: random.Random
    hands: list[list[str]]
    dealer: int
    turn: int  # the seat to play; while a window is open, the seat whose play is in it
    pile: list[str] = field(default_factory=list)
    due: int = 0  # index in DUE of the rank the next play claims
    plays: int = 0
    # The latest play (seat, count, rank, cards, revealed), {} before any; cards secret unless doubted.
    last: dict = field(default_factory=dict)
    # The open doubt window: seats still to answer (none when no window is open), then the answers in order.
    waiting: list[int] = field(default_factory=list)
    passed: list[int] = field(default_factory=list)
    doubters: list[int] = field(default_factory=list)
    winner: int | None = None
    over: bool = False
    history: list[dict] = field(default_factory=list)


def decks_for(players: int) -> int:
    return 1 if players <= 5 else 2


def play_cap(players: int) -> int:
    """Four cards per deck: more than that can never be an honest claim."""
    return 4 * decks_for(players)


def from_dealers_left(state: DoubtState, seat: int) -> int:
    """0 for the seat on the dealer's left, then 1, 2, ... round the table: who is "nearest"."""
    return (seat - state.dealer - 1) % state.players


def bluff_card(hand: list[str], due: str) -> str:
    """The card to give up when the hand holds none of the due rank: the one whose rank comes due last."""
    return max(hand, key=lambda card: ((DUE.index(card[0]) - DUE.index(due)) % len(DUE), card))


class DoubtIt(Game):
    def new_game(self, players, seed, options=None):
        options = self.clean_options(players, options)
        rng = new_rng(seed)
        cards = decks(decks_for(players))
        rng.shuffle(cards)
        dealer = drawn_or(rng, players, options, players - 1)
        hands: list[list[str]] = [[] for _ in range(players)]
        for i, card in enumerate(cards):
            hands[(dealer + 1 + i) % players].append(card)
        return DoubtState(players, options, rng, hands, dealer, turn=(dealer + 1) % players)

    def to_act(self, state):
        if state.over:
            return []
        return list(state.waiting) if state.waiting else [state.turn]

    def legal_actions(self, state, seat):
        """Compact: each card held, and for each rank held twice or more, all of that rank.

        Any other set of held cards up to the cap is legal too (apply takes it)
        but is not listed: a hand of 40 cards has tens of thousands of them.
        """
        if state.over:
            return []
        if state.waiting:
            return [{"type": "doubt"}, {"type": "pass"}] if seat in state.waiting else []
        if seat != state.turn:
            return []
        hand = sorted(state.hands[seat], key=HAND_ORDER.__getitem__)
        by_rank: dict[str, list[str]] = {}
        for card in hand:
            by_rank.setdefault(card[0], []).append(card)
        return [{"type": "play", "cards": [card]} for card in dict.fromkeys(hand)] + [
            {"type": "play", "cards": same} for same in by_rank.values() if len(same) > 1
        ]

    def apply(self, state, seat, action):
        kind = action_type(action, ("play", "doubt", "pass"))
        check_seat(seat, state.players)
        require(not state.over, "The game is over.")
        if kind == "play":
            self._check_play(state, seat, action)
            self._play(state, seat, action["cards"])
            return state
        self._check_answer(state, seat)
        state.waiting.remove(seat)
        (state.doubters if kind == "doubt" else state.passed).append(seat)
        self._settle(state)
        return state

    # Checks: raise IllegalAction before anything changes ---------------------

    def _check_play(self, state: DoubtState, seat: int, action: dict) -> None:
        if state.waiting:
            require(seat not in state.waiting, "The doubt window is open: doubt or pass on the last play.")
            require(seat != state.turn, "Wait for the others to doubt or pass on your play.")
            raise IllegalAction("You have already answered; wait for the doubt window to close.")
        require(seat == state.turn, "It is not your turn to play.")
        cards = action.get("cards")
        if not isinstance(cards, list) or not cards:
            raise IllegalAction("Choose at least one card to play.")
        cap = play_cap(state.players)
        require(len(cards) <= cap, f"Play at most {cap} cards at once: that is all of one rank in "
                f"{'one deck' if cap == 4 else 'two decks'}.")
        hand = state.hands[seat]
        for card in cards:
            check_card(card)
            held, wanted = hand.count(card), cards.count(card)
            require(held > 0, f"You do not hold the {card_name(card)}.")
            require(held >= wanted, f"You hold the {card_name(card)} only {'once' if held == 1 else f'{held} times'}.")

    def _check_answer(self, state: DoubtState, seat: int) -> None:
        if not state.waiting:
            require(seat != state.turn, "There is no play to answer yet: it is your turn to play cards.")
            raise IllegalAction("There is no play to doubt or pass on yet: wait for the next play.")
        require(seat != state.turn, "You cannot doubt or pass on your own play; wait for the others.")
        require(seat in state.waiting, "You have already answered this play.")

    # Changes ---------------------------------------------------------------

    def _play(self, state: DoubtState, seat: int, cards: list[str]) -> None:
        hand = state.hands[seat]
        for card in cards:
            hand.remove(card)
        state.pile.extend(cards)
        rank = DUE[state.due]
        state.due = (state.due + 1) % len(DUE)
        state.plays += 1
        count = len(cards)
        state.last = {"seat": seat, "count": count, "rank": rank, "cards": list(cards), "revealed": False}
        state.history.append({"type": "play", "seat": seat, "count": count, "rank": rank, "left": len(hand)})
        state.waiting = [(seat + step) % state.players for step in range(1, state.players)]
        state.passed, state.doubters = [], []

    def _settle(self, state: DoubtState) -> None:
        """Close the window once its outcome is known; otherwise keep waiting for answers."""
        if state.doubters:
            if state.options["doubt_rule"] == "first":
                self._challenge(state, state.doubters[0])
                return
            challenger = min(state.doubters, key=lambda seat: from_dealers_left(state, seat))
            nearest = from_dealers_left(state, challenger)
            if all(from_dealers_left(state, seat) > nearest for seat in state.waiting):
                self._challenge(state, challenger)
        elif not state.waiting:
            player = state.turn
            state.history.append({"type": "unchallenged", "seat": player, "passed": state.passed})
            if state.hands[player]:
                self._next_turn(state, (player + 1) % state.players)
            else:
                self._finish(state, player)

    def _challenge(self, state: DoubtState, doubter: int) -> None:
        last = state.last
        player, cards = last["seat"], last["cards"]
        honest = all(card[0] == last["rank"] for card in cards)
        loser = doubter if honest else player
        state.history.append({
            "type": "doubt", "seat": doubter, "player": player, "rank": last["rank"], "cards": cards,
            "honest": honest, "loser": loser, "took": len(state.pile),
            "passed": state.passed, "doubters": state.doubters,
        })
        state.last = {**last, "revealed": True}
        state.hands[loser].extend(state.pile)
        state.pile = []
        if honest and not state.hands[player]:
            self._finish(state, player)
        else:
            after_player = (player + 1) % state.players
            self._next_turn(state, loser if state.options["after_doubt"] == "loser" else after_player)

    def _next_turn(self, state: DoubtState, seat: int) -> None:
        state.waiting, state.passed, state.doubters = [], [], []
        state.turn = seat
        if state.plays >= state.options["max_plays"]:
            state.over = True
            state.history.append({"type": "end", "winner": None, "plays": state.plays})

    def _finish(self, state: DoubtState, winner: int) -> None:
        state.waiting, state.passed, state.doubters = [], [], []
        state.winner, state.over = winner, True
        state.history.append({"type": "end", "winner": winner, "plays": state.plays})

    # Reading ---------------------------------------------------------------

    def view(self, state, seat):
        over = state.over
        last = state.last
        return {
            "game": self.slug, "seat": seat, "players": state.players,
            "to_act": self.to_act(state), "is_over": over, "result": self.result(state) if over else None,
            "history": list(state.history),
            "hand": None if seat is None else sorted(state.hands[seat], key=HAND_ORDER.__getitem__),
            "hand_counts": [len(hand) for hand in state.hands],
            "pile": len(state.pile),
            "due": DUE[state.due], "due_name": RANK_NAMES[DUE[state.due]],
            "dealer": state.dealer,
            "turn": None if over or state.waiting else state.turn,
            "last_play": None if not last else {
                "seat": last["seat"], "count": last["count"], "rank": last["rank"],
                "cards": list(last["cards"]) if last["revealed"] else None,
            },
            "window": {
                "open": bool(state.waiting), "waiting": list(state.waiting),
                "passed": list(state.passed), "doubted": list(state.doubters),
            },
            "max_cards": play_cap(state.players), "plays": state.plays, "options": dict(state.options),
        }

    def is_over(self, state):
        return state.over

    def result(self, state):
        left = [len(hand) for hand in state.hands]
        rest = [seat for seat in range(state.players) if seat != state.winner]
        ranking = [] if state.winner is None else [[state.winner]]
        for count in sorted({left[seat] for seat in rest}):
            ranking.append([seat for seat in rest if left[seat] == count])
        return {"ranking": ranking, "scores": {str(seat): left[seat] for seat in range(state.players)}}

    def default_action(self, state, seat):
        if seat not in self.to_act(state):
            return None
        if state.waiting:
            return {"type": "pass"}
        hand, due = state.hands[seat], DUE[state.due]
        honest = next((card for card in hand if card[0] == due), None)
        return {"type": "play", "cards": [honest or bluff_card(hand, due)]}

    def answer_window_ms(self, state):
        seconds = state.options.get("doubt_window_s", 0)
        return seconds * 1000 if state.waiting and seconds else None

    def dump(self, state):
        return {
            "players": state.players, "options": dict(state.options), "rng": rng_dump(state.rng),
            "hands": [list(hand) for hand in state.hands], "dealer": state.dealer, "turn": state.turn,
            "pile": list(state.pile), "due": state.due, "plays": state.plays,
            "last": {**state.last, "cards": list(state.last["cards"])} if state.last else {},
            "waiting": list(state.waiting), "passed": list(state.passed), "doubters": list(state.doubters),
            "winner": state.winner, "over": state.over, "history": [dict(event) for event in state.history],
        }

    def load(self, data):
        return DoubtState(
            players=data["players"], options=dict(data["options"]), rng=rng_load(data["rng"]),
            hands=[list(hand) for hand in data["hands"]], dealer=data["dealer"], turn=data["turn"],
            pile=list(data["pile"]), due=data["due"], plays=data["plays"],
            last={**data["last"], "cards": list(data["last"]["cards"])} if data["last"] else {},
            waiting=list(data["waiting"]), passed=list(data["passed"]), doubters=list(data["doubters"]),
            winner=data["winner"], over=data["over"], history=[dict(event) for event in data["history"]],
        )

    def clone(self, state):
        """Lists copied one level deep; the rest is never changed in place, so it is shared.

        That includes the generator: only the deal draws from it (copying it
        would cost more than the rest of the clone).
        """
        return DoubtState(
            players=state.players, options=state.options, rng=state.rng,
            hands=[list(hand) for hand in state.hands], dealer=state.dealer, turn=state.turn,
            pile=list(state.pile), due=state.due, plays=state.plays, last=state.last,
            waiting=list(state.waiting), passed=list(state.passed), doubters=list(state.doubters),
            winner=state.winner, over=state.over, history=list(state.history),
        )


GAME = DoubtIt(
    action_keys=frozenset({"type", "cards"}),
    slug="doubt-it", name="I Doubt It", min_players=3, max_players=11,
    options={
        "doubt_rule": Option("first", "Who challenges when several doubt: the first doubt to arrive, or the "
                             "doubter nearest the dealer's left (the window waits for the nearer seats).",
                             ("first", "nearest"), label="Who challenges",
                             choice_labels=("The first to doubt", "The doubter nearest the dealer's left")),
        "after_doubt": Option("next", "Who plays after a challenge: the next player in turn, or the loser of "
                              "the challenge.", ("next", "loser"), label="Who plays after a challenge",
                              choice_labels=("The next player", "The loser of the challenge")),
        "doubt_window_s": Option(20, "Seconds every other player has to doubt or pass after a play; a player "
                                 "still silent then passes (0: only the table clock limits the window).",
                                 minimum=0, maximum=300, label="Seconds to doubt"),
        "max_plays": Option(400, "The game stops after this many plays; then everyone ranks by cards left.",
                            minimum=20, maximum=5000, label="Most plays in a game"),
        "starter": starter_option("Who plays first: the player on the left of a dealer drawn at random, or the "
                                  "first seat (the dealer then sits last)."),
    },
)
