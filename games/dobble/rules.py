"""Dobble (Spot it!): five real-time mini-games on 55 cards of 8 symbols.

Any two cards share exactly one symbol (deck.py). A match is one mini-game,
chosen by option `mini_game`; a tournament series chains them (points.py):

- towering-inferno: win the face-up pile card with your own top card; most cards wins.
- the-well: put your cards on the middle card; the last seat holding cards loses.
- hot-potato: pass your open cards to another holder; the last holder loses the
  round; rounds until the cards run out; fewest cards set aside wins.
- gotta-catch-them-all: take revealed cards matching the middle card; most cards wins.
- poisoned-gift: give the face-up pile card to another player; fewest cards wins.

Everyone plays at once: the only action is a claim,
{"type": "claim", "symbol": 12, "target": "pile", "at_ms": 5400}, naming a
symbol id and what it matches ("pile", "middle", a seat, or a revealed card's
index, depending on the mini-game). `at_ms` is the game time in milliseconds
that the server stamps on arrival; claims must come in time order. The first
right claim wins; a wrong claim is not refused but logged and punished: the
seat is locked out for `lockout_ms` of game time, and claims it makes before
then are refused. A claim the server marks `"false_start": true` (made sooner after
the cards were sent than a person can react, games/matches/fairness.py) is judged
wrong whatever it names, and logged with that mark. Ties at the end are settled by
duels (tiebreak.py), so the ranking is strict.

Without a clock, "now" is the time of the last applied claim: `to_act` lists
every seat taking part (a locked-out seat too, so that its claim is accepted as
soon as its lockout is over), and `legal_actions` gives each of them claims.
Each listed claim carries `at_ms`, the earliest game time at which it may be
played (now, or a locked-out seat's lockout end), so apply accepts it as it
stands, and a server knows when a locked-out house bot may try again even if
nobody else moves meanwhile. The claims listed are the compact
form: the 8 symbols of the first compared card (your own card, or the pile card
in the poisoned gift, or the middle card in gotta catch them all) for each
target; any other symbol id 0-56 is also accepted, and is always wrong.

Options: mini_game, lockout_ms (default 1000), last_winner (whose deal starts
the well), hot_potato_rounds (0 = until the cards run out). No timeout: a
real-time game has no turn to time out, so default_action is None.
"""

from __future__ import annotations

import math

from games.base import Game, IllegalAction, Option, action_type, check_seat, new_rng, require
from games.dobble import state as states
from games.dobble.deck import CARD_COUNT, CARDS, SHARED, SYMBOL_COUNT, card_view
from games.dobble.gotta_catch import GOTTA_CATCH_THEM_ALL
from games.dobble.hot_potato import HOT_POTATO
from games.dobble.minigame import MiniGame
from games.dobble.poisoned_gift import POISONED_GIFT
from games.dobble.state import OVER, PLAY, TIEBREAK, State
from games.dobble.the_well import THE_WELL
from games.dobble.tiebreak import TIEBREAK_RULES, finish_mini_game
from games.dobble.towering_inferno import TOWERING_INFERNO

MINI_GAMES: dict[str, MiniGame] = {
    mini_game.name: mini_game
    for mini_game in (TOWERING_INFERNO, THE_WELL, HOT_POTATO, GOTTA_CATCH_THEM_ALL, POISONED_GIFT)
}
MIN_HOT_POTATO_ROUNDS = 5
# With no lockout, claiming all eight symbols of a card one after another would win every race:
# the shortest pause is a quarter of a second.
LOCKOUTS_MS = (250, 500, 1000, 2000, 3000, 5000)
BOT_REACTIONS_MS = (0, 250, 500, 1000, 2000)


def seconds_in_words(ms: int) -> str:
    """250 -> "a quarter of a second", 1000 -> "1 second", 3000 -> "3 seconds"."""
    words = {250: "a quarter of a second", 500: "half a second", 1000: "1 second"}
    return words.get(ms, f"{ms / 1000:g} seconds")


