"""What a match is part of, as the app that seated it says: "Round 2 of Winter Swiss".

The match service never imports the apps above it. A tournament registers the function that
names its matches' event (AppConfig.ready); the table page links back to the event, and no
rematch is offered there: the event seats the next game itself.
"""

from dataclasses import dataclass


@dataclass(frozen=True)
class Occasion:
    name: str  # in words: "Round 2 of Winter Swiss"
    event: str  # the event's own name, for sentences: "Winter Swiss"
    url: str
    next: str = ""  # what comes next for the viewer, in words: "The tournament seats your next game."


_namers: list = []


def register(name_occasion) -> None:
    """name_occasion(match, user) -> Occasion | None; an app registers one once."""
    if name_occasion not in _namers:
        _namers.append(name_occasion)


def of(match, user=None) -> Occasion | None:
    """The match's event, with what comes next for `user` (a visitor, or nobody, is told nothing)."""
    for name_occasion in _namers:
        found = name_occasion(match, user)
        if found is not None:
            return found
    return None
