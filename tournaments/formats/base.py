"""What a tournament format decides, as one class: the settings it takes, its words, how its
rounds are seated and scored, when it is over, how it ranks, and what its pages show.

A format object is made for one tournament (`tournament.rules`) and reads that tournament's
settings; the runner (running.py), the entry services, the standings, the round lists and the
pages ask it instead of testing which format they have. The defaults here are those most
formats share; a format overrides what it does otherwise. Two families share more:
reseating.py (Swiss, round robin: the field is seated again every round) and fixed_tables.py
(the series: each table keeps its players for every round). A new format is a module with one
subclass, registered in tournaments/apps.py (docs/tournaments.md, "Formats").
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING

from games.engine import get_game
from games.starting import FIRST_SEAT, STARTER
from tournaments import scoring, tiebreaks
from tournaments.models import Score, Table, Tournament
from tournaments.rounds import point_words

if TYPE_CHECKING:
    from games.matches.models import Match
    from games.matches.occasions import Offer
    from tournaments.models import Entry

# Settings only some formats have, and what is said when another format is given one.
NOT_YOURS = {
    "late_entry_rounds": "Late entry is for Swiss tournaments.",
    "accelerated_rounds": "Accelerated rounds are for Swiss tournaments.",
}


@dataclass
class Ranking:
    """What a format ranks its players by, for standings.py: the ranking value of each entry
    (points; a total; the round reached), the games its tiebreaks read, and for a knockout
    each entry's (round reached, place at its last table) and the round names."""

    value: dict[int, float]
    games: dict
    progress: dict[int, tuple[int, int]] = field(default_factory=dict)
    games_won: dict[int, int] = field(default_factory=dict)
    stages: dict[int, str] = field(default_factory=dict)
    series_points: dict[int, float] = field(default_factory=dict)  # the "points" tiebreak (Dobble series)


