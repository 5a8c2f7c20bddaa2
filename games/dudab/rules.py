"""Dudab Buba (Hegedűs Csaba, A-games): 2 to 6 players, fewest points wins.

Rules (docs/rules/dudab.md has them in full, with every decision):
  A game is as many rounds as players; the starting seat moves one seat left
  each round. Each round deals 3 cards to everyone and lays out starting columns
  (2 for 2-3 players, 3 for 5-6, option for 4). On a turn a player plays a card
  onto a column or draws. A number card goes on a number card one higher or lower
  with another colour and another symbol, on a Shaman of its colour, on a Dudab
  that asks nothing, or on a Dudab whose request it meets. The sixth visible card
  of a column collects the cards under it into the player's own pile and starts
  the column anew; the player then discards down to 2 cards, all to the common
  discard pile or all to the own pile. Hands hold 2 to 5 cards at the end of a
  turn. With 5 cards a player may draw only when nothing can be played, showing
  the hand and putting one card on the own pile first.
  A Shaman must be answered by the next player with a Shaman, a Dudab, or the
  penalty (reveal until a number card, draw that many). A Dudab may be played at
  any time and requests a colour, symbol or value that binds every player until
  met; who cannot meet it shows the hand and draws. The round ends when the draw
  pile runs out; games/dudab/scoring.py scores it.
  Expansions (options `jungle`, `baby`): see games/dudab/placement.py and flow.py.
  Who starts round 1 (option `starter`): a seat drawn by the seeded generator, or seat 0
  (tournaments that decide who sits first: games/starting.py).

Actions (docs/protocol/dudab.md):
  {"type": "play", "card": "R-hand-3", "column": 0}        (+ "request": {"colour": "R"} for a Dudab)
  {"type": "draw"}  or  {"type": "draw", "own": "<card>"}   (with 5 cards in hand)
  {"type": "reveal"}                                         (the Shaman penalty)
  {"type": "jungle", "column": 1}  /  {"type": "baby", "column": 1}
  {"type": "trim", "cards": [...]}                           (hand over 5: these go to the own pile)
  {"type": "discard_down", "cards": [...], "to": "discard" | "own"}
Timeout: the first of legal_actions: the penalty, else a draw (the first hand
card to the own pile with 5 cards), else the first legal play; for a follow-up, its first choice.
"""

from __future__ import annotations

from itertools import combinations

from games.base import Game, IllegalAction, Option, action_type, check_seat, new_rng
from games.dudab import flow
from games.dudab.bots import careful_move
from games.dudab.cards import (
    CARDS,
    DUDAB,
    REQUESTS,
    SHAMAN,
    describe,
    describe_request,
    parse_request,
    request_json,
)
from games.dudab.placement import placement_problem
from games.dudab.scoring import round_score, totals
from games.dudab.state import DudabState, clone_state, dump_state, load_state
from games.starting import drawn_or, starter_option

MAIN_ACTIONS = ("play", "draw", "reveal")
# What each follow-up asks of the player, in words (docs/protocol/dudab.md has the actions).
TASK_PROMPTS = {
    "jungle": "place the Jungle card you drew on a column",
    "baby": "place the Baby card you drew on a column",
    "trim": "put cards from your hand on your own pile until five remain",
    "discard_down": "discard down to two cards",
}
SHAMAN_ANSWER = "Answer the Shaman with a Shaman or a Dudab, or take the penalty."


