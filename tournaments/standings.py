"""Standings: who leads a tournament, computed from its Score rows and its tables' results.

Swiss and round robin: most points first; Dobble series: most points, or most mini-games
won (Tournament.series_ranking); rounds total (Dudab Buba): lowest total first. Ties are
split by the tournament's ordered tiebreaks (tiebreaks.py; DEFAULT_TIEBREAKS when it names
none). An unplayed game (cancelled match, not yet played) never counts as a score. Players
equal on everything share a place.
"""

from collections import Counter, defaultdict

from tournaments import brackets, pairing, running, scoring, tiebreaks
from tournaments.models import ScoreCorrection, Tournament

RESEATING = (Tournament.Format.SWISS, Tournament.Format.ROUND_ROBIN)
NO_SHOW = "no-show"  # a table a player never came to, or where fewer than two came: not a game played
NO_TOTAL = float("inf")  # a rounds total before the player's first game ends: below every total
SERIES_POINTS = "points"  # the Dobble point system, as a tiebreak when the series ranks by mini-games won

TIEBREAK_LABELS = tiebreaks.NAMES | {SERIES_POINTS: "Series points"}
EXPLANATIONS = tiebreaks.EXPLANATIONS | {SERIES_POINTS: "points by the Dobble point system"}

DEFAULT_TIEBREAKS = {
    "swiss-2": [tiebreaks.BUCHHOLZ_CUT_1, tiebreaks.BUCHHOLZ, tiebreaks.SONNEBORN_BERGER, tiebreaks.DIRECT_ENCOUNTER],
    "swiss": [tiebreaks.BUCHHOLZ, tiebreaks.PLACEMENTS, tiebreaks.DIRECT_ENCOUNTER],
    Tournament.Format.ROUND_ROBIN: [tiebreaks.DIRECT_ENCOUNTER, tiebreaks.SONNEBORN_BERGER, tiebreaks.WINS],
    Tournament.Format.DOBBLE_SERIES: [tiebreaks.WINS],
    Tournament.Format.ROUNDS_TOTAL: [tiebreaks.WINS],
    Tournament.Format.KNOCKOUT: [tiebreaks.WINS],
}


def tiebreak_names(tournament: Tournament) -> list[str]:
    if tournament.tiebreaks:
        return list(tournament.tiebreaks)
    if tournament.format == Tournament.Format.DOBBLE_SERIES and tournament.series_ranking == "wins":
        return [SERIES_POINTS]
    if tournament.format == Tournament.Format.SWISS:
        return DEFAULT_TIEBREAKS["swiss-2" if tournament.table_size == 2 else "swiss"]
    return DEFAULT_TIEBREAKS[tournament.format]


def tiebreak_labels(tournament: Tournament) -> list[dict]:
    """The tiebreaks in the tournament's order, each with its name and what it counts, in words."""
    knockout_pairs = tournament.format == Tournament.Format.KNOCKOUT and tournament.table_size == 2
    labels = []
    for name in tiebreak_names(tournament):
        label, meaning = TIEBREAK_LABELS.get(name, name), EXPLANATIONS.get(name, "")
        if knockout_pairs and name == tiebreaks.WINS:
            label = "Pairings won"
            meaning = "pairings won over the board (a best-of series counts once; a bye or a walkover does not)"
        labels.append({"name": name, "label": label, "meaning": meaning})
    return labels


def knockout_order(item: tuple, finish: dict, seeds: dict) -> tuple:
    """A knockout's order: the round reached, then the place at the last table; players sharing
    both (still playing, or out in the same round) by seed, not by tiebreaks: a bye is not a
    round won, so counting pairings won would put a top seed with a bye below a lower seed."""
    player, keys = item
    _, place = finish.get(player, (0, 0))
    return (-keys[0], place, seeds.get(player, 0))


def knockout_keys(keys: tuple, finish: tuple[int, int]) -> tuple:
    """What a knockout place is decided by: those still playing one round share its place, and so
    do those out in the same round at the same place (two semi-final losers share third, as
    without a third-place match in FIDE's knockouts)."""
    _, place = finish
    return (keys[0], "playing") if place == 0 else (keys[0], place)


def buchholz_counting(tournament: Tournament) -> str:
    """FIDE's Buchholz conventions in words, where a Buchholz tiebreak is listed: the legend's
    "sum of your opponents' points" alone does not give the numbers shown."""
    return tiebreaks.BUCHHOLZ_COUNTING if tiebreaks.BUCHHOLZ_FAMILY & set(tiebreak_names(tournament)) else ""


