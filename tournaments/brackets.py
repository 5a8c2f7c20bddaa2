"""A knockout's bracket read from its tables, and the next round seated from it.

Two seats: each pairing of bracket round r is a slot; its games are the tables of round r
numbered slot * GAMES_PER_SLOT + 1, + 2, ... (a bye is a one-player table, scored at once).
Larger tables: each table of round r is one game; its top k go through.
"""

from dataclasses import dataclass, field

from tournaments import knockout, pairing, scoring
from tournaments.models import Table, Tournament


def games_per_slot(tournament: Tournament) -> int:
    return tournament.best_of + 2  # drawn games are replayed, at most twice


@dataclass
class Slot:
    round: int
    number: int
    players: list[int]
    tables: list[Table] = field(default_factory=list)
    game_winners: list = field(default_factory=list)  # entry id, or None for a draw
    winner: int | None = None
    through: list[int] = field(default_factory=list)  # free-for-all: who goes through
    finish: list[list[int]] = field(default_factory=list)  # free-for-all: the table's ranking, best first
    no_shows: list[set] = field(default_factory=list)  # each game scored: who never came to it
    by_seed: bool = False  # a series still level after its last game: the higher seed went through

    def walkover(self) -> set[int]:
        """Players for whom the pairing or table was not played over the board (FIDE: a forfeit
        is no game): those who came to none of its games, and everyone where fewer than two came."""
        never = set.intersection(*self.no_shows) if self.no_shows else set()
        return set(self.players) if never and len(self.players) - len(never) < 2 else never


