"""Tiebreaks: pure functions over each player's games (docs/tournaments.md, "Tiebreaks").

A tournament lists its tiebreaks in order (Tournament.tiebreaks); players equal on points
are told apart by the first, then the second, and so on. FIDE conventions (C.07):

- an opponent met twice counts twice;
- an opponent's score counts their unplayed rounds (byes, forfeits either way, cancelled
  games) as draws, so an opponent's bye neither raises nor lowers it;
- a player's own unplayed round counts as a virtual opponent with the player's own score,
  so taking a bye or being forfeited against does not lower the player's Buchholz;
- cut-1 drops the lowest contribution, median drops the lowest and the highest;
- Sonneborn-Berger and direct encounter count played games only;
- direct encounter applies only when every two of the tied players have met; otherwise
  (and for a player tied with nobody) it is None, shown as "—", and splits nothing.

At tables of more than two, a game against each opponent is decided by places: ahead 1,
tied ½, behind 0; "wins" counts games finished alone in first place and "placements" sums the
places (lower is better).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

BUCHHOLZ = "buchholz"
BUCHHOLZ_CUT_1 = "buchholz-cut-1"
MEDIAN_BUCHHOLZ = "median-buchholz"
SONNEBORN_BERGER = "sonneborn-berger"
DIRECT_ENCOUNTER = "direct-encounter"
WINS = "wins"
PLACEMENTS = "placements"

NAMES = {
    BUCHHOLZ: "Buchholz",
    BUCHHOLZ_CUT_1: "Buchholz cut 1",
    MEDIAN_BUCHHOLZ: "Median Buchholz",
    SONNEBORN_BERGER: "Sonneborn-Berger",
    DIRECT_ENCOUNTER: "Direct encounter",
    WINS: "Wins",
    PLACEMENTS: "Sum of places",
}
EXPLANATIONS = {
    BUCHHOLZ: "the sum of your opponents' points",
    BUCHHOLZ_CUT_1: "Buchholz without your weakest opponent",
    MEDIAN_BUCHHOLZ: "Buchholz without your weakest and your strongest opponent",
    SONNEBORN_BERGER: "each opponent's points, counted in full for a win and half for a draw (games played only)",
    DIRECT_ENCOUNTER: "your points against the others tied with you, when all of them met (else —)",
    WINS: "games played and finished alone in first place (a win by forfeit or a bye is not one)",
    PLACEMENTS: (
        "your places at the tables added up (lower is better); a round without a game counts the place its "
        "forfeits gave (a walkover first, a forfeit last), a bye the middle place of a table"
    ),
}
LOWER_IS_BETTER = {PLACEMENTS}
BUCHHOLZ_FAMILY = {BUCHHOLZ, BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ}
BUCHHOLZ_COUNTING = (
    "an opponent met twice counts twice; an opponent's byes and forfeits count for them as draws, so they neither "
    "raise nor lower yours; a round you did not play yourself (a bye, a forfeit either way, a game not played) counts "
    "as an opponent with your own points"
)


@dataclass
class Game:
    """One player's round: points earned, whether it was played, and the table's other players
    with this player's result against each (1 ahead, 0.5 tied, 0 behind)."""

    round: int
    points: float
    played: bool
    against: dict = field(default_factory=dict)  # opponent -> 1 / 0.5 / 0
    # 1-based place at the table; for a round without a game, the place it counts in the sum of
    # places: what the forfeits gave (a walkover 1st, a forfeit last), the middle place for a bye
    place: float = 0
    forfeit_win: bool = False  # not played because nobody else at the table came


def game_at(round_number: int, points: float, ranking: list[list], player) -> Game:
    """A played game from its table's ranking (groups of players, best first): the player's
    place and its result against each other player (ahead 1, tied 0.5, behind 0)."""
    place, ahead = {}, 0
    for group in ranking:
        place.update(dict.fromkeys(group, ahead + 1))
        ahead += len(group)
    against = {
        other: 1.0 if place[player] < place[other] else 0.5 if place[player] == place[other] else 0.0
        for other in place
        if other != player
    }
    return Game(round_number, points, True, against, place[player])