class TournamentFormat:
    slug = ""  # stored in Tournament.format
    name = ""  # as a heading says it: "Swiss rounds", "Knockout"
    label = ""  # as the organizer's form offers it: "Swiss rounds"

    # Facts the runner and the pages read.
    reseats = False  # every round seats the field again: a player can leave between rounds, a
    # no-show is withdrawn, a withdrawn player can be paired again, pairing lists show points
    fixed_tables = False  # each table keeps its players for every round, the first seat moving on
    lowest_wins = False  # ranked by the lowest total
    computes_its_rounds = False  # the rounds follow from the field at the start (the form hides them)
    leaves_at_once = False  # a player who withdraws leaves the games they are playing now
    misses_rounds_after_withdrawing = False  # FIDE counts a withdrawn player's later rounds as missed
    pairings_fixed_in_advance = False  # FIDE C.07 15.2: a forfeit counts as the game scheduled
    byes_at_tables = False  # byes are one-player tables, not scores without a table
    sitting_out_is_a_game = True  # a bye for nothing counts in the tiebreaks (as the middle place)
    corrections_refused = ""  # why an organizer cannot correct a result, in words ("" when they can)
    lowest_correction = 0.0  # the fewest points an organizer may give at a table
    points_in_tenths = False  # the standings show the ranking value to a tenth, not as points (1½)
    tiebreaks_in_tenths = False
    plays_series = False  # a pairing plays several games (a knockout's best-of at two seats)
    ranks_by_round_reached = False  # a knockout's standings: the round reached, in words
    tiebreaks_split_ties = True  # a knockout's are shown but split nothing: those out together share a place
    chooses_mini_games = False  # each table's next game is chosen (a Dobble series' loser picks it)
    needs_a_table_to_start = True  # too few entries for one table cancel it at its start
    runs_until_a_time = False  # it ends at a time, not after a number of rounds (an arena)
    offers_berserk = False  # a player may halve their own clock for a point more (an arena)
    # The seat order is the format's to give (a Swiss's colours, a round robin's Berger tables, seat
    # 1 taking turns in a series): the first seat starts, in a game that would draw who starts.
    decides_who_starts = True
    # Settings that only this format has, by the table sizes they are for ("" every size, "2", "3+").
    settings: dict[str, tuple[str, ...]] = {}
    own_tiebreaks: tuple[str, ...] = ()  # tiebreaks no other format offers
    tiebreaks_left_out = ""  # why some common tiebreaks are not offered (`tiebreaks_offered`), in words

    def __init__(self, tournament: Tournament):
        self.tournament = tournament

    # Which events it can be

    @classmethod
    def tiebreaks_offered(cls) -> tuple[str, ...]:
        """The tiebreaks an organizer may choose for this format: the common ones and its own."""
        return (*tiebreaks.NAMES, *cls.own_tiebreaks)

    @classmethod
    def refused_for(cls, engine) -> str:
        """Why a game cannot be played in this format, in words ("" when it can)."""
        return ""

    @classmethod
    def every_setting(cls) -> set[str]:
        """The settings of this format only, at any table size."""
        return {name for names in cls.settings.values() for name in names}

    def setting_names(self) -> set[str]:
        """The settings of this format only that apply at the tournament's table size."""
        seats = "2" if self.tournament.table_size == 2 else "3+"
        return {name for size, names in self.settings.items() if size in ("", seats) for name in names}

    def errors(self) -> dict[str, str]:
        """The format's settings refused, by field, in words (Tournament.clean adds the rest)."""
        tournament, errors = self.tournament, {}
        refused = self.refused_for(get_game(tournament.game))
        if refused:
            errors["format"] = refused
        if not self.computes_its_rounds and tournament.rounds < 1:
            errors["rounds"] = "Play at least one round."
        for name, words in NOT_YOURS.items():
            if getattr(tournament, name) and name not in self.setting_names():
                errors[name] = words
        return errors

    # Words

    def summary(self) -> str:
        """The event in a line of words: "Swiss, 4 rounds at tables of 2"."""
        raise NotImplementedError

    def scoring_words(self) -> str:
        """How the tournament is scored, for its page."""
        raise NotImplementedError

    def ranked_by(self) -> str:
        """The ranking column's name as the page gives it, in a download: a spreadsheet must not
        sort a lowest-wins total the wrong way, nor read mini-games won as points."""
        return "points"

    def early_finish(self) -> str:
        """Why a finished tournament played fewer rounds than it was set for, or "": a field left
        too small for a table (the others withdrawn) plays no more rounds."""
        tournament = self.tournament
        played = tournament.current_round if tournament.status == Tournament.Status.FINISHED else tournament.rounds
        if played >= tournament.rounds:
            return ""
        return f"Finished after round {played} of {tournament.rounds}: too few players were left for another table."

    def tables_and_rounds(self) -> tuple[str, str]:
        """ "tables of 2" and "3 rounds", as summaries say them."""
        size, rounds = self.tournament.table_size, self.tournament.rounds
        tables = "tables of 2" if size == 2 else f"tables of up to {size}"
        return tables, f"{rounds} round{'s' if rounds != 1 else ''}"

    def played_words(self) -> str:
        """What the standings' "Played" counts."""
        return "games played"

    def table_name(self, table: Table) -> str:
        """A table as round lists name it."""
        return f"Table {table.number}"

    def points_label(self) -> str:
        """What a scored table's figures are called in its result ("points"; "" where a table's
        figures are not what it ranks by)."""
        return "points"

    def next_words(self, table: Table, entry: Entry) -> str:
        """What this format holds next for an entrant after a table, in words, where it differs
        from the rounds' usual course ("" for that: rounds.next_for)."""
        return ""

    def round_name(self, number: int) -> str:
        """A round as players read it, on its tables' pages and in the notices that send them
        there: "Round 2 of Winter Swiss"."""
        return f"Round {number} of {self.tournament.name}"

    def bye_words(self, entry_id: int, round_number: int, points: float, names: dict[int, str]) -> str:
        """A bye's line in a round list."""
        return f"{'bye' if points else 'sits out'}: {names[entry_id]}, {point_words(points)}"

    # Running

    def rounds_for(self, players: int) -> int:
        """How many rounds the event plays, fixed at the start."""
        return self.tournament.rounds

    def before_start(self) -> None:
        """Slow work the start needs, done before it takes the tournament's lock."""

    def seat_first_round(self, order: list[int], now: datetime) -> None:
        """Seat round 1 and open its matches; `order` is the entries in seed order (locked tournament)."""
        raise NotImplementedError

    def match_options(self, table: Table, options: dict) -> dict:
        """A table's match options: the tournament's, with what this format adds: the first seat
        starts where the format decides who sits first (games/starting.py)."""
        if self.decides_who_starts and STARTER in get_game(self.tournament.game).options:
            return options | {STARTER: FIRST_SEAT}
        return options

    def seat_points(self, match: Match, result: dict | None, players: int) -> dict[int, float]:
        """What each seat earned by this format; a seat left out is unplayed (scoring.py)."""
        return scoring.share_of_opponents_beaten(result, players)

    def write_scores(self, table: Table, earned: dict[int, tuple[float, str]]) -> None:
        """One Score per entry and round."""
        tournament = self.tournament
        Score.objects.bulk_create(
            Score(tournament=tournament, entry_id=entry_id, round=table.round, table=table, points=points, kind=kind)
            for entry_id, (points, kind) in earned.items()
        )

    def after_scored(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """A table is scored: seat what follows it (the next game, the next round) or finish."""
        raise NotImplementedError

    def round_complete(self, round_number: int) -> bool:
        """Every table of that round has been played and scored."""
        tables = self.tournament.tables.filter(round=round_number)
        return tables.exists() and not tables.filter(scored=False).exists()

    @classmethod
    def tick(cls, now: datetime | None = None) -> int:
        """The beat, every few seconds: what this format's running tournaments wait for (a Dobble
        choice left too long); how many it settled."""
        return 0

    def resumed(self, now: datetime) -> None:
        """The organizer resumed the tournament: what waited for it (locked tournament)."""

    def seat_order(self, seating: list[int], round_number: int) -> list[int]:
        """A table's entries in seat order in a round."""
        return list(seating)

    # Entries

    def accepts_late_entries(self) -> bool:
        """Entries stay open after the start (running or paused)."""
        return False

    def entered(self, entry: Entry) -> None:
        """A new entry, before the start or late (locked tournament). FIDE's rule for late
        entrants: each round they missed is an unplayed round worth the organizer's zero or half
        point (`late_entry_points`), so they pair (and rank) with the players they can catch."""
        tournament = self.tournament
        Score.objects.bulk_create(
            Score(
                tournament=tournament, entry=entry, round=number, points=tournament.late_entry_points, kind=scoring.LATE
            )
            for number in range(1, tournament.current_round + 1)
        )

    def entry_refused(self, user) -> str:
        """Why `user` may not enter (or come back to) this tournament now, in words ("" when they may)."""
        return ""

    def withdrawal_refused(self) -> str:
        """Why nobody can withdraw from the running tournament, in words ("" when they can)."""
        return ""

    def correction_errors(self, points: dict[int, float]) -> str:
        """Why corrected points cannot be a table's result, in words ("" when they can)."""
        return ""

    def double_forfeit(self, points: dict[int, float]) -> bool:
        """Whether corrected points say that everyone at the table forfeited (no game for anyone)."""
        return False

    # Standings

    def default_tiebreaks(self) -> list[str]:
        """The tiebreaks when the organizer names none."""
        return [tiebreaks.WINS]

    def tiebreak_words(self, name: str, label: str, meaning: str) -> tuple[str, str]:
        """A tiebreak's label and meaning as this format counts it."""
        return label, meaning

    def ranking(self, entries: list, games: dict, points: dict) -> Ranking:
        """What the players are ranked by: the sum of their points by default. `games` and
        `points` are standings.player_games'."""
        return Ranking({e.pk: sum(p for p, _ in points[e.pk]) for e in entries}, games)

    # Pages

    def games_won_apart(self) -> bool:
        """The standings show the games each won apart from what ranks them (best-of series)."""
        return False

    def round_headings(self) -> dict[int, str]:
        """Names of rounds beside their numbers ("Final"), where a format has them."""
        return {}

    def withdrawn_opponent(self, round_number: int, entry_id: int) -> int | None:
        """Where pairings are fixed in advance: whom a 1-point bye was the game against."""
        return None

    def results_parts(self, rows: list[dict], names: dict[int, str]) -> dict:
        """What this format adds to the results (a bracket, a crosstable...), for _results.html."""
        return {}

    def chosen_words(self, table: Table, names: dict[int, str]) -> str:
        """How a table's mini-game was chosen, in words ("" where nobody chooses)."""
        return ""

    def offer(self, table: Table, entry: Entry) -> Offer | None:
        """What the entrant may do at this table while its game runs (an arena's berserk), if anything."""
        return None

    def standing(self, entry: Entry) -> str:
        """Where the entrant stands now, in words, for the table of their game ("" where the
        tournament's page says it: an arena's players want it while they play)."""
        return ""

    def seat_notes(self, table: Table) -> dict[int, str]:
        """Words beside seats' names at this table, by seat number (an arena's "berserk")."""
        return {}

    def waiting_choice(self, table: Table) -> Table | None:
        """The table after this one, while someone still chooses its game."""
        return None
