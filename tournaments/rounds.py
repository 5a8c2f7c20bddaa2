"""Every round in words, for the tournament page, the printable round sheet and the pairings
export: each table's players in seat order, its result once scored ("ann won", "1st ann, 2nd
bob and cat", "bob forfeited", points), "playing" while it runs, and the round's byes.

A knockout at two seats names each game by its pairing ("pairing 2, game 1"), not by the
table number it is stored under (brackets.py); its byes are one-player tables ("bye: ann goes
through"), where other formats' byes are scores without a table ("bye: ann, 1 point").
"""

from dataclasses import dataclass, field

from tournaments import brackets, scoring
from tournaments.models import ScoreCorrection, Table, Tournament
from tournaments.running import seat_order_of

BELOW_THE_TABLES = 10**6  # a bye's place in its round's list: after every table


@dataclass
class Line:
    """One table, bye or missed round of a round."""

    round: int
    where: str  # "Table 3", "Pairing 2, game 1"; "" for a bye
    players: list[str]  # seat order: the first moves first
    points: list  # per seat, None while unscored
    result: str  # in words
    table: Table | None = None
    number: int = 0  # the stored table number, to sort by
    states: list[str] = field(default_factory=list)  # per seat: the Score's kind (played, forfeited, bye...)


def figure(points: float) -> str:
    """Points as people write them: 1, 0.5, 0.667."""
    return f"{round(points, 3):g}"


def ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def where(tournament: Tournament, table: Table) -> str:
    if tournament.format == Tournament.Format.KNOCKOUT and tournament.table_size == 2:
        per_slot = brackets.games_per_slot(tournament)
        pairing, game = divmod(table.number - 1, per_slot)
        return f"Pairing {pairing + 1}" if len(table.seating) == 1 else f"Pairing {pairing + 1}, game {game + 1}"
    return f"Table {table.number}"


def outcome(tournament: Tournament, table: Table, order: list[int], names: dict, got: dict, corrected=False) -> str:
    """A table's result in words: winner or places, forfeits, and the points where they count per
    table (saying so where the organizer corrected them: the game's result no longer gives them)."""
    if len(order) == 1:
        return f"bye: {names[order[0]]} goes through"
    if not table.scored:
        if table.match is None:
            return f"waiting for {table.chooser.user.username} to choose the mini-game" if table.chooser else "waiting"
        return "playing"
    result = table.match.result if table.match and table.match.status == "finished" else None
    if result is None:
        return "not played (the game was cancelled)"
    ranking = [[order[seat] for seat in group] for group in scoring.full_ranking(result, len(order))]
    if len(order) == 2:
        words = [f"{names[ranking[0][0]]} won" if len(ranking[0]) == 1 else "draw"]
    else:
        places, ahead = [], 0
        for group in ranking:
            places.append(f"{ordinal(ahead + 1)} {' and '.join(names[e] for e in group)}")
            ahead += len(group)
        words = [", ".join(places)]
    words += [f"{names[order[seat]]} forfeited" for seat in result.get("forfeited", [])]
    if got and tournament.format != Tournament.Format.KNOCKOUT:  # a knockout's points sum a whole series
        points = ", ".join(f"{names[e]} {figure(got[e][0])}" for e in order if e in got)
        label = "total" if tournament.lowest_wins else "points"
        words.append(f"{label}{' (corrected by the organizer)' if corrected else ''}: {points}")
    return " · ".join(words)


def point_words(points: float) -> str:
    return f"{figure(points)} point{'' if points == 1 else 's'}"


def lines(tournament: Tournament, round_number: int | None = None) -> dict[int, list[Line]]:
    """Each round's tables and byes in words, by round (one round when round_number is given)."""
    names = dict(tournament.entries.values_list("pk", "user__username"))
    scores = tournament.scores.all() if round_number is None else tournament.scores.filter(round=round_number)
    tables = tournament.tables.select_related("match", "chooser__user")
    if round_number is not None:
        tables = tables.filter(round=round_number)
    corrected = set(ScoreCorrection.objects.filter(table__tournament=tournament).values_list("table_id", flat=True))
    by_table: dict = {}
    rounds: dict[int, list[Line]] = {}
    for table_id, entry_id, number, points, kind in scores.values_list(
        "table_id", "entry_id", "round", "points", "kind"
    ):
        if table_id is not None:
            by_table.setdefault(table_id, {})[entry_id] = (points, kind)
        elif kind == scoring.LATE or kind == scoring.BYE and tournament.format != Tournament.Format.KNOCKOUT:
            label = "bye" if kind == scoring.BYE else "entered late, missed this round"
            rounds.setdefault(number, []).append(
                Line(number, "", [names[entry_id]], [points], f"{label}: {names[entry_id]}, {point_words(points)}",
                     number=BELOW_THE_TABLES, states=[kind])
            )  # fmt: skip
    for table in tables.order_by("round", "number"):
        order = seat_order_of(tournament, table)
        got = by_table.get(table.pk, {})
        rounds.setdefault(table.round, []).append(
            Line(
                table.round,
                where(tournament, table),
                [names[e] for e in order],
                [got[e][0] if e in got else None for e in order],
                outcome(tournament, table, order, names, got, table.pk in corrected),
                table,
                table.number,
                [got[e][1] if e in got else "" for e in order],
            )
        )
    return {number: sorted(found, key=lambda line: line.number) for number, found in sorted(rounds.items())}
