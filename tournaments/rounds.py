"""Every round in words, for the tournament page, the printable round sheet and the pairings
export: each table's players in seat order, its result once scored ("ann won", "1st ann, 2nd
bob and cat", "bob forfeited", points), "playing" while it runs, and the round's byes.

The format names its tables (a knockout at two seats by pairing: "pairing 2, game 1") and its
byes; where a pairing plays a series, each game shows its own points (the series' sum is in
the bracket and the standings), and where byes are one-player tables ("bye: ann goes
through") they are not listed again as scores without a table ("bye: ann, 1 point").
"""

from collections import defaultdict
from dataclasses import dataclass, field

from django.template.defaultfilters import pluralize
from django.urls import reverse
from django.utils import timezone

from games.engine import get_game
from games.matches.models import Match
from games.matches.occasions import Choice, Occasion, no_move_words
from tournaments import scoring
from tournaments.models import ScoreCorrection, Table, Tournament
from tournaments.running import seat_order_of, table_points
from tournaments.standings import rounds_not_paired
from tournaments.tiebreaks import MISSED, figure

BELOW_THE_TABLES = 10**6  # a bye's place in its round's list: after every table


@dataclass
class Line:
    """One table, bye or missed round of a round."""

    round: int
    where: str  # "Table 3", "Pairing 2, game 1"; "" for a bye
    players: list[str]  # seat order (who starts is the game's deal: exports.starter)
    points: list  # per seat, None while unscored
    result: str  # in words
    table: Table | None = None
    number: int = 0  # the stored table number, to sort by
    states: list[str] = field(default_factory=list)  # per seat: the Score's kind (played, forfeited, bye...)
    labels: list[str] = field(default_factory=list)  # per seat, as pages name them: "ann (2.5)" in a Swiss
    chosen: str = ""  # a Dobble series: who chose the table's mini-game, in words

    def __post_init__(self):
        self.labels = self.labels or list(self.players)


def ordinal(place: int) -> str:
    return f"{place}{'th' if 10 <= place % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(place % 10, 'th')}"


def result_words(
    tournament: Tournament, table: Table, order: list[int], names: dict, got: dict, corrected=False
) -> str:
    """A table's result in words: winner or places, forfeits, and the points where they count per
    table (saying so where the organizer corrected them: the game's result no longer gives them;
    a correction to 0 for everyone is said as the double forfeit it is)."""
    if len(order) == 1:
        return f"bye: {names[order[0]]} goes through"
    if not table.scored:
        if table.match is None:
            return f"waiting for {table.chooser.user.username} to choose the mini-game" if table.chooser else "waiting"
        if tournament.status == Tournament.Status.CANCELLED:  # played out, or not, it is not scored
            return "not counted: the tournament was cancelled"
        return "playing"
    finished = table.match is not None and table.match.status == "finished"
    result = scoring.counted_result(tournament, table.match.result if finished else None)
    if result is None and not corrected:
        return "stopped with no result: it counts for nobody"
    words = ["stopped with no result"] if result is None else at_the_table(result, order, names, corrected)
    if corrected and scoring.everyone_forfeited(kind for _, kind in got.values()):
        everyone = "0–0, a double forfeit: no game for either" if len(order) == 2 else (
            "0 for everyone, a forfeit by all: no game for anyone"
        )
        return " · ".join([*words, f"corrected: {everyone}"])
    label = tournament.rules.points_label()
    if got and label:  # a knockout's points sum a whole series: none per table
        points = ", ".join(f"{names[e]} {figure(got[e][0])}" for e in order if e in got)
        words.append(f"{label}{' (corrected by the organizer)' if corrected else ''}: {points}")
    return " · ".join(words)


def at_the_table(result: dict, order: list[int], names: dict, corrected: bool) -> list[str]:
    """What the game's own result says: winner or places, then who resigned, forfeited or made no
    move of their own ("at the table: " where the organizer corrected the points since)."""
    ranking = [[order[seat] for seat in group] for group in scoring.full_ranking(result, len(order))]
    if set(result.get("forfeited", [])) >= set(range(len(order))):
        words = ["nobody came" if set(result.get("absent", [])) >= set(range(len(order))) else "nobody finished"]
    elif len(order) == 2:
        words = [f"{names[ranking[0][0]]} won" if len(ranking[0]) == 1 else "draw"]
    else:
        words = [places_words(ranking, names)]
    if corrected:  # the game's own result; the corrected points that follow may say otherwise
        words = [f"at the table: {words[0]}"]
    resigned, idle = set(result.get("resigned", [])), set(result.get("idle", []))
    return words + [gone_words(names[order[s]], s in resigned, s in idle) for s in result.get("forfeited", [])]


