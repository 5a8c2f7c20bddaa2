"""Formats that seat the whole field again every round (Swiss, round robin): a player may leave
between rounds, a no-show is withdrawn (when the organizer asks for it) and can be paired again,
and the next round is seated when the last table of a round is scored."""

from datetime import datetime

from games.engine import get_game
from tournaments import notices, running, scoring
from tournaments.formats.base import TournamentFormat
from tournaments.models import Score, Table


class ReseatingFormat(TournamentFormat):
    reseats = True
    settings = {"": ("withdraw_no_shows",)}

    def pair(self, round_number: int) -> tuple[list[list[int]], list[tuple[int, float]], list[int]]:
        """A round's tables (entry ids in seat order), its byes (entry, points) and those of
        them won by forfeit."""
        raise NotImplementedError

    def field_too_small(self, field: int, minimum: int) -> bool:
        """Whether a field of `field` players left plays no more rounds."""
        return field < minimum

    def seat_first_round(self, order: list[int], now: datetime) -> None:
        self.seat_round(1, now)

    def seat_round(self, round_number: int, now: datetime) -> None:
        """One round's tables, with byes scored at once (locked tournament)."""
        tournament = self.tournament
        tables, byes, walkovers = self.pair(round_number)
        running.open_matches(
            tournament,
            [
                Table(tournament=tournament, round=round_number, number=number, seating=seats)
                for number, seats in enumerate(tables, start=1)
            ],
            now,
        )
        Score.objects.bulk_create(
            [
                Score(tournament=tournament, entry_id=entry_id, round=round_number, points=points, kind=scoring.BYE)
                for entry_id, points in byes
            ]
        )
        notices.tell_sitting_out(tournament, round_number, byes, set(walkovers))

    def after_scored(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """The round's last table seats the next round; the last round's finishes."""
        tournament = self.tournament
        if not running.waiting(tournament, table.round) and table.round < tournament.rounds:
            self.seat_rounds_from(table.round + 1, now)
        elif self.round_complete(tournament.rounds):
            running.finish(tournament, now)

    def seat_rounds_from(self, round_number: int, now: datetime) -> None:
        """Seat the round. A field left too small for one table (the others withdrawn) plays no
        more rounds, and a bye a round for nobody to play is no point earned: the tournament
        finishes. A round that seats no table (a round robin's pairings all with withdrawn
        players, which the others win by forfeit) is over as it is seated, since no game would
        ever end it, so the next one is seated at once."""
        tournament = self.tournament
        minimum = get_game(tournament.game).smallest_table
        for number in range(round_number, tournament.rounds + 1):
            if self.field_too_small(tournament.entries.filter(withdrawn_after=None).count(), minimum):
                break
            self.seat_round(number, now)
            if tournament.tables.filter(round=number).exists():
                return
        running.finish(tournament, now)

    def correction_errors(self, points: dict[int, float]) -> str:
        """Points are shares of a table (scoring.share_points): 0 to 1 each, n/2 at most together."""
        if any(not 0 <= earned <= 1 for earned in points.values()):
            return "Each player's points are from 0 (lost to everyone) to 1 (beat everyone)."
        step = 0.5 / (len(points) - 1)  # half a point per opponent: a draw with one of them
        odd = next((earned for earned in points.values() if abs(earned / step - round(earned / step)) > 1e-9), None)
        if odd is not None:
            allowed = "0, 0.5 or 1" if len(points) == 2 else f"in steps of {step:g} (0 to 1)"
            return f"At a table of {len(points)} a player's points are {allowed}: {odd:g} is not a result."
        if sum(points.values()) > len(points) / 2:
            most = len(points) / 2
            return (
                f"A table of {len(points)} gives {most:g} point{'' if most == 1 else 's'} in all; these add up to "
                f"{sum(points.values()):g}: lower someone's."
            )
        return ""

    def double_forfeit(self, points: dict[int, float]) -> bool:
        """0 for everyone: a share of the table is never 0 for all at a game played, so this is a
        double forfeit (FIDE: lost by both), each a forfeit loss, no game for anyone."""
        return not any(points.values())
