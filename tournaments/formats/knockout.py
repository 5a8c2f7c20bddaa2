"""Knockout: at two seats a seeded bracket whose pairings play best-of series; at larger tables
the top players of each table go through until one table plays the final (knockout.py has the
pure rules, brackets.py reads the bracket from the tables). Its standings rank by the round
reached, then the place at the last table; its page adds the bracket."""

from collections import defaultdict
from datetime import datetime
from functools import cached_property

from games.engine import get_game
from tournaments import brackets, knockout, rounds, running, scoring, services, tiebreaks
from tournaments.formats.base import Ranking, TournamentFormat
from tournaments.models import Entry, Score, Table, Tournament

SCORING_PAIRS = (
    "a seeded bracket, byes to the top seeds, each pairing a best-of series (a drawn game is replayed); the winner "
    "goes through. Standings: the round reached, then the place in the last pairing played (so the final gives the "
    "first two places); players out in the same round share a place (pairings won are shown, but split nothing)."
)
SCORING_TABLES = (
    "tables dealt by seed; the top players of each table go through until one table plays the final (where too "
    "few go through to fill a table, the best next places join them, second places before third, the better seed "
    "first). Standings: the round reached, then the place at the last table played (so the final table's order "
    "gives the first places); players out in the same round at the same place share it (tables won are shown, "
    "but split nothing)."
)

PAIRINGS_WON = "pairings won over the board (a best-of series counts once; a bye or a walkover does not)"


