"""Round scores and game totals: pure functions, fewer points is better.

A round's score, given the hand and the own pile at the end of the round:
  * every Dudab still in the hand scores 5 and is then set aside;
  * the rest of the hand joins the own pile;
  * each Dudab of the pile cancels a Shaman (both worth nothing);
  * each Dudab left turns one number card negative (its value counts minus);
  * each Shaman left scores 5;
  * each Jungle takes away every remaining number card of one value, lowest
    value first; a Jungle left over once no values remain takes away every
    Shaman left (so they score nothing);
  * 1..8 Babies add 1/3/6/11/19/32/51/81 points (a penalty makes a score worse);
  * every other number card scores its value.
Which cards the Dudabs make negative is chosen for the player's best (lowest) score.
"""

from __future__ import annotations

from itertools import product

from games.dudab.cards import BABY, CARDS, DUDAB, JUNGLE, NUMBER, SHAMAN

DUDAB_IN_HAND = 5
LONE_SHAMAN = 5
BABY_PENALTY = (0, 1, 3, 6, 11, 19, 32, 51, 81)


def round_score(hand: list[str], own: list[str]) -> int:
    """The round's points of one player (lower is better)."""
    kinds = {DUDAB: 0, SHAMAN: 0, JUNGLE: 0, BABY: 0}
    by_value = {1: 0, 2: 0, 3: 0, 4: 0}
    hand_dudabs = 0
    for card in hand:
        if CARDS[card].kind == DUDAB:
            hand_dudabs += 1
    for card in [*own, *(c for c in hand if CARDS[c].kind != DUDAB)]:
        info = CARDS[card]
        if info.kind == NUMBER:
            by_value[info.value] += 1
        else:
            kinds[info.kind] += 1
    pairs = min(kinds[DUDAB], kinds[SHAMAN])
    dudabs, shamans = kinds[DUDAB] - pairs, kinds[SHAMAN] - pairs
    negate = min(dudabs, sum(by_value.values()))
    best = min(
        _after_dudabs(by_value, taken, shamans, kinds[JUNGLE])
        for taken in product(*(range(by_value[v] + 1) for v in (1, 2, 3, 4)))
        if sum(taken) == negate
    )
    return DUDAB_IN_HAND * hand_dudabs + best + BABY_PENALTY[kinds[BABY]]


def _after_dudabs(by_value: dict[int, int], taken: tuple[int, ...], shamans: int, jungles: int) -> int:
    """Points of the numbers and Shamans once `taken[v-1]` cards of value v are made negative."""
    points = -sum(v * n for v, n in zip((1, 2, 3, 4), taken, strict=True))
    left = [(v, by_value[v] - taken[v - 1]) for v in (1, 2, 3, 4) if by_value[v] > taken[v - 1]]
    if jungles > len(left):
        shamans = 0
    points += sum(v * n for v, n in left[jungles:])
    return points + LONE_SHAMAN * shamans


def totals(round_scores: list[list[int]], players: int) -> dict:
    """Each seat's total and the ranking: lowest total first, equal totals share a place."""
    sums = [sum(scores[seat] for scores in round_scores) for seat in range(players)]
    ranking = [[seat for seat in range(players) if sums[seat] == total] for total in sorted(set(sums))]
    return {"totals": sums, "ranking": ranking}
