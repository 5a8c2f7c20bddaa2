"""Round robin at two seats: everyone meets everyone once, by FIDE's Berger tables (pairing.py, who
moves first included); a game against a withdrawn player is won by forfeit, and with an odd field
each sits out once.
Its page adds a crosstable, as a club prints an all-play-all: every player against every other,
in standings order, 1 / ½ / 0 for a game, + / − for a win or loss by forfeit, so direct
encounter and Sonneborn-Berger can be checked by hand."""

from collections import defaultdict

from tournaments import pairing, scoring, tiebreaks
from tournaments.formats.reseating import ReseatingFormat
from tournaments.models import Tournament
from tournaments.rounds import point_words

SYMBOLS = {1.0: "1", 0.5: "½", 0.0: "0"}
SCORING = (
    "everyone plays everyone once: 1 for a win, 0.5 for a draw. With an odd number of players each sits out one "
    "round, for no points; a game against a player who withdrew is won by forfeit (1). Ties are split by the "
    "tiebreaks listed beside the standings."
)


def schedule(tournament: Tournament, round_number: int) -> tuple[list[list[int]], list[int]]:
    """A round's pairs and sitter-out, withdrawn players included, by entry order."""
    order = list(tournament.entries.order_by("pk").values_list("pk", flat=True))
    return pairing.round_robin_pairs(order, round_number)


def withdrawn_opponent(tournament: Tournament, round_number: int, entry_id: int) -> int:
    """A 1-point bye is the game against a withdrawn player: who, by the schedule."""
    tables, _ = schedule(tournament, round_number)
    return next(other for table in tables if entry_id in table for other in table if other != entry_id)


class RoundRobin(ReseatingFormat):
    slug = "round-robin"
    name = "Round robin"
    label = "Round robin"
    computes_its_rounds = True
    sitting_out_is_a_game = False  # everyone sits out once: no game and no draw (a crosstable's blank)
    pairings_fixed_in_advance = True

    def withdrawn_opponent(self, round_number: int, entry_id: int) -> int:
        return withdrawn_opponent(self.tournament, round_number, entry_id)

    @classmethod
    def refused_for(cls, engine) -> str:
        if engine.min_players > 2:
            return f"A round robin is played at two seats; {engine.name} needs at least {engine.min_players}."
        return ""

    def errors(self) -> dict[str, str]:
        errors = super().errors()
        if "format" not in errors and self.tournament.table_size != 2:
            errors["format"] = "A round robin is played at two seats."
        return errors

    def summary(self) -> str:
        """Its rounds are known once the entries are (at the start)."""
        tables, rounds = self.tables_and_rounds()
        known = "" if self.tournament.status == Tournament.Status.SCHEDULED else f" ({rounds})"
        return f"Round robin, everyone meets everyone at {tables}{known}"

    def scoring_words(self) -> str:
        return SCORING

    def early_finish(self) -> str:
        return ""  # the last player left wins the rounds left by forfeit

    def rounds_for(self, players: int) -> int:
        return pairing.round_robin_rounds(players)

    def field_too_small(self, field: int, minimum: int) -> bool:
        return False

    def pair(self, round_number: int):
        """Whoever meets a withdrawn player wins by forfeit, as FIDE scores the games a withdrawal
        leaves; in an odd field everyone sits out one round, for nothing."""
        tournament = self.tournament
        tables, sitting_out = schedule(tournament, round_number)
        gone = set(tournament.entries.exclude(withdrawn_after=None).values_list("pk", flat=True))
        walkovers = [e for t in tables if gone & set(t) for e in t if e not in gone]
        byes = [(e, 0.0) for e in sitting_out if e not in gone] + [(e, 1.0) for e in walkovers]
        return [t for t in tables if not gone & set(t)], byes, walkovers

    def bye_words(self, entry_id: int, round_number: int, points: float, names: dict[int, str]) -> str:
        if not points:
            return super().bye_words(entry_id, round_number, points, names)
        gone = names[withdrawn_opponent(self.tournament, round_number, entry_id)]
        return f"{names[entry_id]} – {gone} (withdrawn): won by forfeit, {point_words(points)}"

    def default_tiebreaks(self) -> list[str]:
        return [tiebreaks.DIRECT_ENCOUNTER, tiebreaks.SONNEBORN_BERGER, tiebreaks.WINS]

    def results_parts(self, rows: list[dict], names: dict[int, str]) -> dict:
        return {"crosstable": crosstable(self.tournament, rows)}


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