class Knockout(TournamentFormat):
    slug = "knockout"
    name = "Knockout"
    label = "Knockout (two seats: seeded bracket; larger tables: top players of each go through)"
    computes_its_rounds = True
    leaves_at_once = True  # a knockout cannot wait for a player who has left it
    byes_at_tables = True
    ranks_by_round_reached = True
    tiebreaks_split_ties = False  # a bye is not a round won: counting pairings won would rank a top seed below
    corrections_refused = "A knockout's results decided who went through, so they cannot be corrected afterwards."
    settings = {"2": ("best_of",), "3+": ("advance",)}
    tiebreaks_left_out = (
        "it ranks by the round reached, then the place at the last table, and players out together share a place: "
        "only the pairings or tables won are shown beside them"
    )

    @classmethod
    def tiebreaks_offered(cls) -> tuple[str, ...]:
        """Only what its standings show: the pairings (tables) won, which split nothing either; the
        tiebreaks that weigh opponents or places would be offered for nothing (an organizer's finding)."""
        return (tiebreaks.WINS,)

    @property
    def plays_series(self) -> bool:
        return self.tournament.table_size == 2

    @property
    def through(self) -> int:
        """How many go through from a table of more than two."""
        return self.tournament.advance or self.tournament.table_size // 2

    def errors(self) -> dict[str, str]:
        tournament, errors = self.tournament, super().errors()
        if tournament.best_of % 2 == 0:
            errors["best_of"] = "Play an odd number of games per pairing (1, 3, 5...)."
        if tournament.advance >= tournament.table_size:
            size = tournament.table_size
            errors["advance"] = f"At tables of {size}, at most {size - 1} can go through from each: choose fewer."
        return errors

    def summary(self) -> str:
        """Its rounds are known once the entries are (at the start)."""
        if self.plays_series:
            best_of = self.tournament.best_of
            return f"Knockout, {'one game a pairing' if best_of == 1 else f'best of {best_of}'}"
        who = "the winner of each goes" if self.through == 1 else f"the top {self.through} of each go"
        return f"Knockout at tables of up to {self.tournament.table_size}, {who} through"

    def scoring_words(self) -> str:
        return SCORING_PAIRS if self.plays_series else SCORING_TABLES

    def early_finish(self) -> str:
        return ""  # its rounds are its own

    def ranked_by(self) -> str:
        return "reached"

    def points_label(self) -> str:
        return ""  # a Score sums a whole series: the bracket and the standings show it

    def played_words(self) -> str:
        return "pairings played (a best-of series counts once)" if self.plays_series else "tables played"

    def table_name(self, table: Table) -> str:
        """A game at two seats by its pairing ("Pairing 2, game 1"), not its stored number."""
        if not self.plays_series:
            return super().table_name(table)
        pairing, game = divmod(table.number - 1, brackets.games_per_slot(self.tournament))
        return f"Pairing {pairing + 1}" if len(table.seating) == 1 else f"Pairing {pairing + 1}, game {game + 1}"

    def next_words(self, table: Table, entry: Entry) -> str:
        _, place = brackets.progress(self.tournament, brackets.bracket(self.tournament)).get(entry.pk, (0, 0))
        if place:
            return "You are out of the knockout: your place is in the standings."
        return "The tournament seats your next game: the series' next, or the next round's if you go through."

    def rounds_for(self, players: int) -> int:
        return knockout.rounds_needed(players, self.tournament.table_size, self.through)

    def seat_first_round(self, order: list[int], now: datetime) -> None:
        minimum = get_game(self.tournament.game).smallest_table
        self.open_round(1, brackets.seat_first_round(self.tournament, order, minimum), now)

    def open_round(self, round_number: int, tables: list[Table], now: datetime) -> None:
        """Open a round's matches (a withdrawn player's seats left at once, so the others go on);
        its byes are written as bye scores."""
        tournament = self.tournament
        running.open_matches(tournament, tables, now)
        seated = {entry_id for table in tables for entry_id in table.seating}
        for entry in tournament.entries.exclude(withdrawn_after=None).select_related("user"):
            if entry.pk in seated:
                services.leave_games(tournament, entry, now)
        byes = tournament.tables.filter(round=round_number).values_list("seating", flat=True)
        Score.objects.bulk_create(
            [
                Score(tournament=tournament, entry_id=seats[0], round=round_number, points=1.0, kind=scoring.BYE)
                for seats in byes
                if len(seats) == 1
            ]
        )

    def write_scores(self, table: Table, earned: dict[int, tuple[float, str]]) -> None:
        """A series adds each game's points to its first game's."""
        earned = dict(earned)
        for score in Score.objects.filter(tournament=self.tournament, round=table.round, entry_id__in=list(earned)):
            score.points += earned.pop(score.entry_id)[0]
            score.save(update_fields=["points"])
        super().write_scores(table, earned)

    def after_scored(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """A series goes on, or the round is over: seat the next one, or finish after the final."""
        tournament = self.tournament
        slots = brackets.bracket(tournament)[table.round - 1]
        slot = next(s for s in slots if table in s.tables)
        if self.plays_series and slot.winner is None:
            running.open_matches(tournament, [brackets.next_game(tournament, slot)], now)
            return
        if not all(brackets.decided(s, self.plays_series) for s in slots) or running.waiting(tournament, table.round):
            return
        groups = brackets.following_round(tournament, slots, get_game(tournament.game).smallest_table)
        if groups is None:
            running.finish(tournament, now)
            return
        self.open_round(table.round + 1, brackets.seat_pairings(tournament, table.round + 1, groups), now)

    def tiebreak_words(self, name: str, label: str, meaning: str) -> tuple[str, str]:
        if self.plays_series and name == tiebreaks.WINS:
            return "Pairings won", PAIRINGS_WON
        return label, meaning

    def ranking(self, entries, games, points) -> Ranking:
        """The round reached; a best-of series is one tiebreak game."""
        found = brackets.bracket(self.tournament)
        games, progress, games_won = knockout_games(self.tournament, found)
        value = {entry_id: float(stage) for entry_id, (stage, _) in progress.items()}
        return Ranking(value, games, progress, games_won, brackets.stage_names(self.tournament, found))

    @cached_property
    def bracket(self) -> list[list[brackets.Slot]]:
        """The bracket as it stands, read once for a page's headings and its bracket."""
        return brackets.bracket(self.tournament)

    def round_headings(self) -> dict[int, str]:
        """ "Round 2: final"."""
        stages = brackets.stage_names(self.tournament, self.bracket)
        return {number: name for number, name in stages.items() if name != f"Round {number}"}

    def results_parts(self, rows, names) -> dict:
        stages = brackets.stage_names(self.tournament, self.bracket)
        return {
            "bracket": bracket_rows(self.tournament, names, self.bracket, stages),
            "games_won_apart": self.games_won_apart(),
        }

    def games_won_apart(self) -> bool:
        """Best-of series: the games each won, shown apart from the pairings won."""
        return self.plays_series and self.tournament.best_of > 1


def knockout_games(tournament: Tournament, found: list[list[brackets.Slot]]) -> tuple[dict, dict, dict]:
    """A knockout by pairings: one tiebreak game per pairing or table (a best-of series counts
    once, won or lost; a bye is unplayed), each entry's (round reached, place at its last
    table; 0 while it plays), and the games each won in its series."""
    earned = {
        (entry_id, round_number): points
        for entry_id, round_number, points in tournament.scores.values_list("entry_id", "round", "points")
    }
    two_seats = tournament.table_size == 2
    games: dict = defaultdict(list)
    games_won: dict = defaultdict(int)
    for slots in found:
        for slot in slots:
            # a series the seeds decided was won by nobody over the board: a shared place for the tiebreaks
            ranking = [list(slot.players)] if slot.by_seed else brackets.slot_ranking(slot, two_seats)
            unplayed = slot.walkover()
            for player in slot.players:
                over_the_board = zip(slot.game_winners, slot.no_shows, strict=False)  # no winners apart at tables
                games_won[player] += sum(1 for winner, absent in over_the_board if winner == player and not absent)
                got = earned.get((player, slot.round), 0.0)
                if len(slot.players) == 1:
                    games[player].append(tiebreaks.Game(slot.round, got, played=False))
                elif player in unplayed and ranking:
                    games[player].append(tiebreaks.Game(slot.round, got, played=False))
                elif ranking:
                    games[player].append(tiebreaks.game_at(slot.round, got, ranking, player))
    return games, brackets.progress(tournament, found), games_won


def bracket_rows(tournament: Tournament, names: dict[int, str], found: list, stages: dict[int, str]) -> list[dict]:
    """The knockout bracket in words: each round's pairings, games won, who went through (the final: who won)."""
    rows = []
    for index, slots in enumerate(found):
        pairings = []
        seated_next = {p for slot in found[index + 1] for p in slot.players} if index + 1 < len(found) else set()
        for slot in slots:
            wins = [sum(1 for w in slot.game_winners if w == p) for p in slot.players]
            won_final = tournament.status == Tournament.Status.FINISHED and slots is found[-1] and slot.finish
            through = [slot.winner] if slot.winner else slot.finish[0] if won_final else slot.through
            places = won_final and tournament.table_size > 2  # the final table's order gives the podium
            pairings.append(
                {
                    "players": [names[p] for p in slot.players],
                    "score": series_score(tournament, slot, wins),
                    "through": [names[p] for p in through if p],
                    "places": rounds.places_words(slot.finish, names) if places else "",
                    "by_seed": f"level after {len(slot.game_winners)} games: the higher seed goes through"
                    if slot.by_seed
                    else "",
                    # too few went through to fill a table: the best next places joined them (brackets.following_round)
                    "joined": [names[p] for p in slot.players if p in seated_next and p not in through],
                }
            )
        rows.append({"round": slots[0].round, "name": stages[slots[0].round], "pairings": pairings})
    if tournament.status in (Tournament.Status.RUNNING, Tournament.Status.PAUSED) and rows:
        rows += rounds_to_come(rows, stages) if tournament.table_size == 2 else tables_to_come(tournament, rows, stages)
    return rows


def series_score(tournament: Tournament, slot, wins: list[int]) -> str:
    """A two-seat pairing's games won ("2–1"), or "walkover" where it was not played over the
    board (a forfeit read as "1–0", a win at the table)."""
    if tournament.table_size != 2 or len(wins) < 2:
        return ""
    return "walkover" if slot.walkover() else "–".join(str(won) for won in wins)


def tables_to_come(tournament: Tournament, rows: list[dict], stages: dict[int, str]) -> list[dict]:
    """A multi-table knockout's rounds not yet seated: who they will be is known only once the
    tables before are played (the players going through are dealt again by seed), so each says
    where its players come from."""
    through = tournament.rules.through
    top = "the winner" if through == 1 else f"the top {through}"
    to_come = []
    for number in range(rows[-1]["round"] + 1, tournament.rounds + 1):
        before = stages.get(number - 1, f"round {number - 1}").lower()
        words = f"{top} of each table of {before}, dealt again by seed"
        pairing = {"players": [words], "to_come": True}
        to_come.append({"round": number, "name": stages.get(number, ""), "pairings": [pairing]})
    return to_come


def rounds_to_come(rows: list[dict], stages: dict[int, str]) -> list[dict]:
    """A bracket's rounds not yet seated, as a club draws them on the wall: neighbouring pairings'
    winners meet (knockout.next_round), named where already known, else "winner of semi-final 2"."""
    to_come = []
    last = rows[-1] if rows else None
    while last and len(last["pairings"]) > 1:
        feeders = [
            item["through"][0] if item.get("through") else f"winner of {last['name'].lower()} {number}"
            for number, item in enumerate(last["pairings"], start=1)
        ]
        pairings = [{"players": feeders[i : i + 2], "to_come": True} for i in range(0, len(feeders), 2)]
        last = {"round": last["round"] + 1, "name": stages.get(last["round"] + 1, ""), "pairings": pairings}
        to_come.append(last)
    return to_come
