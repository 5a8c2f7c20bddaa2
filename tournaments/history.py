"""A player's tournaments for their profile: where they finished, or where the event stands."""

from tournaments.models import Entry, Tournament
from tournaments.standings import standings

# How many of a player's tournaments the profile lists, the latest first (each ranks its field).
SHOWN = 10
RANKED = (Tournament.Status.RUNNING, Tournament.Status.PAUSED, Tournament.Status.FINISHED)


def player_tournaments(user) -> list[dict]:
    """The player's latest tournaments: each with their place among how many and their points
    (a knockout: the round reached) once it has started; "withdrawn" where they left it."""
    entries = Entry.objects.filter(user=user).select_related("tournament").order_by("-tournament__starts_at")
    found = []
    for entry in entries[:SHOWN]:
        tournament = entry.tournament
        row = {"tournament": tournament, "withdrawn": entry.withdrawn_after is not None, "standing": None}
        if tournament.status in RANKED:
            table = standings(tournament)
            row["standing"] = next((r for r in table if r["entry"].pk == entry.pk), None)
            row["field"] = len(table)
            if row["standing"]:  # "=5th": a place shared with others, as clubs write it
                row["shared"] = sum(1 for r in table if r["place"] == row["standing"]["place"]) > 1
        found.append(row)
    return found
