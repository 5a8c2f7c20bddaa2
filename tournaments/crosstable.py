"""A round robin's crosstable, as a club prints an all-play-all: every player against every other,
in standings order, 1 / ½ / 0 for a game, + / − for a win or loss by forfeit, so direct
encounter and Sonneborn-Berger can be checked by hand."""

from collections import defaultdict

from tournaments import scoring
from tournaments.models import Tournament
from tournaments.running import withdrawn_opponent

SYMBOLS = {1.0: "1", 0.5: "½", 0.0: "0"}


def crosstable(tournament: Tournament, rows: list[dict]) -> list[dict]:
    """`rows` are the standings; each gets its number and one cell per player in the same order
    (the results against them, in round order; "×" against themselves)."""
    results = results_between(tournament)
    order = [row["entry"].pk for row in rows]
    return [
        {
            "number": number,
            "row": row,
            "cells": [
                "×" if other == row["entry"].pk else " ".join(results.get((row["entry"].pk, other), []))
                for other in order
            ],
        }
        for number, row in enumerate(rows, start=1)
    ]


def results_between(tournament: Tournament) -> dict[tuple[int, int], list[str]]:
    """(player, opponent) -> the player's results against them, round by round."""
    by_table: dict = defaultdict(dict)
    for table_id, entry_id, number, points, kind in tournament.scores.exclude(table=None).values_list(
        "table_id", "entry_id", "round", "points", "kind"
    ):
        by_table[table_id][entry_id] = (number, points, kind)
    found: dict = defaultdict(list)
    for scores in by_table.values():
        for player, (number, points, kind) in scores.items():
            for opponent, (_, _, theirs) in scores.items():
                if opponent != player and kind != scoring.UNPLAYED:
                    found[(player, opponent)].append((number, symbol(points, kind, theirs)))
    walkovers = tournament.scores.filter(table=None, kind=scoring.BYE, points__gt=0).values_list("entry_id", "round")
    for player, number in walkovers:  # the game a withdrawn player left: won by forfeit
        gone = withdrawn_opponent(tournament, number, player)
        found[(player, gone)].append((number, "+"))
        found[(gone, player)].append((number, "−"))
    return {pair: [text for _, text in sorted(results)] for pair, results in found.items()}


def symbol(points: float, kind: str, theirs: str) -> str:
    if kind == scoring.FORFEITED:
        return "−"
    if theirs == scoring.FORFEITED or kind == scoring.WALKOVER:
        return "+"
    return SYMBOLS.get(points, f"{points:g}")