def gone_words(name: str, resigned: bool, idle: bool) -> str:
    if resigned:
        return f"{name} resigned"
    if idle:
        return no_move_words(name)
    return f"{name} forfeited"


def mini_game_label(name: str) -> str:
    """A Dobble mini-game by the label its option gives it ("hot-potato" -> "Hot Potato")."""
    return dict(get_game("dobble").options["mini_game"].named_choices()).get(name, name)


def points_before(tournament: Tournament) -> dict:
    """Each entry's points going into each round ({round: {entry: points}}), as pairing lists show
    them where the field is seated again every round on its points; {} for other formats."""
    if not tournament.rules.reseats:
        return {}
    earned: dict = defaultdict(lambda: defaultdict(float))
    last = 0
    for entry_id, number, points in tournament.scores.exclude(kind=scoring.UNPLAYED).values_list(
        "entry_id", "round", "points"
    ):
        earned[number][entry_id] += points
        last = max(last, number)
    last = max(last, tournament.current_round)
    before: dict = {}
    running_total: dict = defaultdict(float)
    for number in range(1, last + 2):
        before[number] = defaultdict(float, running_total)
        for entry_id, points in earned[number].items():
            running_total[entry_id] += points
    return before


def places_words(ranking: list[list[int]], names: dict) -> str:
    """A table's places in words: "1st ann, 2nd bob and cat, 4th dan"."""
    places, ahead = [], 0
    for group in ranking:
        places.append(f"{ordinal(ahead + 1)} {' and '.join(names[e] for e in group)}")
        ahead += len(group)
    return ", ".join(places)


def point_words(points: float) -> str:
    return f"{figure(points)} point{'' if points == 1 else 's'}"


def lines(tournament: Tournament, round_number: int | None = None) -> dict[int, list[Line]]:
    """Each round's tables and byes in words, by round (one round when round_number is given)."""
    names = dict(tournament.entries.values_list("pk", "user__username"))
    scores = tournament.scores.all() if round_number is None else tournament.scores.filter(round=round_number)
    tables = tournament.tables.select_related("match", "chooser__user")
    if round_number is not None:
        tables = tables.filter(round=round_number)
    rules = tournament.rules
    corrected = set(ScoreCorrection.objects.filter(table__tournament=tournament).values_list("table_id", flat=True))
    by_table: dict = {}
    rounds: dict[int, list[Line]] = {}
    for table_id, entry_id, number, points, kind in scores.values_list(
        "table_id", "entry_id", "round", "points", "kind"
    ):
        if table_id is not None:
            by_table.setdefault(table_id, {})[entry_id] = (points, kind)
        elif kind == scoring.LATE or kind == scoring.BYE and not rules.byes_at_tables:
            if kind == scoring.LATE:
                words = f"entered late, missed this round: {names[entry_id]}, {point_words(points)}"
            else:
                words = rules.bye_words(entry_id, number, points, names)
            rounds.setdefault(number, []).append(
                Line(number, "", [names[entry_id]], [points], words, number=BELOW_THE_TABLES, states=[kind])
            )
    for entry_id, number in rounds_not_paired(tournament):
        if round_number in (None, number):
            words = f"withdrawn, not paired: {names[entry_id]}, {point_words(0)}"
            rounds.setdefault(number, []).append(
                Line(number, "", [names[entry_id]], [0.0], words, number=BELOW_THE_TABLES, states=[MISSED])
            )
    before = points_before(tournament)
    for table in tables.order_by("round", "number"):
        order = seat_order_of(tournament, table)
        got = by_table.get(table.pk, {})
        if rules.plays_series and table.match and table.scored:  # the Score sums the series: each game its own
            got = table_points(tournament, table.match, order)
        rounds.setdefault(table.round, []).append(
            Line(
                table.round,
                rules.table_name(table),
                [names[e] for e in order],
                [got[e][0] if e in got else None for e in order],
                result_words(tournament, table, order, names, got, table.pk in corrected),
                table,
                table.number,
                [got[e][1] if e in got else "" for e in order],
                [f"{names[e]} ({figure(before[table.round][e])})" for e in order] if before else [],
                rules.chosen_words(table, names),
            )
        )
    return {number: sorted(found, key=lambda line: line.number) for number, found in sorted(rounds.items())}