def standings(tournament: Tournament) -> list[dict]:
    """One row per entry, best first: entry, player, points, tiebreak (the first), tiebreaks
    (all, in order; None where one does not apply), played, missed (rounds before a late entry),
    place. A knockout ranks by the round reached (points; reached, in words), then by the place
    at the last table (so the final table's order decides the places), then the tiebreaks,
    counting a best-of series as one game; games_won counts its games apart."""
    entries = list(tournament.entries.select_related("user").order_by("joined_at", "pk"))
    by_pk = {e.pk: e for e in entries}
    by_seed = {e.pk: e.seed or 0 for e in entries}
    games, points = player_games(tournament)
    if tournament.format == Tournament.Format.SWISS:
        missed_after_withdrawing(games, entries, tournament.table_size)
    finish, games_won, stages = {}, {}, {}
    if tournament.lowest_wins:
        value = normalised_totals(tournament)
    elif tournament.format == Tournament.Format.KNOCKOUT:
        rounds = brackets.bracket(tournament)
        games, finish, games_won = knockout_games(tournament, rounds)
        stages = brackets.stage_names(tournament, rounds)
        value = {entry_id: float(stage) for entry_id, (stage, _) in finish.items()}
    elif tournament.format == Tournament.Format.DOBBLE_SERIES and tournament.series_ranking == "wins":
        # the rulebook's mini-games won: a mini-game nobody else came to is won, as it scores points
        value = {e.pk: float(sum(1 for g in games[e.pk] if tiebreaks.won(g) or g.forfeit_win)) for e in entries}
    elif tournament.format == Tournament.Format.DOBBLE_SERIES:
        value, _ = dobble_points(tournament)
    else:
        value = {e.pk: sum(p for p, _ in points[e.pk]) for e in entries}
    # No game finished yet: no total, which must not read as the best one where the lowest wins.
    nothing = NO_TOTAL if tournament.lowest_wins else 0.0
    value = {e.pk: value.get(e.pk, nothing) for e in entries}
    names = tiebreak_names(tournament)
    series_points = dobble_points(tournament)[0] if SERIES_POINTS in tiebreak_names(tournament) else {}
    computed = [name for name in names if name != SERIES_POINTS]
    fixed = tournament.format == Tournament.Format.ROUND_ROBIN  # pairings set in advance (FIDE C.07 15.2)
    ranked = tiebreaks.rank(
        [e.pk for e in entries], value, computed, games, tournament.lowest_wins, tournament.rounds, fixed
    )
    explain = {tiebreaks.SONNEBORN_BERGER} | tiebreaks.BUCHHOLZ_FAMILY
    if SERIES_POINTS in names:  # rank by mini-games won, then by points
        ranked = sorted(ranked, key=lambda item: (-item[1][0], -series_points.get(item[0], 0.0)))
        ranked = [(player, keys + (series_points.get(player, 0.0),)) for player, keys in ranked]
    if finish:  # within a round reached, the place at the last table first (stable: tiebreaks after)
        ranked = sorted(ranked, key=lambda item: knockout_order(item, finish, by_seed))
    rows = []
    for player, keys in ranked:
        entry = by_pk[player]
        reached = finish.get(player, (0, 0))[0]
        rows.append(
            {
                "entry": entry,
                "player": entry.user.username,
                "bot": entry.user.is_bot,
                "seed": entry.seed,
                "points": None if keys[0] == NO_TOTAL else keys[0],
                "reached": stages.get(reached, ""),
                "games_won": games_won.get(player, 0),
                "tiebreaks": list(keys[1:]),
                "tiebreak": keys[1] if len(keys) > 1 else 0.0,
                "played": sum(1 for _, kind in points[player] if kind not in (scoring.BYE, scoring.LATE, NO_SHOW)),
                "missed": sum(1 for _, kind in points[player] if kind == scoring.LATE),
                "withdrawn": entry.withdrawn_after is not None,
                # a knockout player not yet out has no place to show until the event ends
                "still_in": tournament.status != Tournament.Status.FINISHED and finish.get(player, (0, 1))[1] == 0,
                "keys": knockout_keys(keys, finish[player]) if player in finish else tiebreaks.comparable(keys),
                "unplayed": tiebreaks.unplayed_words(player, games, value, tournament.rounds, fixed)
                if explain & set(computed) and not finish
                else "",
            }
        )
    for index, row in enumerate(rows):
        same = index and row["keys"] == rows[index - 1]["keys"]
        row["place"] = rows[index - 1]["place"] if same else index + 1
    return sorted(rows, key=lambda row: (row["place"], row["seed"] is None, row["seed"] or 0))  # shared: by seed


