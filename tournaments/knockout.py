"""Knockouts: pure functions, no Django (docs/tournaments.md, "Knockouts").

Two seats: a seeded single-elimination bracket. The field is padded to a power of two with
byes, which fall to the top seeds; seeds are placed so that 1 and 2 can only meet in the
final, 1-4 in the semi-finals, and so on (1 v 16, 8 v 9, 5 v 12, 4 v 13, ...). Each pairing
is a best-of-N series: the first to win more than half of N goes through; a drawn game is
replayed, up to N + 2 games; a series still level then goes to the higher seed.

Free-for-all: every round seats the players still in at tables of the tournament's size (a
snake by seed, so tables are of similar strength) and the top k of each table go through,
until one table is left: its game is the final.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def bracket_positions(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order for a bracket of `size` (a power of two)."""
    positions = [1]
    while len(positions) < size:
        total = 2 * len(positions) + 1
        positions = [seed for top in positions for seed in (top, total - top)]
    return positions


def first_round(seeds: Sequence[Hashable]) -> list[list[Hashable]]:
    """Round-one pairings in bracket order; a pairing of one player is a bye."""
    size = 1
    while size < len(seeds):
        size *= 2
    slots = [seeds[p - 1] if p <= len(seeds) else None for p in bracket_positions(size)]
    pairs = [[a, b] for a, b in zip(slots[::2], slots[1::2], strict=True)]
    return [[player for player in pair if player is not None] for pair in pairs]


def next_round(winners: Sequence[Hashable]) -> list[list[Hashable]]:
    """Winners of neighbouring pairings meet (the bracket keeps its shape)."""
    return [list(winners[i : i + 2]) for i in range(0, len(winners), 2)]


def series_winner(
    players: Sequence[Hashable], game_winners: Sequence[Hashable | None], best_of: int, seed: dict
) -> Hashable | None:
    """The winner of a best-of series so far (None: play another game). `game_winners` holds
    each game's winner, None for a draw."""
    if len(players) == 1:
        return players[0]
    needed = best_of // 2 + 1
    wins = {p: sum(1 for w in game_winners if w == p) for p in players}
    leader = max(players, key=lambda p: (wins[p], -seed.get(p, 0)))
    if wins[leader] >= needed or len(game_winners) >= best_of + 2:
        return leader
    return None


def advancing(ranking: list[list[Hashable]], k: int) -> list[Hashable]:
    """The top k of a free-for-all table, by its ranking; players tied across the cut all go through."""
    through: list[Hashable] = []
    for group in ranking:
        if len(through) >= k:
            break
        through.extend(group)
    return through


def rounds_needed(players: int, size: int, k: int) -> int:
    """How many rounds a knockout of this field takes (two seats: log2 of the bracket)."""
    rounds = 0
    while players > 1:
        rounds += 1
        if players <= size:
            return rounds
        tables = -(-players // size)
        players = min(players - 1, tables * k) if size > 2 else -(-players // 2)
    return rounds
