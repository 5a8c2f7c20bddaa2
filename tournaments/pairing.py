"""Table sizes, round robins and fixed tables: pure functions, no Django (Swiss: swiss_pairing.py).

The tournament formats (tournaments/formats/, run by the Celery tasks in tournaments/tasks.py)
call these with plain lists, so every rule here is tested without a database
(tests/tournaments/test_pairing.py).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence


def table_sizes(players: int, size: int, minimum: int) -> tuple[list[int], int]:
    """Split players into the fewest tables of at most `size` and at least `minimum` seats,
    as even as possible; returns (sizes, byes). Byes only when no split seats everyone
    (an odd field at two-seat tables)."""
    for seated in range(players, 0, -1):
        tables = -(-seated // size)
        base, extra = divmod(seated, tables)
        if base >= minimum:
            return [base + 1] * extra + [base] * (tables - extra), players - seated
    return [], players


def round_robin_pairs(players: Sequence[Hashable], round_number: int) -> tuple[list[list[Hashable]], list[Hashable]]:
    """Round `round_number` (from 1) of FIDE's Berger tables (C.05, Annex 1): everyone meets everyone
    once over len(players) - 1 rounds (len(players) when odd: the last number is a bye, so each sits
    out once). The players are numbered 1..n in the given order; each table's first player moves
    first (FIDE's white), so that everyone alternates as far as the tables allow."""
    field = list(players) + ([None] if len(players) % 2 else [])
    last = len(field)
    if last < 2:
        return [], [p for p in field if p is not None]
    turns = last - 1
    step = (round_number - 1) % turns + 1
    # In round r, numbers a and b below the last meet where a + b = r + 1 (mod n - 1); the one whose
    # double is r + 1 meets the last number, who moves first in even rounds.
    host = next(a for a in range(1, last) if (2 * a - step - 1) % turns == 0)
    numbers = [(last, host) if step % 2 == 0 else (host, last)]
    for offset in range(1, last // 2):
        a = (host - 1 + offset) % turns + 1
        b = (host - 1 - offset) % turns + 1
        numbers.append((min(a, b), max(a, b)) if (b - a) % 2 else (max(a, b), min(a, b)))  # lower first if odd apart
    pairs = [(field[a - 1], field[b - 1]) for a, b in numbers]
    tables = [[a, b] for a, b in pairs if a is not None and b is not None]
    byes = [a if b is None else b for a, b in pairs if a is None or b is None]
    return tables, byes


def round_robin_rounds(players: int) -> int:
    return players - 1 if players % 2 == 0 else players


def rotate(players: Sequence[Hashable], round_number: int) -> list[Hashable]:
    """The seat order of a fixed table in a given round: each round another player sits first."""
    shift = (round_number - 1) % len(players)
    return list(players[shift:]) + list(players[:shift])


def snake(order: Sequence[Hashable], sizes: list[int]) -> list[list[Hashable]]:
    """Fixed tables of similar strength overall: deal players in rating order back and forth
    (tables 0, 1, 2, 2, 1, 0, 0, ...), skipping tables that are full."""
    if sum(sizes) < len(order):  # a full deal would look for a free seat for ever
        raise ValueError(f"{len(order)} players do not fit at tables of {sizes}.")
    tables: list[list[Hashable]] = [[] for _ in sizes]
    position, step = 0, 1
    for player in order:
        while len(tables[position]) >= sizes[position]:
            position, step = _next(position, step, len(sizes))
        tables[position].append(player)
        position, step = _next(position, step, len(sizes))
    return tables


def _next(position: int, step: int, count: int) -> tuple[int, int]:
    if 0 <= position + step < count:
        return position + step, step
    return position, -step
