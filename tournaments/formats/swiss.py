"""Swiss: every round seats players of similar scores who have not met yet (seating.py reads the
field; tournaments/swiss_pairing.py pairs it, through dutch.py or dutch_brackets.py at two seats);
a table gives each player their share of it."""

from django.template.defaultfilters import pluralize

from tournaments import seating, tiebreaks
from tournaments.formats.reseating import ReseatingFormat

SCORING = (
    "every round seats players with similar scores who have not met yet. A table gives each player the share of "
    "opponents they finished ahead of (1 for a win, 0.5 for a draw at two seats); a bye is worth 1. A player who "
    "resigns or leaves is placed after everyone still playing, so of two who left a table the later one finished "
    "ahead of the first. Ties are split by the tiebreaks listed beside the standings."
)


class Swiss(ReseatingFormat):
    slug = "swiss"
    name = "Swiss rounds"
    label = "Swiss rounds"
    misses_rounds_after_withdrawing = True
    settings = {
        "": ("withdraw_no_shows", "accelerated_rounds", "forbidden_pairs", "late_entry_rounds", "late_entry_points")
    }

    def errors(self) -> dict[str, str]:
        """Not more rounds than opponents at two seats, nor acceleration or late entry past the last round."""
        tournament, errors = self.tournament, super().errors()
        entries, rounds = tournament.max_entries, tournament.rounds
        if 2 <= entries and tournament.table_size <= entries and tournament.table_size == 2 and rounds >= entries:
            others = entries - 1
            errors["rounds"] = (
                f"With at most {entries} players each meets at most {others} "
                f"other{pluralize(others)}: play at most {others} round{pluralize(others)}, or allow more entries."
            )
        if tournament.accelerated_rounds > rounds:
            errors["accelerated_rounds"] = f"Accelerate at most the {rounds} rounds played."
        if tournament.late_entry_rounds > rounds:
            errors["late_entry_rounds"] = f"Late entry can last at most until round {rounds}, the last."
        return errors

    def summary(self) -> str:
        tables, rounds = self.tables_and_rounds()
        fast = {0: "", 1: ", round 1 accelerated"}.get(
            self.tournament.accelerated_rounds, ", the first rounds accelerated"
        )
        return f"Swiss, {rounds} at {tables}{fast}"

    def scoring_words(self) -> str:
        count = self.tournament.accelerated_rounds
        if not count:
            return SCORING
        which = "round 1" if count == 1 else f"rounds 1 to {count}"
        return (
            f"{SCORING} Accelerated: in {which} the top half of the seeds are paired as if a point ahead, so "
            "leaders meet sooner; that point never counts."
        )

    def pair(self, round_number: int):
        tables, byes = seating.swiss_round(self.tournament, round_number)
        return tables, [(entry_id, 1.0) for entry_id in byes], []

    def accepts_late_entries(self) -> bool:
        """Open until the last late round is seated, paused or not (a pause between rounds is
        when an arbiter admits a latecomer)."""
        return self.tournament.current_round < self.tournament.late_entry_rounds

    def default_tiebreaks(self) -> list[str]:
        if self.tournament.table_size == 2:
            return [
                tiebreaks.BUCHHOLZ_CUT_1,
                tiebreaks.BUCHHOLZ,
                tiebreaks.SONNEBORN_BERGER,
                tiebreaks.DIRECT_ENCOUNTER,
            ]
        return [tiebreaks.BUCHHOLZ, tiebreaks.PLACEMENTS, tiebreaks.DIRECT_ENCOUNTER]
