"""Tiebreaks: pure functions over each player's games (docs/tournaments.md, "Tiebreaks").

A tournament lists its tiebreaks in order (Tournament.tiebreaks); players equal on points
are told apart by the first, then the second, and so on. FIDE's rules (C.07, "Unplayed rounds
management in Swiss tournaments", the 2023 rules as amended since):

- an opponent met twice counts twice;
- what an opponent's score counts for others (`adjusted_scores`): their unplayed rounds count
  the points they gave (a bye or a win by forfeit a win, a forfeit a loss), except rounds they
  missed on their own (a round missed by entering late, every round after withdrawing) that only
  rounds missed or forfeited follow, which count as draws;
- a double forfeit (the organizer's 0 for everyone at a table) is a forfeit loss for each, no game;
- a player's own unplayed round counts as a game against a stand-in (FIDE's "dummy") with the
  player's own score, at most half a point a round of the tournament (a bye, a round missed), or
  at most the scheduled opponent's counted score (a forfeit either way); Buchholz adds the
  stand-in's score, Sonneborn-Berger the points of the round times it;
- cut-1 drops the lowest contribution, but a player with a round missed on their own or
  forfeited drops the lowest of those rounds first; median then also drops the highest;
- a round robin (pairings fixed in advance) counts a forfeit as a game like any other, against
  the opponent's real score, and adjusts nothing;
- direct encounter and wins count played games only; direct encounter applies only when every
  two of the tied players have met; otherwise (and for a player tied with nobody) it is None,
  shown as "—", and splits nothing.

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
    SONNEBORN_BERGER: (
        "each opponent's points, counted in full for a win and half for a draw (a round without a game: against a "
        "stand-in, as FIDE counts it)"
    ),
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
    "an opponent met twice counts twice; an opponent's byes and forfeits count as they were scored, but the rounds "
    "they missed on their own at the end (after withdrawing) count as draws; a round you did not play yourself (a bye, "
    "a forfeit either way, a round missed) counts as an opponent with your own points, at most half a point a round "
    "(for a forfeit, at most the points your opponent counts); cut 1 drops a round you missed or forfeited before your "
    "weakest opponent (FIDE's tiebreak rules; the players this changes are listed with their figures)"
)
DRAW = 0.5
# How a round was not played (Game.kind; FIDE C.07's categories of unplayed rounds).
BYE = "bye"  # a pairing bye or a full-point bye
FORFEIT_WIN = "forfeit win"  # the opponent(s) did not come or forfeited
FORFEIT_LOSS = "forfeit loss"
DOUBLE_FORFEIT = "double forfeit"  # lost by both by forfeit (the organizer's 0 for everyone): a forfeit loss each
FORFEITS = {FORFEIT_WIN, FORFEIT_LOSS, DOUBLE_FORFEIT}  # counted against the scheduled opponent's score at most
MISSED = "missed"  # a round missed on one's own: entered late, or any round after withdrawing
VOLUNTARY = {FORFEIT_LOSS, DOUBLE_FORFEIT, MISSED}  # FIDE's voluntary unplayed rounds


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
    kind: str = ""  # an unplayed round's kind (BYE, FORFEIT_WIN, FORFEIT_LOSS...); see `unplayed_kind`
    scheduled: tuple = ()  # an unplayed round's scheduled opponents (a forfeit's)


def unplayed_kind(game: Game) -> str:
    """The kind of an unplayed round: as recorded, else a walkover a forfeit win, a round at a
    table a forfeit loss, a round away from the tables a bye when it scored, else a round missed."""
    if game.kind:
        return game.kind
    if game.forfeit_win:
        return FORFEIT_WIN
    if game.scheduled:
        return FORFEIT_LOSS
    return BYE if game.points > 0 else MISSED


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


def adjusted_scores(games: dict, score: dict, fixed: bool = False) -> dict:
    """What each player's score counts in the opponents' tiebreaks (FIDE C.07 16.3): the rounds
    a player missed on their own that only rounds missed or forfeited follow count as draws
    instead of what they scored; everything else as scored. A round robin (`fixed`): as scored."""
    if fixed:
        return dict(score)
    return {
        player: value + sum(DRAW - g.points for g in trailing_missed(games.get(player, [])))
        for player, value in score.items()
    }


def trailing_missed(own: list[Game]) -> list[Game]:
    """The rounds missed on one's own followed only by such rounds or forfeits (or by none)."""
    ordered = sorted(own, key=lambda g: g.round)
    return [
        g
        for i, g in enumerate(ordered)
        if not g.played
        and unplayed_kind(g) == MISSED
        and all(not later.played and unplayed_kind(later) in VOLUNTARY for later in ordered[i + 1 :])
    ]


def stand_in(player, game: Game, score: dict, adjusted: dict, rounds: int) -> float:
    """The score of the stand-in an unplayed round counts against (C.07 16.4): the player's own,
    at most the scheduled opponent's counted score for a forfeit, else half a point a round."""
    own = score.get(player, 0.0)
    if unplayed_kind(game) in FORFEITS and game.scheduled:
        return min(own, max(adjusted.get(opponent, 0.0) for opponent in game.scheduled))
    return min(own, DRAW * rounds) if rounds else own


