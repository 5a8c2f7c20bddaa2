"""Dobble series: fixed tables play one mini-game a round, opening with the towering inferno;
the loser of each mini-game chooses the next (the beat tick settles a choice left too long),
scored by the Dobble point system, or by mini-games won as in the rulebook."""

from collections import Counter, defaultdict
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games.dobble.points import SERIES_OPENER, next_chooser
from games.dobble.points import points as mini_game_points
from games.engine import get_game
from games.matches.errors import MatchError
from tournaments import notices, running, scoring, tiebreaks
from tournaments.formats.base import Ranking
from tournaments.formats.fixed_tables import FixedTablesFormat
from tournaments.models import Entry, Table, Tournament
from tournaments.standings import SERIES_POINTS

CHOICE_SECONDS = 30
SCORING = (
    "each table plays one mini-game a round, opening with the towering inferno; the loser of each mini-game "
    "chooses the next. Towering inferno: +1 per card won, +5 for the most cards. The well: +10 first out, -20 "
    "last. Poisoned gift: +20 fewest cards, +10 second. Hot potato: -5 per round lost. Gotta catch them all: +1 "
    "per card. Most points wins (or most mini-games won, when the organizer chose the rulebook's way). Where table "
    "sizes differ, each mini-game's points are shifted per size so every size averages the same."
)


class DobbleSeries(FixedTablesFormat):
    slug = "dobble-series"
    name = "Dobble series"
    label = "Dobble series (loser picks the next mini-game)"
    settings = {"": ("series_ranking",)}
    own_tiebreaks = (SERIES_POINTS,)
    chooses_mini_games = True
    lowest_correction = -1000.0  # a mini-game takes points away (hot potato, the well)
    points_in_tenths = True
    tiebreaks_in_tenths = True

    @classmethod
    def refused_for(cls, engine) -> str:
        return "" if engine.slug == "dobble" else "A Dobble series is for Dobble."

    @property
    def by_wins(self) -> bool:
        return self.tournament.series_ranking == "wins"

    def summary(self) -> str:
        tables, rounds = self.tables_and_rounds()
        ranked = "mini-games won (the rulebook's way)" if self.by_wins else "points"
        return f"{self.name}, {rounds} at {tables}, ranked by {ranked}"

    def scoring_words(self) -> str:
        return SCORING

    def ranked_by(self) -> str:
        return "mini-games won" if self.by_wins else "points"

    def next_words(self, table: Table, entry: Entry) -> str:
        if table.round < self.tournament.rounds:
            return "The loser of this mini-game chooses the next one, which starts as soon as it is chosen."
        return ""

    def first_mini_game(self) -> str:
        return SERIES_OPENER

    def match_options(self, table: Table, options: dict) -> dict:
        """The well deals from the last mini-game's winner."""
        options = super().match_options(table, options)
        return options | {"last_winner": last_winner_seat(self.tournament, table)} if table.round > 1 else options

    def seat_points(self, match, result, players):
        """The Dobble point system of the table's mini-game (games/dobble/points.py)."""
        return points_by_seat(match.options.get("mini_game", SERIES_OPENER), result, players)

    def next_game(self, table: Table, seat_order: list[int], now: datetime) -> None:
        """The loser first chooses the mini-game (a house bot's pick: the least played)."""
        tournament = self.tournament
        chooser = Entry.objects.select_related("user").get(pk=seat_order[next_chooser(table.match.result)])
        following = Table.objects.create(
            tournament=tournament,
            round=table.round + 1,
            number=table.number,
            seating=table.seating,
            chooser=chooser,
            choose_by=now + timedelta(seconds=CHOICE_SECONDS),
        )
        if chooser.house_bot:
            open_chosen_mini_game(tournament, following, default_mini_game(following), Table.Choice.HOUSE_BOT, now)
        elif table.match.seats.filter(user_id=chooser.user_id, code_version__isnull=False).exists():
            # Uploaded code and webhooks answer a match's positions only (docs/protocol/dobble.md).
            open_chosen_mini_game(tournament, following, default_mini_game(following), Table.Choice.BOT_CODE, now)
        else:
            notices.tell_choice(tournament, table, following, CHOICE_SECONDS, default_mini_game(following))

    @classmethod
    def tick(cls, now: datetime | None = None) -> int:
        return choose_overdue(now)

    def resumed(self, now: datetime) -> None:
        """Choosers get their full time again."""
        self.tournament.tables.filter(match=None, chooser__isnull=False).update(
            choose_by=now + timedelta(seconds=CHOICE_SECONDS)
        )

    def default_tiebreaks(self) -> list[str]:
        return [SERIES_POINTS] if self.by_wins else [tiebreaks.WINS]

    def ranking(self, entries, games, points) -> Ranking:
        """Points (shifted per table size), or the rulebook's mini-games won: a mini-game nobody
        else came to is won, as it scores points."""
        series_points, _ = shifted_series_points(self.tournament)
        if self.by_wins:
            value = {e.pk: float(sum(1 for g in games[e.pk] if tiebreaks.won(g) or g.forfeit_win)) for e in entries}
        else:
            value = series_points
        return Ranking(value, games, series_points=series_points)

    def results_parts(self, rows, names) -> dict:
        """What each mini-game's points are shifted by per table size, beside the standings."""
        _, shifts = shifted_series_points(self.tournament)
        shown = [{"mini_game": game, "size": size, "shift": shift} for (game, size), shift in shifts.items()]
        return {"size_shifts": shown}

    def chosen_words(self, table: Table, names: dict[int, str]) -> str:
        """Who chose a settled table's mini-game: "chosen by ann", or how the default came (the
        rules' opener, a chooser's time running out, a house bot)."""
        if table.match_id is None:
            return ""
        if table.chooser_id is None:
            return "the series' opener"
        who = names[table.chooser_id]
        return {
            Table.Choice.CHOSEN: f"chosen by {who}",
            Table.Choice.TIMED_OUT: f"{who}'s time to choose ran out: the least played so far",
            Table.Choice.HOUSE_BOT: f"{who}'s, a house bot's, pick: the least played so far",
            Table.Choice.BOT_CODE: f"made for {who}, a bot played by its code: the least played so far",
        }.get(table.choice, "")

    def waiting_choice(self, table: Table) -> Table | None:
        """The table's next mini-game, while its chooser (this one's loser) has not chosen."""
        if self.tournament.status not in Tournament.LIVE:
            return None
        following = self.tournament.tables.filter(number=table.number, round=table.round + 1, match=None)
        return following.exclude(chooser=None).select_related("chooser__user").first()


