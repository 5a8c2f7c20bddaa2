"""Standings: who leads a tournament, computed from its Score rows.

Swiss and round robin: most points first, ties split by the opponents' points
(Buchholz); Dobble series: most points first; rounds total (Dudab Buba): lowest
total first, with the totals made by Dudab Buba's own pure `totals`. Players with
equal numbers share a place.
"""

from collections import defaultdict

from games.dudab.scoring import totals
from tournaments.models import Tournament


def standings(tournament: Tournament) -> list[dict]:
    """One row per entry, best first: entry, player, points, tiebreak, played, place."""
    entries = list(tournament.entries.select_related("user").order_by("joined_at", "pk"))
    by_entry = defaultdict(dict)
    for entry_id, round_number, earned in tournament.scores.values_list("entry_id", "round", "points"):
        by_entry[entry_id][round_number] = earned
    if tournament.lowest_wins:
        rounds = sorted({r for scores in by_entry.values() for r in scores})
        round_scores = [[by_entry[entry.pk].get(r, 0) for entry in entries] for r in rounds]
        summed = totals(round_scores, len(entries))["totals"] if entries else []
        value = {entry.pk: summed[index] for index, entry in enumerate(entries)}
    else:
        value = {entry.pk: sum(by_entry[entry.pk].values()) for entry in entries}
    tiebreak = buchholz(tournament, value) if tournament.format in RESEATING else {}
    rows = [
        {
            "entry": entry,
            "player": entry.user.username,
            "bot": entry.user.is_bot,
            "points": value[entry.pk],
            "tiebreak": tiebreak.get(entry.pk, 0.0),
            "played": len(by_entry[entry.pk]),
        }
        for entry in entries
    ]
    sign = 1 if tournament.lowest_wins else -1
    rows.sort(key=lambda row: (sign * row["points"], -row["tiebreak"]))
    for index, row in enumerate(rows):
        same = index and (row["points"], row["tiebreak"]) == (rows[index - 1]["points"], rows[index - 1]["tiebreak"])
        row["place"] = rows[index - 1]["place"] if same else index + 1
    return rows


RESEATING = (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)

SCORING = {
    Tournament.Format.SWISS: "every round seats players with similar scores who have not met yet. A table gives each "
    "player the share of opponents they finished ahead of (1 for a win, 0.5 for a draw at two seats); a bye is worth "
    "1. Ties are split by the points of everyone a player has met.",
    Tournament.Format.ROUND_ROBIN: "everyone plays everyone once: 1 for a win, 0.5 for a draw, 1 for a bye. Ties are "
    "split by the points of everyone a player has met.",
    Tournament.Format.DOBBLE_SERIES: "each table plays one mini-game a round, opening with the towering inferno; the "
    "loser of each mini-game chooses the next. Towering inferno: +1 per card won, +5 for the most cards. The well: "
    "+10 first out, -20 last. Poisoned gift: +20 fewest cards, +10 second. Hot potato: -5 per round lost. Gotta "
    "catch them all: +1 per card. Most points wins.",
    Tournament.Format.ROUNDS_TOTAL: "each table plays one game a round, the first seat moving on each time; every "
    "game's total is added up and the lowest total wins.",
}


def played_pairs(tournament: Tournament) -> set[frozenset]:
    """Every pair of entries that has shared a table."""
    pairs = set()
    for seating in tournament.tables.values_list("seating", flat=True):
        pairs.update(frozenset((a, b)) for a in seating for b in seating if a != b)
    return pairs


def buchholz(tournament: Tournament, value: dict[int, float]) -> dict[int, float]:
    """The sum of the points of everyone each entry has sat with."""
    met = defaultdict(set)
    for pair in played_pairs(tournament):
        a, b = tuple(pair)
        met[a].add(b)
        met[b].add(a)
    return {entry_id: sum(value.get(other, 0.0) for other in others) for entry_id, others in met.items()}