def adjusted_scores(games: dict, score: dict) -> dict:
    """Each player's score with unplayed rounds counted as draws (what opponents contribute)."""
    return {
        player: sum(g.points if g.played else 0.5 for g in games[player]) if games.get(player) else value
        for player, value in score.items()
    }


def contributions(player, games: dict, score: dict, adjusted: dict) -> list[float]:
    """What each round adds to the player's Buchholz (one entry per opponent and round)."""
    parts = []
    for game in games.get(player, []):
        if game.played:
            parts.extend(adjusted.get(opponent, 0.0) for opponent in game.against)
        else:
            parts.append(score.get(player, 0.0))  # the virtual opponent
    return parts


def compute(name: str, games: dict, score: dict) -> dict:
    """The value of one tiebreak (other than direct encounter) for every player in `score`."""
    adjusted = adjusted_scores(games, score)
    values = {}
    for player in score:
        own = games.get(player, [])
        if name in (BUCHHOLZ, BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ):
            parts = sorted(contributions(player, games, score, adjusted))
            if name == BUCHHOLZ_CUT_1:
                parts = parts[1:]
            elif name == MEDIAN_BUCHHOLZ:
                parts = parts[1:-1]
            values[player] = sum(parts)
        elif name == SONNEBORN_BERGER:
            values[player] = sum(
                result * adjusted.get(opponent, 0.0) for g in own if g.played for opponent, result in g.against.items()
            )
        elif name == WINS:
            values[player] = sum(1 for g in own if won(g))
        elif name == PLACEMENTS:
            values[player] = sum(g.place for g in own)
        else:
            raise ValueError(f"There is no tiebreak called {name!r}.")
    return values


def won(game: Game) -> bool:
    """A game won over the board: ahead of everyone else at the table (a shared first is no win)."""
    return game.played and bool(game.against) and all(result == 1 for result in game.against.values())


def direct_encounter(group: list, games: dict) -> dict:
    """Within a group of tied players: the points each scored against the others of the group;
    None for everyone when the group is one player or two of its players never met."""
    members = set(group)
    met = {(player, opponent) for player in group for g in games.get(player, []) if g.played for opponent in g.against}
    if len(group) < 2 or any((a, b) not in met for a in group for b in group if a != b):
        return dict.fromkeys(group, None)
    return {
        player: sum(
            result
            for g in games.get(player, [])
            if g.played
            for opponent, result in g.against.items()
            if opponent in members
        )
        for player in group
    }


def rank(players: list, score: dict, names: list[str], games: dict, lowest_wins: bool = False) -> list[tuple]:
    """Players best first, each with its tuple of (points, tiebreak values in order)."""
    values = {name: compute(name, games, score) for name in names if name != DIRECT_ENCOUNTER}
    keys = {player: [score[player]] for player in players}
    for name in names:
        if name == DIRECT_ENCOUNTER:
            groups = defaultdict(list)
            for player in players:
                groups[tuple(keys[player])].append(player)
            for group in groups.values():
                found = direct_encounter(group, games)
                for player in group:
                    keys[player].append(found[player])
        else:
            for player in players:
                keys[player].append(values[name][player])
    signs = [1 if lowest_wins else -1] + [1 if name in LOWER_IS_BETTER else -1 for name in names]

    def order(player):
        return tuple(sign * value for sign, value in zip(signs, comparable(keys[player]), strict=True))

    return [(player, tuple(keys[player])) for player in sorted(players, key=order)]


def comparable(keys) -> tuple:
    """Keys to compare and sort by: a tiebreak that does not apply (None) splits nothing."""
    return tuple(0.0 if value is None else value for value in keys)
