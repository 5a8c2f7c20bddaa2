"""The formats the site runs, by the slug stored in Tournament.format.

Kept apart from the formats themselves, which import the models: the model field reads its
choices here (a callable, so a new format needs no migration) and `Tournament.rules` finds a
tournament's format here. tournaments/apps.py registers every format at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the formats import the models, which import this module
    from tournaments.formats.base import TournamentFormat

FORMATS: dict[str, type[TournamentFormat]] = {}


def register(*formats: type[TournamentFormat]) -> None:
    """Make formats available, in the order the organizer's form offers them."""
    for found in formats:
        if FORMATS.get(found.slug, found) is not found:
            raise ValueError(f"Two formats are called {found.slug!r}.")
        FORMATS[found.slug] = found


def get(slug: str) -> type[TournamentFormat]:
    try:
        return FORMATS[slug]
    except KeyError:
        raise LookupError(f"No tournament format {slug!r}; the formats are {', '.join(FORMATS)}.") from None


def choices() -> list[tuple[str, str]]:
    """The model field's choices (the admin's select): slug and the organizer's words."""
    return [(found.slug, found.label) for found in FORMATS.values()]