class DudabBuba(Game):
    def new_game(self, players, seed, options=None):
        options = self.clean_options(players, options)
        rng = new_rng(seed)
        state = DudabState(players=players, options=options, rng=rng, first_starter=drawn_or(rng, players, options, 0),
                           round_scores=[], history=[])
        flow.deal_round(state)
        return state

    def to_act(self, state):
        if state.over:
            return []
        return [state.tasks[0]["seat"]] if state.tasks else [state.turn]

    def is_over(self, state):
        return state.over

    # Legal actions ---------------------------------------------------------

    def legal_actions(self, state, seat):
        if seat not in self.to_act(state):
            return []
        if state.tasks:
            return self._task_choices(state, state.tasks[0])
        hand = state.hands[seat]
        plays = []
        for card in hand:
            for index in range(len(state.columns)):
                requests = self._requests(state, card, index)  # a Dudab's request never changes where it fits
                if self._play_problem(state, card, index, requests[0]) is None:
                    plays += [self._play_action(card, index, request) for request in requests]
        if state.shaman_pending:
            return [{"type": "reveal"}, *plays]
        if self._draw_problem(state, seat, plays) is not None:
            return plays
        if len(hand) >= flow.HAND_MAX:
            return [{"type": "draw", "own": card} for card in hand] + plays
        return [{"type": "draw"}, *plays]

    def _task_choices(self, state, task):
        hand = state.hands[task["seat"]]
        if task["kind"] == "jungle":
            return [{"type": "jungle", "column": i} for i, c in enumerate(state.columns) if c.jungle_at < 0]
        if task["kind"] == "baby":
            return [{"type": "baby", "column": i} for i in range(len(state.columns))]
        if task["kind"] == "trim":
            excess = combinations(hand, len(hand) - flow.HAND_MAX)
            return [{"type": "trim", "cards": list(cards)} for cards in excess]
        return [
            {"type": "discard_down", "cards": list(cards), "to": to}
            for to in ("discard", "own") for cards in combinations(hand, len(hand) - flow.HAND_MIN)
        ]

    @staticmethod
    def _play_action(card, index, request):
        action = {"type": "play", "card": card, "column": index}
        if request is not None:
            action["request"] = request_json(request)
        return action

    @staticmethod
    def _requests(state, card, index):
        """The requests a card may carry on a column: every one for a Dudab above any Jungle, else none."""
        if CARDS[card].kind == DUDAB and not state.columns[index].under_jungle():
            return REQUESTS
        return (None,)

    # Validation --------------------------------------------------------------


    def check(self, state: DudabState, seat, action) -> tuple:
        """The validated action as a tuple (kind, details...); IllegalAction when anything is wrong."""
        kind = action_type(action, (*MAIN_ACTIONS, *TASK_PROMPTS))
        check_seat(seat, state.players)
        if state.over:
            raise IllegalAction("The game is over.")
        task = state.tasks[0] if state.tasks else None
        actor = task["seat"] if task else state.turn
        if seat != actor:
            doing = "another player has a follow-up to finish" if task else "another player is playing"
            raise IllegalAction(f"It is not your turn: {doing}.")
        if task:
            if kind != task["kind"]:
                raise IllegalAction(f"First {TASK_PROMPTS[task['kind']]}.")
            return self._check_task(state, task, action)
        if kind in TASK_PROMPTS:
            raise IllegalAction(f"There is nothing to {kind.replace('_', ' ')} now: play a card or draw.")
        if kind == "reveal":
            if not state.shaman_pending:
                raise IllegalAction("There is no Shaman to answer: play a card or draw.")
            return ("reveal",)
        if kind == "draw":
            return self._check_draw(state, seat, action)
        card = self._card_in_hand(state, seat, action.get("card"))
        index = self._column(state, action.get("column"))
        request = parse_request(action.get("request"))
        problem = self._play_problem(state, card, index, request)
        if problem:
            raise IllegalAction(problem)
        return ("play", card, index, request)

    def _play_problem(self, state, card, index, request):
        """Why `card` may not go on column `index` now, None when it may."""
        card_kind = CARDS[card].kind
        if state.shaman_pending and card_kind not in (SHAMAN, DUDAB):
            return SHAMAN_ANSWER
        if state.binding >= 0 and card_kind != DUDAB and index != state.binding:
            wanted = describe_request(state.columns[state.binding].request)
            column = state.binding + 1
            return f"The Dudab on column {column} asks for {wanted}: play it there, play a Dudab, or draw."
        return placement_problem(state.columns[index], card, request)

    def _draw_problem(self, state, seat, plays):
        """Why the seat may not draw now, None when it may."""
        if state.shaman_pending:
            return SHAMAN_ANSWER
        if state.binding >= 0:
            meeting = [p for p in plays if p["column"] == state.binding and CARDS[p["card"]].kind != DUDAB]
            if meeting:
                card = describe(meeting[0]["card"])
                return f"You can meet the request with your {card}: play it (or a Dudab)."
        elif len(state.hands[seat]) >= flow.HAND_MAX and plays:
            return (
                "With five cards you may draw only when nothing can be played: "
                f"your {describe(plays[0]['card'])} "
                f"fits column {plays[0]['column'] + 1}."
            )
        return None

    def _playable(self, state, seat):
        hand = state.hands[seat]
        return [
            {"card": card, "column": index} for card in hand for index in range(len(state.columns))
            if self._play_problem(state, card, index, self._requests(state, card, index)[0]) is None
        ]

    def _check_draw(self, state, seat, action):
        problem = self._draw_problem(state, seat, self._playable(state, seat))
        if problem:
            raise IllegalAction(problem)
        hand = state.hands[seat]
        own = action.get("own")
        if len(hand) >= flow.HAND_MAX:
            if own is None:
                raise IllegalAction("With five cards in hand, choose a card for your own pile before you draw.")
            own = self._card_in_hand(state, seat, own)
        elif own is not None:
            raise IllegalAction("A card goes to your own pile before drawing only when you hold five cards.")
        return ("draw", own)

    def _check_task(self, state, task, action):
        kind = task["kind"]
        if kind in ("jungle", "baby"):
            index = self._column(state, action.get("column"))
            if kind == "jungle" and state.columns[index].jungle_at >= 0:
                raise IllegalAction(
                    f"Column {index + 1} already has a Jungle card: choose a column without one."
                )
            return (kind, index)
        hand = state.hands[task["seat"]]
        keep = flow.HAND_MAX if kind == "trim" else flow.HAND_MIN
        cards = action.get("cards")
        if (not isinstance(cards, list) or len(cards) != len(hand) - keep
                or not all(isinstance(c, str) and c in hand for c in cards) or len(set(cards)) != len(cards)):
            raise IllegalAction(
                f"Choose exactly {len(hand) - keep} different cards from your hand, so that {keep} remain."
            )
        if kind == "trim":
            return (kind, cards)
        if action.get("to") not in ("discard", "own"):
            raise IllegalAction(
                "Say where the cards go: the common discard pile or your own pile."
            )
        return (kind, cards, action["to"])

    @staticmethod
    def _card_in_hand(state, seat, card):
        if not isinstance(card, str) or card not in state.hands[seat]:
            known = isinstance(card, str) and card in CARDS
            raise IllegalAction(
                f"You have no {describe(card)} in your hand." if known else "That card is not in your hand."
            )
        return card

    @staticmethod
    def _column(state, index):
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(state.columns):
            raise IllegalAction(f"There is no such column: the table has {len(state.columns)}.")
        return index

    # Changing the state ------------------------------------------------------

    def apply(self, state, seat, action):
        checked = self.check(state, seat, action)
        kind = checked[0]
        if kind == "play":
            self._play(state, seat, *checked[1:])
        elif kind == "draw":
            self._draw(state, seat, checked[1])
        elif kind == "reveal":
            flow.shaman_penalty(state, seat)
        else:
            self._do_task(state, seat, state.tasks.pop(0), checked)
        flow.settle(state)
        return state

    def _play(self, state, seat, card, index, request):
        state.hands[seat].remove(card)
        collected = state.columns[index].put(card, request)
        state.own[seat] += collected
        card_kind = CARDS[card].kind
        if card_kind == DUDAB:
            if request is not None:
                state.binding = index
        elif state.binding == index:
            state.binding = -1
        state.shaman_pending = card_kind == SHAMAN
        state.history.append({
            "type": "play", "seat": seat, "card": card, "column": index, "request": request_json(request),
            "collected": len(collected),
        })
        if collected and len(state.hands[seat]) > flow.HAND_MIN:
            state.tasks.append({"kind": "discard_down", "seat": seat})

    def _draw(self, state, seat, own):
        hand = state.hands[seat]
        shown = list(hand) if state.binding >= 0 or len(hand) >= flow.HAND_MAX else None
        if own is not None:
            hand.remove(own)
            state.own[seat].append(own)
        flow.turn_draw(state, seat, {"type": "draw", "seat": seat, "forced": False, "shown": shown})

    def _do_task(self, state, seat, task, checked):
        kind = checked[0]
        if kind == "jungle":
            index = checked[1]
            state.columns[index].add_jungle(task["card"])
            if state.binding == index:
                state.binding = -1
            state.history.append({"type": "jungle", "seat": seat, "card": task["card"], "column": index})
        elif kind == "baby":
            flow.place_baby(state, seat, task["card"], checked[1])
        else:
            cards = checked[1]
            to = checked[2] if kind == "discard_down" else "own"
            hand = state.hands[seat]
            for card in cards:
                hand.remove(card)
            (state.discard if to == "discard" else state.own[seat]).extend(cards)
            state.history.append({
                "type": kind, "seat": seat, "to": to, "count": len(cards),
                "cards": list(cards) if to == "discard" else None,
            })

    # Reading the state -----------------------------------------------------------

    def view(self, state, seat):
        """What `seat` may see: its hand and own pile (and what they would score if the round ended
        now: other seats' figures would give their hidden cards away), counts of everyone else's, the visible table."""
        result = self.result(state) if state.over else None
        summary = totals(state.round_scores, state.players)
        return {
            "game": self.slug, "seat": seat, "players": state.players,
            "to_act": self.to_act(state), "is_over": state.over, "result": result,
            "history": list(state.history),
            "hand": None if seat is None else list(state.hands[seat]),
            "hand_counts": [len(hand) for hand in state.hands],
            "own": None if seat is None else list(state.own[seat]),
            "own_counts": [len(pile) for pile in state.own],
            "round_points": None if seat is None else round_score(state.hands[seat], state.own[seat]),
            "columns": [column.json() for column in state.columns],
            "deck_count": len(state.deck),
            "discard_top": state.discard[-1] if state.discard else None,
            "discard_count": len(state.discard),
            "request": None if state.binding < 0 else {
                "column": state.binding, "request": request_json(state.columns[state.binding].request),
            },
            "shaman_pending": state.shaman_pending,
            "tasks": [self._public_task(state, task) for task in state.tasks],
            "turn": state.turn, "round": state.round, "rounds": state.players,
            "round_scores": [list(scores) for scores in state.round_scores], "totals": summary["totals"],
            "options": dict(state.options),
        }

    @staticmethod
    def _public_task(state, task):
        """A follow-up as everyone sees it: a drawn Jungle or Baby is face up, a trim is a count."""
        hand = len(state.hands[task["seat"]])
        count = {"trim": hand - flow.HAND_MAX, "discard_down": hand - flow.HAND_MIN}.get(task["kind"])
        return {"kind": task["kind"], "seat": task["seat"], "card": task.get("card"), "count": count}

    def result(self, state):
        """Lowest total first; equal totals share a place."""
        summary = totals(state.round_scores, state.players)
        return {
            "ranking": summary["ranking"],
            "scores": {str(seat): total for seat, total in enumerate(summary["totals"])},
        }

    def default_action(self, state, seat):
        """The strong house bot's move, chance left out: a timeout sheds points as a careful player would."""
        legal = self.legal_actions(state, seat)
        return careful_move(self.view(state, seat), legal) if legal else None

    def dump(self, state):
        return dump_state(state)

    def load(self, data):
        return load_state(data)

    def clone(self, state):
        return clone_state(state)


GAME = DudabBuba(
    action_keys=frozenset({"type", "card", "column", "request", "cards", "to", "own"}),
    slug="dudab", name="Dudab Buba", min_players=2, max_players=6,
    options={
        "jungle": Option(
            False, "Add the 8 Jungle cards: drawn, one splits a column into mirrored halves.", label="Jungle cards"
        ),
        "baby": Option(
            False, "Add the 8 Baby cards: drawn, one hides a column and may make everyone draw.", label="Baby cards"
        ),
        "four_player_columns": Option(
            3, "Starting columns with 4 players (2-3 players have 2, 5-6 players 3).", choices=(2, 3),
            label="Starting columns with 4 players",
            choice_labels=("2 columns", "3 columns"), matters=lambda players, options: players == 4,
        ),
        "starter": starter_option(
            "Who starts round 1: a player drawn at random, or the first seat. Each later round starts one seat "
            "further left."
        ),
    },
)