def occasion(match, user) -> Occasion | None:
    """A tournament match's event for its table page (games.matches.occasions): "Round 2 of
    Winter Swiss", linking back to the tournament, and what comes next for the viewer."""
    table = Table.objects.filter(match_id=match.pk).select_related("tournament").first()
    if table is None:
        return None
    tournament = table.tournament
    url = reverse("tournament", args=[tournament.pk])
    entry = tournament.entries.filter(user_id=user.pk).first() if user is not None and user.is_authenticated else None
    later = next_table(tournament, table, entry)
    pending = tournament.rules.waiting_choice(table) if entry is not None and later is None else None
    choice = None
    if later is not None:
        words = f"{tournament.round_name(later.round)}: your game has started,"
        next_url = reverse("table", args=[later.match_id])
    elif pending is not None:
        words, next_url = choice_words(tournament, pending, entry), ""
        if pending.chooser_id == entry.pk and tournament.status == Tournament.Status.RUNNING:
            choice = mini_game_choice(tournament, pending)
    else:
        words, next_url = next_for(tournament, table, entry), ""
    rules = tournament.rules
    offer = rules.offer(table, entry) if entry is not None else None
    standing = rules.standing(entry) if entry is not None else ""
    name = tournament.round_name(table.round)
    notes = rules.seat_notes(table)
    return Occasion(name, tournament.name, url, words, next_url, choice, offer, standing=standing, seat_notes=notes)


def choice_words(tournament: Tournament, pending: Table, entry) -> str:
    """Who chooses the next mini-game, in words, for each player of the table."""
    by = timezone.localtime(pending.choose_by).strftime("%H:%M:%S")
    if tournament.status == Tournament.Status.PAUSED:
        who = "you choose" if pending.chooser_id == entry.pk else f"{pending.chooser.user.username} chooses"
        return f"The tournament is paused: {who} the next mini-game when it resumes."
    if pending.chooser_id == entry.pk:
        return "You lost this mini-game, so you choose the next one."
    return (
        f"{pending.chooser.user.username} lost this mini-game and is choosing the next one, by {by} at the "
        "latest: it starts as soon as it is chosen."
    )


def mini_game_choice(tournament: Tournament, pending: Table) -> Choice:
    """The chooser's form at the table of the mini-game they lost."""
    by = timezone.localtime(pending.choose_by).strftime("%H:%M:%S")
    return Choice(
        "Choose the next mini-game",
        "mini_game",
        tuple(get_game("dobble").options["mini_game"].named_choices()),
        reverse("tournament-choose", args=[tournament.pk]),
        pending.choose_by,
        f"If you have not chosen by {by}, the mini-game your table has played least is chosen for you.",
    )


def next_table(tournament: Tournament, table: Table, entry) -> Table | None:
    """The entrant's game seated after this table's and still in play (the next round's, or the
    series' next), if there is one: a page opened once it started links there."""
    if entry is None:
        return None
    later = tournament.tables.filter(pk__gt=table.pk, match__status=Match.Status.RUNNING)
    return later.filter(match__seats__user_id=entry.user_id).order_by("-pk").first()


def next_for(tournament: Tournament, table: Table, entry) -> str:
    """What the tournament holds next for an entrant after this table, in words ("" for anyone else)."""
    if entry is None:
        return ""
    if tournament.status == Tournament.Status.CANCELLED:
        return "The organizer cancelled the tournament: it has no final standings."
    if tournament.status == Tournament.Status.FINISHED:
        return "The tournament is over: the standings are final."
    if entry.withdrawn_after is not None:
        why = f" (you {entry.no_show_words})" if entry.no_show_round else ""
        return f"You are withdrawn from the next rounds{why}: the organizer can pair you again."
    by_format = tournament.rules.next_words(table, entry)
    if by_format:
        return by_format
    current = max(tournament.current_round, table.round)
    if current == table.round:
        if table.round >= tournament.rounds:
            return "This was the last round: the final standings come when every table has finished."
        return "The tournament seats your next game when this round ends."
    # A later round is under way without a game of theirs in it: sitting out, or theirs is over.
    bye = tournament.scores.filter(entry=entry, round=current, kind=scoring.BYE).first()
    now = f"Round {current} is under way"
    if bye is not None and bye.points:
        now = f"You have a bye in round {current}, {bye.points:g} point{pluralize(bye.points)}"
    elif bye is not None:
        now = f"You sit out round {current}"
    if current >= tournament.rounds:
        return f"{now}: the final standings come when every table has finished."
    return f"{now}: the tournament seats your next game when it ends."