class Dobble(Game):
    def new_game(self, players: int, seed: int, options: dict | None = None) -> State:
        options = self.clean_options(players, options)
        require(
            options["last_winner"] < players,
            f"Option last_winner must be a seat of this table, 0 to {players - 1}.",
        )
        mini_game = MINI_GAMES[options["mini_game"]]
        rounds = self._hot_potato_rounds(players, options) if mini_game is HOT_POTATO else 0
        rng = new_rng(seed)
        pile = list(range(CARD_COUNT))
        rng.shuffle(pile)
        state = State(
            players=players,
            mini_game=mini_game.name,
            lockout_ms=options["lockout_ms"],
            rounds=rounds,
            rng=rng,
            phase=PLAY,
            now_ms=0,
            changed_ms=0,
            lockout_until=[0] * players,
            stacks=[[] for _ in range(players)],
            pile=pile,
            middle=[],
            revealed=[],
            gained=[[] for _ in range(players)],
            rounds_lost=[0] * players,
            round=0,
            out=[],
            scores=[],
            ranking=[],
            ties=[],
            tiebreaks=[],
            history=[],
        )
        mini_game.deal(state, options["last_winner"])
        return state

    def to_act(self, state: State) -> list[int]:
        if state.phase == OVER:
            return []
        return self._rules(state).claimants(state)

    def legal_actions(self, state: State, seat: int) -> list[dict]:
        if seat not in self.to_act(state):
            return []
        rules = self._rules(state)
        at_ms = max(state.now_ms, state.lockout_until[seat])
        return [
            {"type": "claim", "symbol": symbol, "target": target, "at_ms": at_ms}
            for target in rules.targets(state, seat)
            for symbol in CARDS[rules.compared(state, seat, target)[0]]
        ]


    def apply(self, state: State, seat: int, action) -> State:
        symbol, target, at_ms = self.check(state, seat, action)
        rules = self._rules(state)
        first, second = rules.compared(state, seat, target)
        false_start = action.get("false_start") is True
        correct = symbol == SHARED[first][second] and not false_start
        state.now_ms = at_ms
        event = {"type": "claim", "seat": seat, "symbol": symbol, "target": target, "correct": correct}
        if false_start:
            event["false_start"] = True
        if not correct:
            state.lockout_until[seat] = at_ms + state.lockout_ms
            event["locked_until"] = state.lockout_until[seat]
        event["at_ms"] = at_ms
        state.history.append(event)
        if correct:
            state.changed_ms = at_ms
            rules.take(state, seat, target)
            if state.phase == PLAY and rules.is_done(state):
                finish_mini_game(state, rules)
        return state

    def still_current(self, state: State, moves_since: int) -> bool:
        """A claim is about the face-up cards, so it is stale only if one of the claims since was right
        (every action is a claim, and a right claim is what moves cards); another seat's wrong claim
        changes nothing the claim was about. A state that keeps only the tail of its history
        (KEPT_HISTORY) may not reach back that far: then the claim counts as stale."""
        claims = [event for event in reversed(state.history) if event["type"] == "claim"][:moves_since]
        return len(claims) == moves_since and not any(event["correct"] for event in claims)

    def view(self, state: State, seat: int | None) -> dict:
        """Everything face up; the same for every seat, as Dobble has no secret held by one player."""
        if seat is not None:
            check_seat(seat, state.players)
        pile_face_up = state.phase == PLAY and self._rules(state).pile_face_up
        scores = state.scores or self._rules(state).scores(state)
        return {
            "game": self.slug,
            "seat": seat,
            "players": state.players,
            "to_act": self.to_act(state),
            "is_over": state.phase == OVER,
            "result": self.result(state) if state.phase == OVER else None,
            "history": list(state.history),
            "mini_game": state.mini_game,
            "phase": state.phase,
            "now_ms": state.now_ms,
            "changed_ms": state.changed_ms,
            "lockout_ms": state.lockout_ms,
            "lockouts": {
                str(other): until for other, until in enumerate(state.lockout_until) if until > state.now_ms
            },
            "round": state.round,
            "rounds": state.rounds or None,
            "pile": {
                "count": len(state.pile),
                "top": card_view(state.pile[-1]) if pile_face_up and state.pile else None,
            },
            "middle": {
                "count": len(state.middle),
                "top": card_view(state.middle[-1]) if state.middle else None,
            },
            "revealed": [None if card is None else card_view(card) for card in state.revealed],
            "seats": [
                {
                    "seat": other,
                    "top": card_view(stack[-1]) if stack else None,
                    "cards": len(stack),
                    "score": scores[other],
                    "rounds_lost": state.rounds_lost[other],
                }
                for other, stack in enumerate(state.stacks)
            ],
            "out": list(state.out),
            "tie": list(state.ties[0]) if state.phase == TIEBREAK else None,
            "tiebreaks": [list(order) for order in state.tiebreaks],
        }

    def countdown_view(self, view: dict) -> dict:
        """Every card face down until "go": the counts stay, no card's symbols are sent."""
        return {
            **view,
            "face_down": True,
            "pile": {**view["pile"], "top": None},
            "middle": {**view["middle"], "top": None},
            "revealed": [None for _ in view["revealed"]],
            "seats": [{**seat, "top": None} for seat in view["seats"]],
        }

    def is_over(self, state: State) -> bool:
        return state.phase == OVER

    def result(self, state: State) -> dict:
        """The ranking after tiebreaks, the mini-game's figures, and what points.py needs."""
        require(state.phase == OVER, "The mini-game is not over yet: it has no result.")
        details: dict = {
            "mini_game": state.mini_game,
            "tiebreaks": [list(order) for order in state.tiebreaks],
        }
        if state.mini_game == THE_WELL.name:
            details["out_order"] = [group[0] for group in state.ranking]
        if state.mini_game == HOT_POTATO.name:
            details["rounds_lost"] = {str(seat): lost for seat, lost in enumerate(state.rounds_lost)}
        return {
            "ranking": [list(group) for group in state.ranking],
            "scores": {str(seat): score for seat, score in enumerate(state.scores)},
            "details": details,
        }

    def default_action(self, state: State, seat: int) -> None:
        """No clock runs out in a real-time game: nobody is waited for, so nothing is played for anyone."""
        return None

    def dump(self, state: State) -> dict:
        return states.dump(state)

    def load(self, data: dict) -> State:
        return states.load(data)

    def clone(self, state: State) -> State:
        return states.clone(state)

    # Helpers ------------------------------------------------------------------

    @staticmethod
    def _hot_potato_rounds(players: int, options: dict) -> int:
        most_rounds = CARD_COUNT // players
        rounds = options["hot_potato_rounds"] or most_rounds
        require(
            MIN_HOT_POTATO_ROUNDS <= rounds <= most_rounds,
            f"Option hot_potato_rounds must be 0 (until the cards run out) or "
            f"{MIN_HOT_POTATO_ROUNDS} to {most_rounds} with {players} players.",
        )
        return rounds

    @staticmethod
    def _rules(state: State) -> MiniGame:
        return TIEBREAK_RULES if state.phase == TIEBREAK else MINI_GAMES[state.mini_game]

    def check(self, state: State, seat, action) -> tuple[int, object, int]:
        """The claim's symbol, target and time, or IllegalAction; never changes the state."""
        action_type(action, ("claim",))
        check_seat(seat, state.players)
        require(state.phase != OVER, "The game is over: no more claims.")
        at_ms = action.get("at_ms")
        require(
            action.get("false_start", True) is True, 'Only the server marks a claim "false_start": true.'
        )
        require(
            type(at_ms) is int and at_ms >= 0,
            "A claim needs its game time at_ms, a whole number of milliseconds (the server stamps it).",
        )
        require(
            at_ms >= state.now_ms,
            f"This claim is stamped {at_ms} ms, before the last claim ({state.now_ms} ms): "
            "claims must arrive in time order.",
        )
        rules = self._rules(state)
        if seat not in rules.claimants(state):
            raise IllegalAction(rules.idle_reason(state, seat))
        wait_ms = state.lockout_until[seat] - at_ms
        require(
            wait_ms <= 0,
            f"You are locked out for another {math.ceil(wait_ms / 100) / 10:.1f} s after a wrong claim.",
        )
        symbol = action.get("symbol")
        require(
            type(symbol) is int and 0 <= symbol < SYMBOL_COUNT,
            f"A claim names a symbol by its id, a whole number from 0 to {SYMBOL_COUNT - 1}.",
        )
        target = action.get("target")
        targets = rules.targets(state, seat)
        require(
            type(target) in (int, str) and target in targets,
            f"That card cannot be matched now. {rules.target_rule}",
        )
        return symbol, target, at_ms