def bracket(tournament: Tournament) -> list[list[Slot]]:
    """Every round's slots in bracket order, with results so far."""
    seeds = dict(tournament.entries.values_list("pk", "seed"))
    rounds: dict[int, dict[int, Slot]] = {}
    two_seats = tournament.table_size == 2
    per_slot = games_per_slot(tournament)
    for table in tournament.tables.select_related("match").order_by("round", "number"):
        number = (table.number - 1) // per_slot if two_seats else table.number - 1
        slot = rounds.setdefault(table.round, {}).setdefault(
            number, Slot(table.round, number, sorted(table.seating, key=lambda e: seeds.get(e) or 0))
        )
        slot.tables.append(table)
        if not table.scored:
            continue
        result = table.match.result if table.match and table.match.status == "finished" else None
        result = scoring.counted_result(tournament, result)
        ranking = [[table.seating[s] for s in group] for group in scoring.full_ranking(result, len(table.seating))]
        counted_out = set((result or {}).get("forfeited", []))
        if len(table.seating) > 1:
            slot.no_shows.append({table.seating[s] for s in (result or {}).get("absent", []) if s in counted_out})
        if two_seats:
            if len(table.seating) > 1:
                slot.game_winners.append(ranking[0][0] if len(ranking[0]) == 1 else None)
        elif len(table.seating) == 1:  # a bye: through at once
            slot.finish, slot.through = ranking, list(table.seating)
        else:
            slot.finish = ranking
            slot.through = going_through(ranking, tournament.advance or len(table.seating) // 2, seeds)
    gone = set(tournament.entries.exclude(withdrawn_after=None).values_list("pk", flat=True))
    for slots in rounds.values():
        for slot in slots.values():
            if two_seats and all(t.scored for t in slot.tables):
                slot.winner = knockout.series_winner(slot.players, slot.game_winners, tournament.best_of, seeds)
                staying = [player for player in slot.players if player not in gone]
                if slot.winner is None and len(staying) == 1:  # the other withdrew: no more games
                    slot.winner = staying[0]
                wins = {slot.game_winners.count(player) for player in slot.players}
                slot.by_seed = slot.winner is not None and len(slot.players) == 2 and len(wins) == 1
    return [list(slots[n] for n in sorted(slots)) for _, slots in sorted(rounds.items())]


def going_through(ranking: list[list[int]], k: int, seeds: dict) -> list[int]:
    """The top k of a table go through, ties across the cut with them, but never the whole table:
    a smaller table (two of three going through, at a table of two) or a table tied throughout
    keeps its last place back, the better seeds going on, so every round shrinks the field."""
    players = sum(len(group) for group in ranking)
    through = knockout.advancing(ranking, min(k, players - 1))
    if len(through) >= players:
        through = sorted(through, key=lambda e: seeds.get(e) or 0)[: players - 1]
    return through


def decided(slot: Slot, two_seats: bool) -> bool:
    if two_seats:
        return slot.winner is not None
    return all(t.scored for t in slot.tables)


def seat_first_round(tournament: Tournament, order: list[int], minimum: int) -> list[Table]:
    """Round 1: the seeded bracket (two seats) or tables dealt by seed (larger tables)."""
    if tournament.table_size == 2:
        return seat_pairings(tournament, 1, knockout.first_round(order))
    return seat_pairings(tournament, 1, deal_tables(order, tournament.table_size, minimum))


def seat_pairings(tournament: Tournament, round_number: int, groups: list[list[int]]) -> list[Table]:
    """Tables for a round's slots (first games); a slot of one player is a bye, scored at once.
    Returns the tables that need a match."""
    per_slot = games_per_slot(tournament) if tournament.table_size == 2 else 1
    tables = Table.objects.bulk_create(
        [
            Table(
                tournament=tournament,
                round=round_number,
                number=index * per_slot + 1,
                seating=group,
                scored=len(group) == 1,
            )
            for index, group in enumerate(groups)
        ]
    )
    return [table for table in tables if len(table.seating) > 1]


def next_game(tournament: Tournament, slot: Slot) -> Table:
    """Another game of an undecided series, seat 0 alternating."""
    last = slot.tables[-1]
    return Table.objects.create(
        tournament=tournament, round=slot.round, number=last.number + 1, seating=list(reversed(last.seating))
    )


def following_round(tournament: Tournament, slots: list[Slot], minimum: int) -> list[list[int]] | None:
    """The next round's groups from a finished round, or None when that round was the final."""
    seeds = dict(tournament.entries.values_list("pk", "seed"))
    if tournament.table_size == 2:
        winners = [slot.winner for slot in slots]
        return knockout.next_round(winners) if len(winners) > 1 else None
    if len(slots) == 1:
        return None
    through = [p for slot in slots for p in slot.through]
    if len(through) < minimum:
        # Too few to fill one table of the game (I Doubt It needs three): the best of the next
        # places join them, second places before third, a better seed first within a place.
        rest = [
            (place, seeds.get(p) or 0, p)
            for slot in slots
            for place, group in enumerate(slot.finish)
            for p in group
            if p not in through
        ]
        through += [p for _, _, p in sorted(rest)[: minimum - len(through)]]
    through.sort(key=lambda e: seeds.get(e) or 0)
    return deal_tables(through, tournament.table_size, minimum)


def deal_tables(order: list[int], size: int, minimum: int) -> list[list[int]]:
    """Tables dealt by seed, out and back; where sizes differ the smaller tables come first, so
    the top seeds sit where fewer players compete for the same places through. Where no split
    seats everyone (seven at tables of three for a game of three or more), the top seeds go
    through on a bye, as in a bracket."""
    sizes, byes = pairing.table_sizes(len(order), size, minimum)
    return [[player] for player in order[:byes]] + pairing.snake(order[byes:], sorted(sizes))


def went_through(slot: Slot, two_seats: bool) -> list[int]:
    """Who a decided pairing or table sends to the next round (a bye's player at once)."""
    if two_seats:
        return [slot.winner] if slot.winner is not None else []
    return slot.through


def slot_ranking(slot: Slot, two_seats: bool) -> list[list[int]]:
    """A decided pairing's or table's players best first, in groups of equals ([] until decided)."""
    if not two_seats:
        return slot.finish
    if slot.winner is None:
        return []
    return [group for group in ([slot.winner], [p for p in slot.players if p != slot.winner]) if group]


def progress(tournament: Tournament, rounds: list[list[Slot]]) -> dict[int, tuple[int, int]]:
    """Each entry's round reached and its place at the last pairing or table it played (0 while
    that is undecided). Going through reaches the next round at once, before it is seated, so a
    player through to the final ranks above those still playing their semi-final; the champion
    reaches one round past the final."""
    two_seats = tournament.table_size == 2
    progress: dict[int, tuple[int, int]] = {}
    for slots in rounds:
        for slot in slots:
            ranked = slot_ranking(slot, two_seats)
            through = went_through(slot, two_seats) if len(slots) > 1 else []
            for player in slot.players:
                place = next((1 + sum(map(len, ranked[:i])) for i, g in enumerate(ranked) if player in g), 0)
                progress[player] = (slot.round + 1, 0) if player in through else (slot.round, place)
    if rounds and tournament.status == Tournament.Status.FINISHED:
        final = rounds[-1][0]
        champions = [final.winner] if two_seats else [group[0] for group in final.finish[:1] if len(group) == 1]
        for player in champions:
            if player is not None:
                progress[player] = (final.round + 1, 1)
    return progress


def stage_names(tournament: Tournament, rounds: list[list[Slot]]) -> dict[int, str]:
    """Each round reached in words: "Winner", "Final", then at two seats "Semi-final" and
    "Quarter-final", else "Round 1", "Round 2"..."""
    finished = tournament.status == Tournament.Status.FINISHED
    final = len(rounds) if finished and rounds else max(tournament.rounds, len(rounds))
    before_final = {1: "Semi-final", 2: "Quarter-final"} if tournament.table_size == 2 else {}
    names = {number: before_final.get(final - number, f"Round {number}") for number in range(1, final)}
    return names | {final: "Final", final + 1: "Winner"}