def missed_after_withdrawing(games: dict, entries: list, table_size: int) -> None:
    """A withdrawn Swiss player's rounds after withdrawing, so far: rounds missed (FIDE counts
    each as a zero-point bye), at the middle place of a table for the sum of places."""
    seated = max((g.round for own in games.values() for g in own), default=0)
    for entry in entries:
        if entry.withdrawn_after is None:
            continue
        had = {g.round for g in games[entry.pk]}
        games[entry.pk] += [
            tiebreaks.Game(number, 0.0, played=False, place=(table_size + 1) / 2, kind=tiebreaks.MISSED)
            for number in range(entry.withdrawn_after + 1, seated + 1)
            if number not in had
        ]


def player_games(tournament: Tournament) -> tuple[dict, dict]:
    """Each entry's games for the tiebreaks, and its (points, kind) per counted round
    (unplayed rounds left out; a forfeit by a player who never came is NO_SHOW), from two queries."""
    games: dict = defaultdict(list)
    scores = list(
        tournament.scores.exclude(kind=scoring.UNPLAYED).values_list("entry_id", "round", "table_id", "points", "kind")
    )
    by_table = defaultdict(dict)
    for entry_id, round_number, table_id, earned, kind in scores:
        sat_out = table_id is None and kind == scoring.BYE and not earned
        if sat_out and tournament.format == Tournament.Format.ROUND_ROBIN:
            continue  # a round robin's sit-out: everyone has one, it is no game and no draw (a crosstable's blank)
        if table_id is None:  # a bye or a round missed: the middle place of a table, for the sum of places
            middle = (tournament.table_size + 1) / 2
            if kind == scoring.BYE and earned and tournament.format == Tournament.Format.ROUND_ROBIN:
                gone = running.withdrawn_opponent(tournament, round_number, entry_id)  # the game a withdrawal left
                game = tiebreaks.Game(round_number, earned, False, kind=tiebreaks.FORFEIT_WIN, scheduled=(gone,))
            else:
                unplayed = tiebreaks.MISSED if kind == scoring.LATE else ""
                game = tiebreaks.Game(round_number, earned, played=False, place=middle, kind=unplayed)
            games[entry_id].append(game)
        else:
            by_table[table_id][entry_id] = (earned, kind)
    absent = set()
    corrected = set(ScoreCorrection.objects.filter(table__tournament=tournament).values_list("table_id", flat=True))
    tables = tournament.tables.filter(pk__in=list(by_table)).values_list("pk", "round", "seating", "match__result")
    for table_id, round_number, seating, stored in tables:
        order = pairing.rotate(seating, round_number) if tournament.fixed_tables else seating
        result = scoring.counted(tournament, stored)
        if table_id in corrected:  # the organizer's points decide who was ahead, for every tiebreak
            ranking = ranking_by_points(by_table[table_id])
        else:
            ranking = [[order[seat] for seat in group] for group in scoring.full_ranking(result, len(order))]
        counted_out = set((result or {}).get("forfeited", []))  # absent and forfeited, as the tournament counts it
        missing = [order[seat] for seat in (result or {}).get("absent", []) if seat in counted_out]
        # Not a game played for those who never came, nor for anyone where fewer than two came:
        # not in "Played", and for the tiebreaks an unplayed round, whoever played on for the absent.
        alone = len(order) - len(missing) < 2
        no_game = set(order if missing and alone else missing)
        absent.update((table_id, entry_id) for entry_id in no_game)
        for entry_id, (earned, kind) in by_table[table_id].items():
            if kind == scoring.PLAYED and entry_id not in no_game:
                games[entry_id].append(tiebreaks.game_at(round_number, earned, ranking, entry_id))
            else:
                walkover = entry_id not in missing and alone
                place = tiebreaks.game_at(round_number, earned, ranking, entry_id).place
                how = tiebreaks.FORFEIT_WIN if walkover else tiebreaks.FORFEIT_LOSS
                others = tuple(other for other in order if other != entry_id)
                games[entry_id].append(
                    tiebreaks.Game(
                        round_number, earned, False, place=place, forfeit_win=walkover, kind=how, scheduled=others
                    )
                )
    points: dict = defaultdict(list)
    for entry_id, _, table_id, earned, kind in scores:
        points[entry_id].append((earned, NO_SHOW if (table_id, entry_id) in absent else kind))
    return games, points


