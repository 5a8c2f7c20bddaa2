"""Formats whose tables keep their players for every round (the series: Dobble series, rounds
total): dealt by seed at the start so tables are of similar strength, the first seat moving on
each round, each table playing its next game as soon as its last one is scored."""

from datetime import datetime

from games.engine import get_game
from tournaments import pairing, running, tiebreaks
from tournaments.formats.base import TournamentFormat
from tournaments.models import Table

# Tiebreaks that weigh the opponents met: at fixed tables they are the same people every round.
OPPONENTS_WEIGHED = tiebreaks.BUCHHOLZ_FAMILY | {tiebreaks.SONNEBORN_BERGER}


class FixedTablesFormat(TournamentFormat):
    fixed_tables = True
    tiebreaks_left_out = (
        "its tables keep their players, so everyone at a table meets the same opponents every round: Buchholz and "
        "Sonneborn-Berger would weigh the table, not the player (within a table, Buchholz ranks the weaker players "
        "above the stronger)"
    )

    @classmethod
    def tiebreaks_offered(cls) -> tuple[str, ...]:
        """Wins, the sum of places and direct encounter read a player's own results at their table;
        those weighing the opponents met are left out (`tiebreaks_left_out`)."""
        return tuple(name for name in super().tiebreaks_offered() if name not in OPPONENTS_WEIGHED)

    def first_mini_game(self) -> str:
        """The game every table opens with ("" where the tournament's options decide)."""
        return ""

    def measure(self, sizes: list[int]) -> None:
        """What the format measures of the table sizes at the start (locked tournament)."""

    def seat_first_round(self, order: list[int], now: datetime) -> None:
        tournament = self.tournament
        sizes, _ = pairing.table_sizes(len(order), tournament.table_size, get_game(tournament.game).smallest_table)
        self.measure(sizes)
        opener = self.first_mini_game()
        tables = [
            Table(tournament=tournament, round=1, number=number, seating=seats, mini_game=opener)
            for number, seats in enumerate(pairing.snake(order, sizes), start=1)
        ]
        running.open_matches(tournament, tables, now)

    def after_scored(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """The table plays its next round at once; the last table's last round finishes."""
        if table.round < self.tournament.rounds:
            self.next_game(table, seat_order, now)
        if self.round_complete(self.tournament.rounds):
            running.finish(self.tournament, now)

    def next_game(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """The same players' next round."""
        following = Table.objects.create(
            tournament=self.tournament, round=table.round + 1, number=table.number, seating=table.seating
        )
        running.open_matches(self.tournament, [following], now)

    def round_complete(self, round_number: int) -> bool:
        """Every table has played and scored that round."""
        tables = self.tournament.tables
        return (
            super().round_complete(round_number)
            and tables.filter(round=round_number).count() == tables.filter(round=1).count()
        )

    def seat_order(self, seating: list[int], round_number: int) -> list[int]:
        return pairing.rotate(seating, round_number)

    def withdrawal_refused(self) -> str:
        return "Players can no longer withdraw once the tournament has started: a series keeps its tables together."
