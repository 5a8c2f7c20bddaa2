"""An arena's rules, pure (no Django): who sits down with whom, and what each game is worth.

An arena (Lichess's most played tournament) runs for a fixed time; players join whenever they
like and are seated again as soon as their game ends. docs/tournaments.md, "Arena", has the
rules in words; tournaments/arena_running.py reads the database and calls these.

Seating (`seat`), each wave, among the players free at that moment:
- two seats: pairs of people as near in score as possible, never the opponent of a player's
  last game while someone else could come free (anyone is still at a table) unless both have
  waited REMATCH_AFTER_SECONDS; among pairings as near, the longest waiting sit first. A
  person left over gets a house bot, the nearest in score.
- three seats or more: tables of the next free people, longest waiting first (several tables
  at once are dealt by score), filled with house bots to the table size. A table short of its
  size sits down once someone at it has waited FILL_AFTER_SECONDS, or at once when nobody is
  playing (nobody else can come free), never below the game's smallest table.
House bots only fill: they never sit at a table without a person.

Points (`score_table`): a win (first alone) 2, a draw (first shared, or at three seats or more
ahead of at least half the others) 1, otherwise 0; two wins in a row put a player on a streak,
and while on it every game counts double, until a game is not won. A berserk player (half their
clock given up) earns 1 more for a win. A seat whose player never came earns nothing and ends
its streak; the others are ranked among the players who came, and where fewer than two came
there was no game: nothing counts, and streaks stand. A seat whose player came but made no
move of their own (the clock made every one) lost: nothing, no berserk point, streak ended,
and the others are ranked ahead of it (a player who does not move loses, as on Lichess).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

import networkx as nx

WIN, DRAW = 2, 1
STREAK_START = 2  # wins in a row after which games count double
BERSERK_BONUS = 1
REMATCH_AFTER_SECONDS = 20
FILL_AFTER_SECONDS = 15
EXACT_POOL = 60  # larger pools of waiting people pair greedily in score order (networkx is cubic)

# How a game went for a seat, in the words the leaderboard uses.
WON, DREW, LOST, NO_GAME, ABSENT = "won", "drew", "lost", "no game", "absent"
NO_MOVE = "made no move of their own, so lost"


@dataclass(frozen=True)
class Waiting:
    """A player free for a table: their arena score, since when they wait (seconds, any origin),
    the players of their last game, and whether they are a house bot (which only fills)."""

    entry: int
    score: int
    since: float
    last_table: frozenset[int] = frozenset()
    house_bot: bool = False


def seat(
    waiting: list[Waiting],
    *,
    table_size: int,
    smallest: int,
    now: float,
    anyone_playing: bool,
) -> list[list[int]]:
    """This wave's tables (entry ids in seat order); whoever is not at one waits for the next."""
    if table_size == 2:
        return seat_pairs(waiting, now=now, anyone_playing=anyone_playing)
    return tables_for_waiting(waiting, table_size=table_size, smallest=smallest, now=now, anyone_playing=anyone_playing)


def may_meet(one: Waiting, other: Waiting, now: float, anyone_playing: bool) -> bool:
    """No immediate rematch while someone else may come free, unless both have waited long enough."""
    if other.entry not in one.last_table and one.entry not in other.last_table:
        return True
    waited = min(now - one.since, now - other.since)
    return not anyone_playing or waited >= REMATCH_AFTER_SECONDS


def by_waiting(players: list[Waiting]) -> list[Waiting]:
    """Longest waiting first; equal waits by entry, so the same field always sits the same way."""
    return sorted(players, key=lambda player: (player.since, player.entry))


def seat_pairs(waiting: list[Waiting], *, now: float, anyone_playing: bool) -> list[list[int]]:
    people = [player for player in waiting if not player.house_bot]
    bots = [player for player in waiting if player.house_bot]
    pairs = pair_people(people, now, anyone_playing)
    paired = {entry for pair in pairs for entry in pair}
    for person in by_waiting([p for p in people if p.entry not in paired]):
        fits = [bot for bot in bots if may_meet(person, bot, now, anyone_playing)]
        if not fits:
            continue
        bot = min(fits, key=lambda b: (abs(b.score - person.score), b.since, b.entry))
        bots.remove(bot)
        pairs.append([person.entry, bot.entry])
    return pairs