def ranking_by_points(earned: dict[int, tuple[float, str]]) -> list[list[int]]:
    """A corrected table's players in groups of equal points, most first."""
    levels = sorted({points for points, _ in earned.values()}, reverse=True)
    return [[entry_id for entry_id, (points, _) in earned.items() if points == level] for level in levels]


def knockout_games(tournament: Tournament, rounds: list[list[brackets.Slot]]) -> tuple[dict, dict, dict]:
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
    for slots in rounds:
        for slot in slots:
            # a series the seeds decided was won by nobody over the board: a shared place for the tiebreaks
            ranking = [list(slot.players)] if slot.by_seed else brackets.ranking(slot, two_seats)
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
    return games, brackets.finish(tournament, rounds), games_won


def normalised_totals(tournament: Tournament) -> dict:
    """Rounds total: each player's average game total, scaled per table size, times the rounds.

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


def dobble_points(tournament: Tournament) -> tuple[dict, dict]:
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


def size_factors(tournament: Tournament) -> dict[int, float]:
    """Rounds total with mixed table sizes: the factor each size's totals are scaled by."""
    if not tournament.lowest_wins:
        return {}
    factors = sorted((int(size), factor) for size, factor in tournament.size_factors.items())
    return {size: factor for size, factor in factors if factor != 1.0}


SCORING = {
    Tournament.Format.SWISS: "every round seats players with similar scores who have not met yet. A table gives each "
    "player the share of opponents they finished ahead of (1 for a win, 0.5 for a draw at two seats); a bye is worth "
    "1. A player who resigns or leaves is placed after everyone still playing, so of two who left a table the later "
    "one finished ahead of the first. Ties are split by the tiebreaks listed beside the standings.",
    Tournament.Format.ROUND_ROBIN: "everyone plays everyone once: 1 for a win, 0.5 for a draw. With an odd number of "
    "players each sits out one round, for no points; a game against a player who withdrew is won by forfeit (1). "
    "Ties are split by the tiebreaks listed beside the standings.",
    Tournament.Format.DOBBLE_SERIES: "each table plays one mini-game a round, opening with the towering inferno; the "
    "loser of each mini-game chooses the next. Towering inferno: +1 per card won, +5 for the most cards. The well: "
    "+10 first out, -20 last. Poisoned gift: +20 fewest cards, +10 second. Hot potato: -5 per round lost. Gotta "
    "catch them all: +1 per card. Most points wins (or most mini-games won, when the organizer chose the rulebook's "
    "way). Where table sizes differ, each mini-game's points are shifted per size so every size averages the same.",
    Tournament.Format.KNOCKOUT: "a seeded bracket, byes to the top seeds, each pairing a best-of series (a drawn "
    "game is replayed); the winner goes through. Standings: the round reached, then the place in the last pairing "
    "played (so the final gives the first two places), then pairings won.",
    "knockout-tables": "tables dealt by seed; the top players of each table go through until one table plays the "
    "final (where too few go through to fill a table, the best next places join them, second places before third, "
    "the better seed first). Standings: the round reached, then the place at the last table played (so the final "
    "table's order gives the first places), then tables won.",
    Tournament.Format.ROUNDS_TOTAL: "each table plays one game a round, the first seat moving on each time; every "
    "game's total is added up and the lowest total wins. Games not yet played do not count: a player's total is their "
    "average game times the rounds. Where table sizes differ, totals are scaled by size as measured with equal "
    "computer players, so a table's strength is never scaled away.",
}


def scoring_words(tournament: Tournament) -> str:
    """How the tournament is scored, in words; a knockout at larger tables runs differently from a bracket."""
    if tournament.format == Tournament.Format.KNOCKOUT and tournament.table_size > 2:
        return SCORING["knockout-tables"]
    if tournament.format == Tournament.Format.SWISS and tournament.accelerated_rounds:
        count = tournament.accelerated_rounds
        which = "round 1" if count == 1 else f"rounds 1 to {count}"
        return (
            f"{SCORING[tournament.format]} Accelerated: in {which} the top half of the seeds are paired as if a point "
            "ahead, so leaders meet sooner; that point never counts."
        )
    return SCORING[tournament.format]