def points_by_seat(mini_game: str, result: dict | None, players: int) -> dict[int, float]:
    """Each seat's points for one mini-game, every seat named: nothing to anyone for a cancelled
    match; a mini-game cut short by forfeits has no card counts (0 each) and, in hot potato,
    costs each forfeiting player one round (scoring.py, "Every result is scored")."""
    if result is None:
        return dict.fromkeys(range(players), 0.0)
    ranking = scoring.full_ranking(result, players)
    forfeited = [str(seat) for seat in result.get("forfeited", [])]
    scores = {str(seat): 0 for seat in range(players)} | dict(result.get("scores") or {})
    details = dict(result.get("details") or {})
    details.setdefault("rounds_lost", {str(seat): int(str(seat) in forfeited) for seat in range(players)})
    by_seat = mini_game_points(mini_game, {"ranking": ranking, "scores": scores, "details": details})
    return {seat: float(by_seat.get(str(seat), 0)) for seat in range(players)}


def last_winner_seat(tournament: Tournament, table: Table) -> int:
    """The seat, in this table's order, of whoever won the table's previous mini-game (the well
    deals from them); the first seat when that game had no winner."""
    previous = (
        Table.objects.select_related("match")
        .filter(tournament=tournament, number=table.number, round=table.round - 1)
        .first()
    )
    rules = tournament.rules
    order = rules.seat_order(table.seating, table.round)
    if previous is None or previous.match is None or not (previous.match.result or {}).get("ranking"):
        return 0
    winner = rules.seat_order(previous.seating, previous.round)[previous.match.result["ranking"][0][0]]
    return order.index(winner) if winner in order else 0


