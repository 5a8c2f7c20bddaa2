"""Values stored as slugs, in the words players read."""

from django import template

from games.engine import get_game
from tournaments import rounds

register = template.Library()


@register.filter
def mini_game(name: str) -> str:
    """A Dobble mini-game by the label its option gives it ("hot-potato" -> "Hot Potato")."""
    return dict(get_game("dobble").options["mini_game"].named_choices()).get(name, name)


@register.filter
def points(value: float) -> str:
    """Points and tiebreaks as people write them, as the round lists do: 2.5, 0.667, 13."""
    return rounds.figure(value)


@register.filter
def tenths(value: float) -> str:
    """A scaled total or a shifted series score to one decimal at most (134.2, not 134.182)."""
    return rounds.figure(round(value, 1))
