"""How a round moves on: dealing, drawing, penalties, the end of a turn and of a round.

These functions change a state that the rules have already validated; every
public event they cause is written to the history here.
"""

from __future__ import annotations

from games.dudab.cards import BABY, CARDS, JUNGLE, NUMBER, full_deck
from games.dudab.placement import Column
from games.dudab.scoring import round_score
from games.dudab.state import DudabState

HAND_MIN, HAND_MAX, DEAL = 2, 5, 3


def column_count(players: int, options: dict) -> int:
    if players <= 3:
        return 2
    if players >= 5:
        return 3
    return options["four_player_columns"]


def deal_round(state: DudabState) -> None:
    """Shuffle every card, deal three to each seat and lay out the starting columns."""
    deck = full_deck(state.options["jungle"], state.options["baby"])
    state.rng.shuffle(deck)
    state.hands = [[_take_plain(deck) for _ in range(DEAL)] for _ in range(state.players)]
    state.columns = [Column([_take_plain(deck)]) for _ in range(column_count(state.players, state.options))]
    state.deck, state.discard = deck, []
    state.own = [[] for _ in range(state.players)]
    state.turn = (state.first_starter + state.round - 1) % state.players
    state.binding, state.shaman_pending, state.tasks = -1, False, []
    state.history.append({
        "type": "round", "round": state.round, "starter": state.turn,
        "columns": [column.cards[0] for column in state.columns],
    })


def _take_plain(deck: list[str]) -> str:
    """The topmost card that is not a Jungle or a Baby: those only act when drawn during play."""
    for index in range(len(deck) - 1, -1, -1):
        if CARDS[deck[index]].kind not in (JUNGLE, BABY):
            return deck.pop(index)
    raise AssertionError("a deck always holds plain cards")


def turn_draw(state: DudabState, seat: int, event: dict) -> None:
    """The turn's draw: a Jungle or a Baby asks where it goes (the last card of the pile is simply kept)."""
    card = state.deck.pop()
    card_kind = CARDS[card].kind
    event["special"] = card if card_kind in (JUNGLE, BABY) and state.deck else None
    state.history.append(event)
    if event["special"] is None:
        state.hands[seat].append(card)
    elif card_kind == BABY:
        state.tasks.append({"kind": "baby", "seat": seat, "card": card})
    elif any(column.jungle_at < 0 for column in state.columns):
        state.tasks.append({"kind": "jungle", "seat": seat, "card": card})
    else:
        state.discard.append(card)
        state.history.append({"type": "jungle_discarded", "seat": seat, "card": card})


def penalty_draws(state: DudabState, seat: int, count: int) -> list[str]:
    """Draw `count` cards to the hand; a Jungle or Baby met on the way goes face up to the discard pile."""
    skipped = []
    drawn = 0
    while drawn < count and state.deck:
        card = state.deck.pop()
        if CARDS[card].kind in (JUNGLE, BABY):
            state.discard.append(card)
            skipped.append(card)
        else:
            state.hands[seat].append(card)
            drawn += 1
    return skipped


def shaman_penalty(state: DudabState, seat: int) -> None:
    """Reveal cards onto the discard pile until a number card shows, then draw that many."""
    revealed = []
    while state.deck:
        card = state.deck.pop()
        state.discard.append(card)
        revealed.append(card)
        if CARDS[card].kind == NUMBER:
            break
    value = CARDS[revealed[-1]].value if revealed and CARDS[revealed[-1]].kind == NUMBER else 0
    skipped = penalty_draws(state, seat, value)
    state.shaman_pending = False
    state.history.append(
        {"type": "reveal", "seat": seat, "revealed": revealed, "draws": value, "skipped": skipped}
    )


def place_baby(state: DudabState, seat: int, baby: str, index: int) -> None:
    """Cover the column with the Baby and a fresh card; a number card makes everyone draw its value."""
    skipped = []
    cover = None
    while state.deck and cover is None:
        card = state.deck.pop()
        if CARDS[card].kind in (JUNGLE, BABY):
            state.discard.append(card)
            skipped.append(card)
        else:
            cover = card
    column = state.columns[index]
    if cover is None:  # the pile ran out: the round ends with the Baby on top
        column.cards.append(baby)
        column.visible_from, column.jungle_at, column.request = len(column.cards), -1, None
    else:
        column.add_baby(baby, cover)
    if state.binding == index:
        state.binding = -1
    value = CARDS[cover].value if cover and CARDS[cover].kind == NUMBER else 0
    state.history.append({
        "type": "baby", "seat": seat, "card": baby, "column": index, "cover": cover, "each_draws": value,
        "skipped": skipped,
    })
    if value:
        order = [(seat + step) % state.players for step in range(state.players)]
        for other in order:
            state.history[-1]["skipped"] += penalty_draws(state, other, value)
        state.tasks += [
            {"kind": "trim", "seat": other} for other in order if len(state.hands[other]) > HAND_MAX
        ]


def settle(state: DudabState) -> None:
    """After the turn's action and each follow-up: end the round, await a choice, top up, trim or pass on."""
    while True:
        if not state.deck:
            end_round(state)
            return
        if state.tasks:
            return
        hand = state.hands[state.turn]
        if len(hand) < HAND_MIN:
            turn_draw(state, state.turn, {"type": "draw", "seat": state.turn, "forced": True, "shown": None})
            continue
        if len(hand) > HAND_MAX:
            state.tasks.append({"kind": "trim", "seat": state.turn})
            return
        state.turn = (state.turn + 1) % state.players
        return


def end_round(state: DudabState) -> None:
    """Hands are shown and every seat scores; the next round is dealt or the game ends."""
    scores = [round_score(state.hands[seat], state.own[seat]) for seat in range(state.players)]
    state.history.append({
        "type": "round_end", "round": state.round, "scores": scores,
        "hands": [list(hand) for hand in state.hands], "own": [list(pile) for pile in state.own],
    })
    state.round_scores.append(scores)
    state.tasks = []
    if state.round == state.players:
        state.over = True
        return
    state.round += 1
    deal_round(state)