def choose(tournament_id: int, user, mini_game: str, now: datetime | None = None) -> Table:
    """The chooser names the next mini-game of their table's series."""
    now = now or timezone.now()
    allowed = get_game("dobble").options["mini_game"].choices
    if mini_game not in allowed:
        raise MatchError("bad_request", f"Choose one of {', '.join(allowed)}.")
    with transaction.atomic():
        tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
        table = tournament.tables.filter(match=None, chooser__user=user).first()
        if tournament.status != Tournament.Status.RUNNING:
            table = None
        if table is None:
            raise MatchError("not_your_choice", "There is no mini-game for you to choose now.")
        open_chosen_mini_game(tournament, table, mini_game, Table.Choice.CHOSEN, now)
    return table


def choose_overdue(now: datetime | None = None) -> int:
    """Beat: a chooser who let the time run out gets the default mini-game."""
    now = now or timezone.now()
    overdue = Table.objects.filter(
        match=None, choose_by__lte=now, tournament__status=Tournament.Status.RUNNING
    ).values_list("pk", "tournament_id")
    for table_id, tournament_id in list(overdue):
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().get(pk=tournament_id)
            table = Table.objects.get(pk=table_id)
            if table.match_id is None:
                open_chosen_mini_game(tournament, table, default_mini_game(table), Table.Choice.TIMED_OUT, now)
    return len(overdue)


def open_chosen_mini_game(tournament: Tournament, table: Table, mini_game: str, how: str, now: datetime) -> None:
    """Open the table's next mini-game, recording how it was chosen (the chooser stays on the table)."""
    table.mini_game, table.choice = mini_game, how
    running.open_matches(tournament, [table], now)


def default_mini_game(table: Table) -> str:
    """The mini-game this table has played least so far (ties in the rules' order)."""
    played = list(
        Table.objects.filter(tournament_id=table.tournament_id, number=table.number, round__lt=table.round).values_list(
            "mini_game", flat=True
        )
    )
    choices = get_game("dobble").options["mini_game"].choices
    return min(choices, key=lambda name: (played.count(name), choices.index(name)))


def shifted_series_points(tournament: Tournament) -> tuple[dict, dict]:
    """A Dobble series' points per entry, each mini-game's points shifted per table size so that
    every size averages the same for it, and the shifts ({(mini-game, size): points a player}).

    A smaller table deals more cards to each player (towering inferno: +19 a player at three
    against +14 at four) and loses fewer hot-potato rounds, so raw points favour one size. The
    shift is added, not multiplied, as Dobble points can be negative; where a mini-game was
    played at one size only, nothing moves."""
    rows = tournament.scores.exclude(kind=scoring.UNPLAYED).filter(table__isnull=False)
    games = list(rows.values_list("entry_id", "points", "table__mini_game", "table__seating", "kind"))
    by_game: dict = defaultdict(list)
    by_size: dict = defaultdict(list)
    for _, earned, mini_game, seating, kind in games:
        if kind != scoring.FORFEITED:  # the averages are of games played
            by_game[mini_game].append(earned)
            by_size[mini_game, len(seating)].append(earned)
    shifts = defaultdict(float)
    for (mini_game, size), earned in by_size.items():
        sizes = sum(1 for other, _ in by_size if other == mini_game)
        mean = sum(by_game[mini_game]) / len(by_game[mini_game])
        shifts[mini_game, size] = mean - sum(earned) / len(earned) if sizes > 1 else 0.0
    # Staying away never beats playing badly: a forfeit, shifted, is no better than the worst
    # played game of that mini-game (a forfeit's 0 at a table of three came out at +5.1, above
    # a win at a table of two).
    worst = {}
    for _, earned, mini_game, seating, kind in games:
        if kind != scoring.FORFEITED:
            shifted = earned + shifts[mini_game, len(seating)]
            worst[mini_game] = min(worst.get(mini_game, shifted), shifted)
    value: Counter = Counter()
    for entry_id, earned, mini_game, seating, kind in games:
        shifted = earned + shifts[mini_game, len(seating)]
        value[entry_id] += min(shifted, worst.get(mini_game, shifted)) if kind == scoring.FORFEITED else shifted
    return dict(value), {key: shift for key, shift in sorted(shifts.items()) if abs(shift) > 1e-9}
