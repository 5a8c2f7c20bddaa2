"""Standings: who leads a tournament, computed from its Score rows and its tables' results.

What the players are ranked by (points, a total where the lowest wins, the round a knockout
reached) and the tiebreaks when the organizer names none are the format's (TournamentFormat.
ranking, default_tiebreaks). Ties are split by the tournament's ordered tiebreaks
(tiebreaks.py). An unplayed game (cancelled match, not yet played) never counts as a score.
Players equal on everything share a place.
"""

from collections import defaultdict

from django.db.models import Max

from tournaments import scoring, tiebreaks
from tournaments.models import ScoreCorrection, Tournament

NO_SHOW = "no-show"  # a table a player never came to or made no move at, where fewer than two took part, or a
# double forfeit: no game played
NO_TOTAL = float("inf")  # a rounds total before the player's first game ends: below every total
SERIES_POINTS = "points"  # the Dobble point system, as a tiebreak when the series ranks by mini-games won

TIEBREAK_LABELS = tiebreaks.NAMES | {SERIES_POINTS: "Series points"}
EXPLANATIONS = tiebreaks.EXPLANATIONS | {SERIES_POINTS: "points by the Dobble point system"}

def tiebreak_names(tournament: Tournament) -> list[str]:
    return list(tournament.tiebreaks) or tournament.rules.default_tiebreaks()


def tiebreak_labels(tournament: Tournament) -> list[dict]:
    """The tiebreaks in the tournament's order, each with its name and what it counts, in words."""
    rules, labels = tournament.rules, []
    for name in tiebreak_names(tournament):
        label, meaning = rules.tiebreak_words(name, TIEBREAK_LABELS.get(name, name), EXPLANATIONS.get(name, ""))
        labels.append({"name": name, "label": label, "meaning": meaning})
    return labels


def knockout_order(item: tuple, progress: dict, seeds: dict) -> tuple:
    """A knockout's order: the round reached, then the place at the last table; players sharing
    both (still playing, or out in the same round) by seed, not by tiebreaks: a bye is not a
    round won, so counting pairings won would put a top seed with a bye below a lower seed."""
    player, keys = item
    _, place = progress.get(player, (0, 0))
    return (-keys[0], place, seeds.get(player, 0))


def knockout_keys(keys: tuple, progress: tuple[int, int]) -> tuple:
    """What a knockout place is decided by: those still playing one round share its place, and so
    do those out in the same round at the same place (two semi-final losers share third, as
    without a third-place match in FIDE's knockouts)."""
    _, place = progress
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
    rules = tournament.rules
    games, points = player_games(tournament)
    missed_while_withdrawn(tournament, games)
    ranking = rules.ranking(entries, games, points)
    games, progress, games_won, stages = ranking.games, ranking.progress, ranking.games_won, ranking.stages
    # No game finished yet: no total, which must not read as the best one where the lowest wins.
    nothing = NO_TOTAL if rules.lowest_wins else 0.0
    value = {e.pk: ranking.value.get(e.pk, nothing) for e in entries}
    names = tiebreak_names(tournament)
    series_points = ranking.series_points
    computed = [name for name in names if name != SERIES_POINTS]
    fixed = rules.pairings_fixed_in_advance  # FIDE C.07 15.2
    ranked = tiebreaks.rank(
        [e.pk for e in entries], value, computed, games, rules.lowest_wins, tournament.rounds, fixed
    )
    explain = {tiebreaks.SONNEBORN_BERGER} | tiebreaks.BUCHHOLZ_FAMILY
    if SERIES_POINTS in names:  # rank by mini-games won, then by points
        ranked = sorted(ranked, key=lambda item: (-item[1][0], -series_points.get(item[0], 0.0)))
        ranked = [(player, keys + (series_points.get(player, 0.0),)) for player, keys in ranked]
    if progress:  # within a round reached, the place at the last table first (stable: tiebreaks after)
        ranked = sorted(ranked, key=lambda item: knockout_order(item, progress, by_seed))
    rows = []
    for player, keys in ranked:
        entry = by_pk[player]
        reached = progress.get(player, (0, 0))[0]
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
                "still_in": tournament.status != Tournament.Status.FINISHED and progress.get(player, (0, 1))[1] == 0,
                "keys": knockout_keys(keys, progress[player]) if player in progress else tiebreaks.comparable(keys),
                "unplayed": tiebreaks.unplayed_words(player, games, value, tournament.rounds, fixed)
                if explain & set(computed) and not progress
                else "",
            }
        )
    for index, row in enumerate(rows):
        same = index and row["keys"] == rows[index - 1]["keys"]
        row["place"] = rows[index - 1]["place"] if same else index + 1
    return sorted(rows, key=lambda row: (row["place"], row["seed"] is None, row["seed"] or 0))  # shared: by seed