def pair_people(people: list[Waiting], now: float, anyone_playing: bool) -> list[list[int]]:
    """As many pairs as the rematch rule allows; among those, the smallest sum of score
    differences; among those, the longest waiting seated (one maximum-weight matching)."""
    if len(people) > EXACT_POOL:
        return pair_greedily(people, now, anyone_playing)
    order = by_waiting(people)
    # Waiting rank: the longest waiting weighs most. A point of score difference outweighs every
    # waiting rank of the matching together, so closeness comes first and waiting breaks ties.
    rank = {player.entry: len(order) - index for index, player in enumerate(order)}
    unit = len(order) * (len(order) + 1) + 1
    widest = max((p.score for p in people), default=0) - min((p.score for p in people), default=0)
    graph = nx.Graph()
    for one, other in combinations(order, 2):
        if may_meet(one, other, now, anyone_playing):
            closeness = (widest - abs(one.score - other.score)) * unit
            graph.add_edge(one.entry, other.entry, weight=closeness + rank[one.entry] + rank[other.entry] + 1)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs = [sorted(pair, key=lambda entry: -rank[entry]) for pair in matching]
    return sorted(pairs, key=lambda pair: -rank[pair[0]])


def pair_greedily(people: list[Waiting], now: float, anyone_playing: bool) -> list[list[int]]:
    """A large wave: down the score order, each player with the next one they may meet."""
    order = sorted(people, key=lambda p: (-p.score, p.since, p.entry))
    pairs, taken = [], set()
    for index, one in enumerate(order):
        if one.entry in taken:
            continue
        other = next(
            (o for o in order[index + 1 :] if o.entry not in taken and may_meet(one, o, now, anyone_playing)), None
        )
        if other is not None:
            taken |= {one.entry, other.entry}
            pairs.append([one.entry, other.entry])
    return pairs


def tables_for_waiting(
    waiting: list[Waiting], *, table_size: int, smallest: int, now: float, anyone_playing: bool
) -> list[list[int]]:
    people = by_waiting([player for player in waiting if not player.house_bot])
    bots = by_waiting([player for player in waiting if player.house_bot])
    full = len(people) // table_size * table_size
    tables = deal_by_score(people[:full], table_size)
    rest = people[full:]
    if rest:
        seats = [*rest, *sorted(bots, key=lambda b: (abs(b.score - rest[0].score), b.since, b.entry))]
        table = seats[:table_size]
        waited = now - rest[0].since
        if len(table) == table_size or len(table) >= smallest and (waited >= FILL_AFTER_SECONDS or not anyone_playing):
            tables.append([player.entry for player in table])
    return tables


def deal_by_score(people: list[Waiting], table_size: int) -> list[list[int]]:
    """Full tables of people, highest scores together."""
    order = sorted(people, key=lambda p: (-p.score, p.since, p.entry))
    return [[p.entry for p in order[start : start + table_size]] for start in range(0, len(order), table_size)]


@dataclass(frozen=True)
class SeatBefore:
    """A seat as its game ended: its player's streak going in (wins in a row), whether they went
    berserk, whether they never came to the game, and whether they came but made no move of their own."""

    streak: int = 0
    berserk: bool = False
    absent: bool = False
    idle: bool = False


@dataclass(frozen=True)
class Earned:
    points: int
    streak: int  # wins in a row after this game
    outcome: str  # WON, DREW, LOST, NO_GAME, ABSENT, NO_MOVE
    doubled: bool = False  # on a streak: the game counted double
    berserk_point: bool = False


def outcome_of(ranking: list[list[int]], seat_number: int) -> str:
    """A seat's result among the players ranked: first alone wins; first shared, or (at a table
    of three or more) ahead of at least half the others, draws; anything else loses."""
    ahead_of, tied = 0, 0
    below = sum(len(group) for group in ranking)
    for group in ranking:
        below -= len(group)
        if seat_number in group:
            ahead_of, tied = below, len(group) - 1
            break
    others = sum(len(group) for group in ranking) - 1
    if ranking and seat_number in ranking[0] and not tied:
        return WON
    if ranking and seat_number in ranking[0] or others >= 2 and ahead_of * 2 >= others:
        return DREW
    return LOST


def score_table(ranking: list[list[int]], seats: list[SeatBefore]) -> list[Earned]:
    """What each seat earned, in seat order, from the table's ranking (groups of seat numbers,
    best first, every seat in it; a seat with no move of its own ranked after those who moved)."""
    came = [[s for s in group if not seats[s].absent] for group in ranking]
    came = [group for group in came if group]
    played = sum(len(group) for group in came) >= 2
    earned = []
    for number, before in enumerate(seats):
        if before.absent:
            earned.append(Earned(0, 0, ABSENT))
        elif before.idle:
            earned.append(Earned(0, 0, NO_MOVE))
        elif not played:
            earned.append(Earned(0, before.streak, NO_GAME))
        else:
            earned.append(points_for(outcome_of(came, number), before))
    return earned


def points_for(outcome: str, before: SeatBefore) -> Earned:
    doubled = before.streak >= STREAK_START
    base = {WON: WIN, DREW: DRAW}.get(outcome, 0)
    bonus = BERSERK_BONUS if before.berserk and outcome == WON else 0
    streak = before.streak + 1 if outcome == WON else 0
    return Earned(base * (2 if doubled else 1) + bonus, streak, outcome, doubled and base > 0, bool(bonus))
