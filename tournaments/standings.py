"""Standings: who leads a tournament, computed from its Score rows and its tables' results.

Swiss and round robin: most points first; Dobble series: most points, or most mini-games
won (Tournament.series_ranking); rounds total (Dudab Buba): lowest total first. Ties are
split by the tournament's ordered tiebreaks (tiebreaks.py; DEFAULT_TIEBREAKS when it names
none). An unplayed game (cancelled match, not yet played) never counts as a score. Players
equal on everything share a place.
"""

from collections import Counter, defaultdict

from tournaments import brackets, pairing, scoring, tiebreaks
from tournaments.models import Tournament

RESEATING = (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)
SERIES_POINTS = "points"  # the Dobble point system, as a tiebreak when the series ranks by mini-games won

TIEBREAK_LABELS = tiebreaks.NAMES | {SERIES_POINTS: "Series points"}

DEFAULT_TIEBREAKS = {
    "swiss-2": [tiebreaks.BUCHHOLZ_CUT_1, tiebreaks.BUCHHOLZ, tiebreaks.SONNEBORN_BERGER, tiebreaks.DIRECT_ENCOUNTER],
    "swiss": [tiebreaks.BUCHHOLZ, tiebreaks.PLACEMENTS, tiebreaks.DIRECT_ENCOUNTER],
    Tournament.Format.ROUND_ROBIN: [tiebreaks.DIRECT_ENCOUNTER, tiebreaks.SONNEBORN_BERGER, tiebreaks.WINS],
    Tournament.Format.DOBBLE_SERIES: [tiebreaks.WINS],
    Tournament.Format.ROUNDS_TOTAL: [tiebreaks.WINS],
    Tournament.Format.KNOCKOUT: [tiebreaks.WINS],
}


def tiebreak_names(tournament: Tournament) -> list[str]:
    if tournament.tiebreaks:
        return list(tournament.tiebreaks)
    if tournament.format == Tournament.Format.DOBBLE_SERIES and tournament.series_ranking == "wins":
        return [SERIES_POINTS]
    if tournament.format == Tournament.Format.SWISS:
        return DEFAULT_TIEBREAKS["swiss-2" if tournament.table_size == 2 else "swiss"]
    return DEFAULT_TIEBREAKS[tournament.format]


def standings(tournament: Tournament) -> list[dict]:
    """One row per entry, best first: entry, player, points, tiebreak (the first), tiebreaks
    (all, in order), played, missed (rounds before a late entry), place."""
    entries = list(tournament.entries.select_related("user").order_by("joined_at", "pk"))
    games, points = player_games(tournament)
    if tournament.lowest_wins:
        value, _ = normalised_totals(tournament)
    elif tournament.format == Tournament.Format.KNOCKOUT:
        value = {entry_id: float(stage) for entry_id, stage in brackets.reached(tournament).items()}
    elif tournament.format == Tournament.Format.DOBBLE_SERIES and tournament.series_ranking == "wins":
        value = {e.pk: float(sum(1 for g in games[e.pk] if tiebreaks.won(g))) for e in entries}
    else:
        value = {e.pk: sum(p for p, _ in points[e.pk]) for e in entries}
    value = {e.pk: value.get(e.pk, 0.0) for e in entries}
    names = tiebreak_names(tournament)
    series_points = {e.pk: sum(p for p, _ in points[e.pk]) for e in entries}
    computed = [name for name in names if name != SERIES_POINTS]
    ranked = tiebreaks.rank([e.pk for e in entries], value, computed, games, tournament.lowest_wins)
    if SERIES_POINTS in names:  # rank by mini-games won, then by points
        ranked = sorted(ranked, key=lambda item: (-item[1][0], -series_points[item[0]]))
        ranked = [(player, keys + (series_points[player],)) for player, keys in ranked]
    by_pk = {e.pk: e for e in entries}
    rows = []
    for player, keys in ranked:
        entry = by_pk[player]
        rows.append(
            {
                "entry": entry,
                "player": entry.user.username,
                "bot": entry.user.is_bot,
                "points": keys[0],
                "tiebreaks": list(keys[1:]),
                "tiebreak": keys[1] if len(keys) > 1 else 0.0,
                "played": sum(1 for _, kind in points[player] if kind not in (scoring.BYE, scoring.LATE)),
                "missed": sum(1 for _, kind in points[player] if kind == scoring.LATE),
                "withdrawn": entry.withdrawn_after is not None,
                "keys": keys,
            }
        )
    for index, row in enumerate(rows):
        same = index and row["keys"] == rows[index - 1]["keys"]
        row["place"] = rows[index - 1]["place"] if same else index + 1
    return rows


