"""Lowest total over the rounds (Dudab Buba): fixed tables play one game a round and every
game's total is added up; the lowest wins. Totals at different table sizes are scaled by
factors measured at the start (size_scale.py)."""

from collections import Counter, defaultdict

from games.engine import get_game
from tournaments import pairing, scoring, size_scale
from tournaments.formats.base import Ranking
from tournaments.formats.fixed_tables import FixedTablesFormat
from tournaments.models import Tournament

SCORING = (
    "each table plays one game a round, the first seat moving on each time; every game's total is added up and the "
    "lowest total wins. Games not yet played do not count: a player's total is their average game times the rounds. "
    "Where table sizes differ, totals are scaled by size as measured with equal computer players, so a table's "
    "strength is never scaled away."
)


class RoundsTotal(FixedTablesFormat):
    slug = "rounds-total"
    name = "Lowest total over the rounds"
    label = "Lowest total over the rounds (Dudab Buba)"
    lowest_wins = True
    points_in_tenths = True

    @classmethod
    def refused_for(cls, engine) -> str:
        return "" if engine.slug == "dudab" else "Lowest total over the rounds is Dudab Buba's format."

    def summary(self) -> str:
        tables, rounds = self.tables_and_rounds()
        return f"Lowest total over {rounds} at {tables}"

    def scoring_words(self) -> str:
        return SCORING

    def ranked_by(self) -> str:
        return "total (lowest wins)"

    def points_label(self) -> str:
        return "total"

    def before_start(self) -> None:
        """The size factors take seconds of simulated games to measure (size_scale.py): measured
        before the start takes the tournament's lock, which on SQLite holds every other write of
        the site, so nothing waits for them ("database is locked" under load); the start then
        finds them in the process's cache."""
        tournament = self.tournament
        playing = tournament.entries.count() - tournament.left_out_at_start().count()
        minimum = get_game(tournament.game).smallest_table
        if playing >= minimum:
            sizes, _ = pairing.table_sizes(playing, tournament.table_size, minimum)
            size_scale.dudab_factors(tournament.options, set(sizes))

    def measure(self, sizes: list[int]) -> None:
        self.tournament.size_factors = size_scale.dudab_factors(self.tournament.options, set(sizes))
        self.tournament.save(update_fields=["size_factors"])

    def seat_points(self, match, result, players):
        round_scores = match.load_state().round_scores if result is not None and match.dealt else []
        return scoring.dudab(result, players, round_scores) or {}

    def ranking(self, entries, games, points) -> Ranking:
        return Ranking(normalised_totals(self.tournament), games)

    def results_parts(self, rows, names) -> dict:
        return {"size_factors": size_factors(self.tournament)}


def normalised_totals(tournament: Tournament) -> dict:
    """Each player's average game total, scaled per table size, times the rounds.

    Totals at different table sizes are not alike (a Dudab Buba game has as many rounds as
    players), so when sizes differ each total is multiplied by its size's factor, measured at
    the start from games of equal house bots with the tournament's options (size_scale.py), not
    from this field's results, which would scale away how strong each table was (they are shown
    beside the standings, size_factors). Only games played count: the average is over the
    player's games, so a table behind in rounds neither leads nor trails for it.
    """
    sizes = dict(tournament.tables.values_list("pk", "seating"))
    rows = tournament.scores.exclude(kind=scoring.UNPLAYED)
    rows = rows.values_list("entry_id", "table_id", "points", "round", "kind")
    factors = {int(size): factor for size, factor in tournament.size_factors.items()}
    scaled = [
        (entry_id, total * factors.get(len(sizes.get(table_id, [])), 1.0), number, kind)
        for entry_id, table_id, total, number, kind in rows
    ]
    # A forfeit is given its table's worst total; scaled at a smaller table it could come out
    # lower (better) than a total played at a bigger one: it is never better than the round's worst played.
    worst = defaultdict(float)
    for _, total, number, kind in scaled:
        if kind != scoring.FORFEITED:
            worst[number] = max(worst[number], total)
    summed, count = Counter(), Counter()
    for entry_id, total, number, kind in scaled:
        summed[entry_id] += max(total, worst[number]) if kind == scoring.FORFEITED else total
        count[entry_id] += 1
    return {
        entry_id: summed[entry_id]
        if count[entry_id] == tournament.rounds
        else summed[entry_id] / count[entry_id] * tournament.rounds
        for entry_id in count
    }


def size_factors(tournament: Tournament) -> dict[int, float]:
    """The factor each table size's totals are scaled by, where sizes differ."""
    factors = sorted((int(size), factor) for size, factor in tournament.size_factors.items())
    return {size: factor for size, factor in factors if factor != 1.0}
