"""Values stored as slugs, in the words players read."""

from django import template

from games.engine import get_game

register = template.Library()


@register.filter
def mini_game(name: str) -> str:
    """A Dobble mini-game by the label its option gives it ("hot-potato" -> "Hot Potato")."""
    return dict(get_game("dobble").options["mini_game"].named_choices()).get(name, name)