def contributions(player, games: dict, score: dict, adjusted: dict, rounds: int = 0) -> list[tuple[float, bool]]:
    """What each round adds to the player's Buchholz (one entry per opponent and round), each
    with whether it is a round missed or forfeited (cut first)."""
    parts = []
    for game in games.get(player, []):
        if game.played:
            parts.extend((adjusted.get(opponent, 0.0), False) for opponent in game.against)
        else:
            voluntary = unplayed_kind(game) in VOLUNTARY
            parts.append((stand_in(player, game, score, adjusted, rounds), voluntary))
    return parts


def cut_lowest(parts: list[tuple[float, bool]]) -> list[tuple[float, bool]]:
    """Cut-1 (C.07 16.5): the lowest round missed or forfeited if there is one, else the lowest."""
    voluntary = [part for part in parts if part[1]]
    dropped = min(voluntary or parts, default=None)
    if dropped is None:
        return parts
    rest = list(parts)
    rest.remove(dropped)
    return rest


def compute(name: str, games: dict, score: dict, rounds: int = 0, fixed: bool = False) -> dict:
    """The value of one tiebreak (other than direct encounter) for every player in `score`.
    `rounds`: the tournament's rounds (the stand-ins' half-point-a-round bound); `fixed`: a
    round robin, where a forfeit is a game against the opponent's real score."""
    adjusted = adjusted_scores(games, score, fixed)
    values = {}
    for player in score:
        own = games.get(player, [])
        if name in (BUCHHOLZ, BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ):
            parts = contributions(player, games, score, adjusted, rounds)
            if name in (BUCHHOLZ_CUT_1, MEDIAN_BUCHHOLZ):
                parts = cut_lowest(parts)
            if name == MEDIAN_BUCHHOLZ and parts:
                parts.remove(max(parts))
            values[player] = sum(value for value, _ in parts)
        elif name == SONNEBORN_BERGER:
            values[player] = sum(sonneborn_berger_parts(player, own, score, adjusted, rounds, fixed))
        elif name == WINS:
            values[player] = sum(1 for g in own if won(g))
        elif name == PLACEMENTS:
            values[player] = sum(g.place for g in own)
        else:
            raise ValueError(f"There is no tiebreak called {name!r}.")
    return values


def sonneborn_berger_parts(player, own: list[Game], score: dict, adjusted: dict, rounds: int, fixed: bool) -> list:
    """Each game's result times the opponent's counted score; an unplayed round, its points times
    the stand-in's score (a round robin: a forfeit's result times the scheduled opponent's score)."""
    parts = []
    for g in own:
        if g.played:
            parts.extend(result * adjusted.get(opponent, 0.0) for opponent, result in g.against.items())
        elif fixed:
            parts.extend(g.points * adjusted.get(opponent, 0.0) for opponent in g.scheduled)
        else:
            parts.append(g.points * stand_in(player, g, score, adjusted, rounds))
    return parts


def unplayed_words(player, games: dict, score: dict, rounds: int, fixed: bool = False) -> str:
    """How a player's unplayed rounds count, in words, with the figures the page does not show
    elsewhere: what their score counts for opponents, and each stand-in's score. Empty if none."""
    own = sorted(games.get(player, []), key=lambda g: g.round)
    unplayed = [g for g in own if not g.played]
    if fixed or not unplayed:
        return ""
    adjusted = adjusted_scores(games, score)
    own_points = figure(score.get(player, 0.0))
    words = []
    trailing = trailing_missed(own)
    if trailing:
        words.append(
            f"counts {figure(adjusted[player])} in opponents' tiebreaks: {rounds_words(trailing)}, missed at the end, "
            f"count as draws, not as the {figure(sum(g.points for g in trailing))} scored"
        )
    for g in unplayed:
        value = stand_in(player, g, score, adjusted, rounds)
        if value == score.get(player, 0.0):
            why = "their own points"
        elif unplayed_kind(g) in FORFEITS and g.scheduled:
            why = f"the scheduled opponent's counted score, below their own {own_points}"
        else:
            why = f"half a point for each of the {rounds} rounds, below their own {own_points}"
        words.append(f"round {g.round} ({unplayed_kind(g)}) counts against a stand-in with {figure(value)} ({why})")
    return "; ".join(words)


def rounds_words(games: list[Game]) -> str:
    numbers = [str(g.round) for g in games]
    if len(numbers) == 1:
        return f"round {numbers[0]}"
    return f"rounds {', '.join(numbers[:-1])} and {numbers[-1]}"


def figure(value: float) -> str:
    """Points and scores as people write them: 1, 2.5, 0.667."""
    return f"{round(value, 3):g}"


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


def rank(
    players: list,
    score: dict,
    names: list[str],
    games: dict,
    lowest_wins: bool = False,
    rounds: int = 0,
    fixed: bool = False,
) -> list[tuple]:
    """Players best first, each with its tuple of (points, tiebreak values in order)."""
    values = {name: compute(name, games, score, rounds, fixed) for name in names if name != DIRECT_ENCOUNTER}
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