def missed_while_withdrawn(tournament: Tournament, games: dict) -> None:
    """Rounds not paired (FIDE counts each as a zero-point bye), at the middle place of a table for
    the sum of places."""
    middle = (tournament.table_size + 1) / 2
    for entry_id, number in rounds_not_paired(tournament):
        games[entry_id].append(tiebreaks.Game(number, 0.0, played=False, place=middle, kind=tiebreaks.MISSED))


def rounds_not_paired(tournament: Tournament) -> list[tuple[int, int]]:
    """(entry id, round) of each round so far in which a Swiss player has neither a table nor a
    score: those after withdrawing, and those between a withdrawal and being paired again. One
    list, so the standings that count them and the round lists that show them agree."""
    if not tournament.rules.misses_rounds_after_withdrawing:
        return []
    seated = tournament.scores.exclude(kind=scoring.UNPLAYED).aggregate(last=Max("round"))["last"] or 0
    there = set(tournament.scores.values_list("entry_id", "round"))  # a stopped game's unplayed rows too
    for number, seating in tournament.tables.filter(round__lte=seated).values_list("round", "seating"):
        there.update((entry_id, number) for entry_id in seating)  # a game still under way
    entries = tournament.entries.order_by("joined_at", "pk").values_list("pk", flat=True)
    return [(entry_id, n) for entry_id in entries for n in range(1, seated + 1) if (entry_id, n) not in there]


def player_games(tournament: Tournament) -> tuple[dict, dict]:
    """Each entry's games for the tiebreaks, and its (points, kind) per counted round
    (unplayed rounds left out; a forfeit by a player who never came is NO_SHOW), from two queries."""
    games: dict = defaultdict(list)
    rules = tournament.rules
    scores = list(
        tournament.scores.exclude(kind=scoring.UNPLAYED).values_list("entry_id", "round", "table_id", "points", "kind")
    )
    by_table = defaultdict(dict)
    for entry_id, round_number, table_id, earned, kind in scores:
        sat_out = table_id is None and kind == scoring.BYE and not earned
        if sat_out and not rules.sitting_out_is_a_game:
            continue  # a round robin's sit-out: everyone has one, it is no game and no draw (a crosstable's blank)
        if table_id is None:  # a bye or a round missed: the middle place of a table, for the sum of places
            middle = (tournament.table_size + 1) / 2
            if kind == scoring.BYE and earned and rules.pairings_fixed_in_advance:
                gone = rules.withdrawn_opponent(round_number, entry_id)  # the game a withdrawal left
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
        order = rules.seat_order(seating, round_number)
        result = scoring.counted_result(tournament, stored)
        if table_id in corrected:  # the organizer's points decide who was ahead, for every tiebreak
            ranking = ranking_by_points(by_table[table_id])
        else:
            ranking = [[order[seat] for seat in group] for group in scoring.full_ranking(result, len(order))]
        counted_out = set((result or {}).get("forfeited", []))  # absent and forfeited, as the tournament counts it
        # who never came, or came and made no move of their own: a forfeit, no game (FIDE)
        took_no_part = set((result or {}).get("absent", [])) | set((result or {}).get("idle", []))
        missing = [order[seat] for seat in sorted(took_no_part & counted_out)]
        # The organizer's 0 for everyone: a double forfeit, lost by both and played by neither (FIDE).
        double = table_id in corrected and scoring.everyone_forfeited(kind for _, kind in by_table[table_id].values())
        # Not a game played for those who never came or made no move, nor for anyone where fewer than two
        # took part or all forfeited: not in "Played", and for the tiebreaks an unplayed round, whoever
        # played on for them.
        alone = len(order) - len(missing) < 2
        no_game = set(order if double or missing and alone else missing)
        absent.update((table_id, entry_id) for entry_id in no_game)
        for entry_id, (earned, kind) in by_table[table_id].items():
            if kind == scoring.PLAYED and entry_id not in no_game:
                games[entry_id].append(tiebreaks.game_at(round_number, earned, ranking, entry_id))
            else:
                walkover = not double and entry_id not in missing and alone
                # a forfeit counts last in the sum of places, and in a double forfeit everyone forfeited
                place = len(order) if double else tiebreaks.game_at(round_number, earned, ranking, entry_id).place
                # lost by forfeit by whoever forfeited or never came; won by forfeit by the others
                lost = kind == scoring.FORFEITED or entry_id in missing
                how = tiebreaks.DOUBLE_FORFEIT if double else tiebreaks.FORFEIT_LOSS if lost else tiebreaks.FORFEIT_WIN
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
