"""Values stored as slugs, in the words players read."""

import math
from datetime import datetime

from django import template
from django.utils import timezone

from tournaments import rounds, tiebreaks

register = template.Library()


@register.filter
def mini_game(name: str) -> str:
    return rounds.mini_game_label(name)


@register.filter
def points(value: float) -> str:
    """Points and tiebreaks as people write them, as the round lists do: 2.5, 0.667, 13."""
    return tiebreaks.figure(value)


@register.filter
def tenths(value: float) -> str:
    """A scaled total or a shifted series score to one decimal at most (134.2, not 134.182)."""
    return tiebreaks.figure(round(value, 1))


@register.filter
def starts_in(starts_at: datetime) -> str:
    """How long until a start, in words, as a countdown reads: "in 12 minutes", "in 1 hour 5 minutes",
    "in 40 seconds"; "any moment now" once the time has come but the beat has not started it yet."""
    seconds = (starts_at - timezone.now()).total_seconds()
    if seconds <= 0:
        return "any moment now"
    if seconds < 60:
        return f"in {counted(math.ceil(seconds), 'second')}"
    minutes = math.ceil(seconds / 60)
    if minutes < 60:
        return f"in {counted(minutes, 'minute')}"
    hours, minutes = divmod(minutes, 60)
    if hours < 24:
        return f"in {counted(hours, 'hour')}" + (f" {counted(minutes, 'minute')}" if minutes else "")
    return f"in {counted(round(hours / 24), 'day')}"


def counted(number: int, unit: str) -> str:
    return f"{number} {unit}{'' if number == 1 else 's'}"
