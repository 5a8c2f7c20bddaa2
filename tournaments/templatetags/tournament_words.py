"""Values stored as slugs, in the words players read."""

from django import template

from tournaments import rounds

register = template.Library()


@register.filter
def mini_game(name: str) -> str:
    return rounds.mini_game_label(name)


@register.filter
def points(value: float) -> str:
    """Points and tiebreaks as people write them, as the round lists do: 2.5, 0.667, 13."""
    return rounds.figure(value)


@register.filter
def tenths(value: float) -> str:
    """A scaled total or a shifted series score to one decimal at most (134.2, not 134.182)."""
    return rounds.figure(round(value, 1))
