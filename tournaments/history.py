"""A player's tournaments for their profile: where they finished, or where the event stands."""

from django.db.models import Case, IntegerField, Value, When
from django.db.models.functions import Coalesce

from tournaments.models import Entry, Tournament
from tournaments.standings import standings

# How many of a player's tournaments the profile lists at first (each ranks its field); a link shows them all.
SHOWN = 10
RANKED = (Tournament.Status.RUNNING, Tournament.Status.PAUSED, Tournament.Status.FINISHED)


def player_tournaments(user, everything: bool = False) -> tuple[list[dict], int]:
    """The player's tournaments, those under way first, then the latest to start, then the ones
    to come; each with their place among how many and their points (a knockout: the round
    reached) once it has started, "withdrawn" where they left it. Also how many there are."""
    entries = (
        Entry.objects.filter(user=user)
        .select_related("tournament")
        .annotate(
            under_way=Case(
                When(tournament__status__in=(Tournament.Status.RUNNING, Tournament.Status.PAUSED), then=Value(0)),
                When(tournament__status=Tournament.Status.SCHEDULED, then=Value(2)),
                default=Value(1),
                output_field=IntegerField(),
            ),
            began=Coalesce("tournament__started_at", "tournament__starts_at"),
        )
        .order_by("under_way", "-began")
    )
    found = []
    for entry in entries if everything else entries[:SHOWN]:
        tournament = entry.tournament
        row = {"tournament": tournament, "withdrawn": entry.withdrawn_after is not None, "standing": None}
        if tournament.status in RANKED:
            table = standings(tournament)
            row["standing"] = next((r for r in table if r["entry"].pk == entry.pk), None)
            row["field"] = len(table)
            if row["standing"]:  # "=5th": a place shared with others, as clubs write it
                row["shared"] = sum(1 for r in table if r["place"] == row["standing"]["place"]) > 1
        found.append(row)
    return found, entries.count()
