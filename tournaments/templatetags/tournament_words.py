"""Names that are slugs in the data, as words on the page ("hot-potato" -> "Hot potato")."""

from django import template

register = template.Library()


@register.filter
def words(slug: str) -> str:
    return str(slug).replace("-", " ").replace("_", " ").capitalize()