GAME = Dobble(
    action_keys=frozenset({"type", "symbol", "target", "at_ms", "false_start"}),
    slug="dobble",
    name="Dobble",
    min_players=2,
    max_players=8,
    realtime=True,
    hidden_information=False,
    options={
        "mini_game": Option(
            default=TOWERING_INFERNO.name,
            help="The race you play: each mini-game has its own way to win cards or get rid of them (see the rules).",
            choices=tuple(MINI_GAMES),
            label="Mini-game",
            choice_labels=(
                "The Towering Inferno", "The Well", "Hot Potato", "Gotta Catch 'Em All", "The Poisoned Gift"
            ),
        ),
        "lockout_ms": Option(
            default=1000,
            help="Tap a wrong picture and you must wait this long before you may tap again.",
            choices=LOCKOUTS_MS,
            label="Pause after a wrong claim",
            choice_labels=tuple(seconds_in_words(ms) for ms in LOCKOUTS_MS),
        ),
        "bot_reaction_ms": Option(
            default=500,
            help="Computer players wait at least this long after new cards turn up before they answer, "
            "so people get a fair start. Tables of computers only never wait.",
            choices=BOT_REACTIONS_MS,
            label="Fastest a bot may react at a table with people",
            choice_labels=tuple("at once" if ms == 0 else seconds_in_words(ms) for ms in BOT_REACTIONS_MS),
        ),
        "last_winner": Option(
            default=0,
            help="In a series, the winner of the previous mini-game is dealt the first card of the well.",
            minimum=0,
            maximum=7,
            label="Seat that won the previous mini-game",
            players_choose=False,
        ),
        "hot_potato_rounds": Option(
            default=0,
            help="How many rounds of Hot Potato to play: 0 plays until the cards run out, otherwise 5 or more.",
            minimum=0,
            maximum=CARD_COUNT // 2,
            label="Hot Potato rounds (0: until the cards run out)",
            matters=lambda players, options: options.get("mini_game") == HOT_POTATO.name,
        ),
    },
)
