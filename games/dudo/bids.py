"""The bid ladder of Dudo: which bid raises which, and what to tell a player whose bid does not.

With ones wild every bid has one place on a single ladder, so "does it raise?" is
one integer comparison and the legal bids are a slice of a precomputed list:

    ... 2 fives, 2 sixes, 1 one, 3 twos, ..., 4 sixes, 2 ones, 5 twos, ...

A bid on q ones sits just above every bid of 2q dice. Going onto ones after Q dice
therefore needs ceil(Q/2) ones, and leaving q ones for another face needs 2q+1
dice: the two rules of the document are this one order. Without wild ones (a
one-die round, unless the table keeps them wild) ones are simply the lowest face.
"""

from __future__ import annotations

from functools import cache

FACES = (1, 2, 3, 4, 5, 6)
SINGULAR = ("", "one", "two", "three", "four", "five", "six")
PLURAL = ("", "ones", "twos", "threes", "fours", "fives", "sixes")


def strength(quantity: int, face: int, ones_wild: bool) -> int:
    """The bid's rung on the ladder: a bid raises another exactly when its rung is higher."""
    if not ones_wild:
        return quantity * 6 + face - 1
    if face == 1:
        return quantity * 12 + 5
    return quantity * 6 + face - 2


class SharedAction(dict):
    """A legal action built once and handed to every caller: changing it raises instead of corrupting all."""

    __slots__ = ()

    def _refuse(self, *args, **kwargs):
        raise TypeError("Legal actions are shared and read-only: change a copy, dict(action).")

    __setitem__ = __delitem__ = __ior__ = clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self):
        return SharedAction, (dict(self),)

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


DOUBT = SharedAction(type="doubt")


@cache
def ladder(total: int, ones_wild: bool) -> tuple[tuple[int, ...], tuple[SharedAction, ...]]:
    """Every bid naming at most `total` dice, weakest first, and the rungs to bisect them by."""
    bids = sorted(
        ((quantity, face) for quantity in range(1, total + 1) for face in FACES),
        key=lambda bid: strength(bid[0], bid[1], ones_wild),
    )
    rungs = tuple(strength(quantity, face, ones_wild) for quantity, face in bids)
    return rungs, tuple(SharedAction(type="bid", quantity=quantity, face=face) for quantity, face in bids)


@cache
def openings(total: int, ones_wild: bool, ones_allowed: bool) -> tuple[SharedAction, ...]:
    """The bids that may open a round."""
    return tuple(bid for bid in ladder(total, ones_wild)[1] if ones_allowed or bid["face"] != 1)


def spell(quantity: int, face: int) -> str:
    """'7 fours', '1 six': how a bid reads in messages."""
    return f"{quantity} {SINGULAR[face] if quantity == 1 else PLURAL[face]}"


def why_not_a_raise(standing: tuple[int, int], quantity: int, face: int, ones_wild: bool) -> str:
    """The message for a bid that does not climb above the standing one."""
    old_quantity, old_face = standing
    said = spell(old_quantity, old_face)
    if ones_wild and old_face != 1 and face == 1:
        need = (old_quantity + 1) // 2
        wanted = spell(need, 1)
        return f"After {said} a bid on ones needs at least {wanted}: half of {old_quantity} rounded up."
    if ones_wild and old_face == 1 and face != 1:
        need = 2 * old_quantity + 1
        wanted = spell(need, face)
        return f"After {said} a bid on {PLURAL[face]} needs at least {wanted}: twice {old_quantity} plus one."
    if face == old_face:
        return f"Your bid must raise {said}: bid more than {old_quantity} {PLURAL[face]}."
    return f"Your bid must raise {said}: more dice of any face, or {old_quantity} of a higher face."