def player_games(tournament: Tournament) -> tuple[dict, dict]:
    """Each entry's games for the tiebreaks, and its (points, kind) per counted round
    (unplayed rounds left out), from two queries."""
    games: dict = defaultdict(list)
    points: dict = defaultdict(list)
    scores = tournament.scores.exclude(kind=scoring.UNPLAYED).values_list(
        "entry_id", "round", "table_id", "points", "kind"
    )
    by_table = defaultdict(dict)
    for entry_id, round_number, table_id, earned, kind in scores:
        points[entry_id].append((earned, kind))
        if table_id is None:
            games[entry_id].append(tiebreaks.Game(round_number, earned, played=False))
        else:
            by_table[table_id][entry_id] = (earned, kind)
    tables = tournament.tables.filter(pk__in=list(by_table)).values_list("pk", "round", "seating", "match__result")
    for table_id, round_number, seating, result in tables:
        order = pairing.rotate(seating, round_number) if tournament.fixed_tables else seating
        groups = [[order[seat] for seat in group] for group in scoring.full_ranking(result, len(order))]
        place = {}
        for index, group in enumerate(groups):
            ahead = sum(len(g) for g in groups[:index])
            place.update(dict.fromkeys(group, ahead + 1))
        for entry_id, (earned, kind) in by_table[table_id].items():
            played = kind == scoring.PLAYED
            against = {
                other: 1.0 if place[entry_id] < place[other] else 0.5 if place[entry_id] == place[other] else 0.0
                for other in order
                if other != entry_id
            }
            games[entry_id].append(
                tiebreaks.Game(
                    round_number, earned, played, against if played else {}, place[entry_id] if played else 0
                )
            )
    return games, points


def normalised_totals(tournament: Tournament) -> tuple[dict, dict]:
    """Rounds total: each player's average game total, scaled per table size, times the rounds.

    Totals at different table sizes are not alike (a Dudab Buba game has as many rounds as
    players), so when sizes differ each total is multiplied by (average total over all
    tables) / (average total at tables of its size); the factors are returned too, to be
    shown beside the standings. Only games played count: the average is over the player's
    games, so a table behind in rounds neither leads nor trails for it.
    """
    sizes = dict(tournament.tables.values_list("pk", "seating"))
    rows = tournament.scores.exclude(kind=scoring.UNPLAYED).values_list("entry_id", "table_id", "points")
    by_size: dict = defaultdict(list)
    games = []
    for entry_id, table_id, total in rows:
        size = len(sizes.get(table_id, [])) or 1
        by_size[size].append(total)
        games.append((entry_id, size, total))
    everything = [t for totals in by_size.values() for t in totals]
    overall = sum(everything) / len(everything) if everything else 0.0
    factors = {}
    for size, totals in by_size.items():
        mean = sum(totals) / len(totals)
        factors[size] = overall / mean if len(by_size) > 1 and mean else 1.0
    summed, count = Counter(), Counter()
    for entry_id, size, total in games:
        summed[entry_id] += total * factors[size]
        count[entry_id] += 1
    value = {
        entry_id: summed[entry_id]
        if count[entry_id] == tournament.rounds
        else summed[entry_id] / count[entry_id] * tournament.rounds
        for entry_id in count
    }
    return value, factors


def size_factors(tournament: Tournament) -> dict[int, float]:
    """Rounds total with mixed table sizes: the factor each size's totals are scaled by."""
    if not tournament.lowest_wins:
        return {}
    _, factors = normalised_totals(tournament)
    return {size: factor for size, factor in sorted(factors.items()) if factor != 1.0}


SCORING = {
    Tournament.Format.SWISS: "every round seats players with similar scores who have not met yet. A table gives each "
    "player the share of opponents they finished ahead of (1 for a win, 0.5 for a draw at two seats); a bye is worth "
    "1. Ties are split by the tiebreaks listed beside the standings.",
    Tournament.Format.ROUND_ROBIN: "everyone plays everyone once: 1 for a win, 0.5 for a draw, 1 for a bye. Ties are "
    "split by the tiebreaks listed beside the standings.",
    Tournament.Format.DOBBLE_SERIES: "each table plays one mini-game a round, opening with the towering inferno; the "
    "loser of each mini-game chooses the next. Towering inferno: +1 per card won, +5 for the most cards. The well: "
    "+10 first out, -20 last. Poisoned gift: +20 fewest cards, +10 second. Hot potato: -5 per round lost. Gotta "
    "catch them all: +1 per card. Most points wins (or most mini-games won, when the organizer chose the rulebook's "
    "way).",
    Tournament.Format.KNOCKOUT: "two seats: a seeded bracket, byes to the top seeds, each pairing a best-of series "
    "(a drawn game is replayed); the winner goes through. Larger tables: the top players of each table go through "
    "until one table plays the final. Standings: the round reached, then wins.",
    Tournament.Format.ROUNDS_TOTAL: "each table plays one game a round, the first seat moving on each time; every "
    "game's total is added up and the lowest total wins. Games not yet played do not count: a player's total is their "
    "average game times the rounds. Where table sizes differ, totals are scaled so each size averages the same.",
}
