"""From the database to swiss_pairing.py and back: what a Swiss round needs to know, in a few queries.

The order is score, then seed (the pairing number), not the tiebreaks, as in FIDE's systems.
Who has met (tables whose game was played or forfeited; a cancelled match does not count),
who has had a bye, who sat first how often, the forbidden pairs and the accelerated rounds
are read here; the pairing itself is pure (swiss_pairing.py).
"""

from collections import Counter, defaultdict

from games.engine import get_game
from games.matches import bulk
from ratings.elo import START
from tournaments import pairing, scoring, swiss_pairing
from tournaments.models import Entry, Score, Tournament

LATE_SEED = 10**9  # a late entrant has no seed: it ranks below every seeded player


def set_seeds(tournament: Tournament, entries: list[Entry], ratings: dict[int, float]) -> list[int]:
    """Each entry's place by its ladder rating at the start (the one the pages show; unrated
    players count the starting rating and follow the rated on it, then who entered first),
    kept with that rating: round 1, acceleration and brackets use the seeds. Returns the entry
    ids in seed order."""
    ranked = sorted(entries, key=lambda e: (-ratings.get(e.user_id, START), e.user_id not in ratings, e.joined_at))
    for seed, entry in enumerate(ranked, start=1):
        entry.seed, entry.rating = seed, ratings.get(entry.user_id)
    Entry.objects.bulk_update(ranked, ["seed", "rating"], batch_size=2000)
    return [entry.pk for entry in ranked]


@bulk.collector_paused()
def swiss_round(tournament: Tournament, round_number: int) -> tuple[list[list[int]], list[int]]:
    """Tables (entry ids in seat order) and byes for one Swiss round."""
    seeds = {
        pk: seed or LATE_SEED for pk, seed in tournament.entries.filter(withdrawn_after=None).values_list("pk", "seed")
    }
    points = dict.fromkeys(seeds, 0.0)
    scores = tournament.scores.exclude(kind=scoring.UNPLAYED).filter(entry__withdrawn_after=None)
    for entry_id, earned in scores.values_list("entry_id", "points"):
        points[entry_id] += earned
    order = sorted(seeds, key=lambda e: (-points[e], seeds[e]))  # as FIDE: score, then pairing number
    players = history(tournament, order, points)
    players.numbers, players.played = seeds, round_number - 1
    players.final_round = round_number == tournament.rounds
    if round_number <= tournament.accelerated_rounds:
        top = set(sorted(order, key=seeds.get)[: len(order) // 2])
        players.score = {e: points[e] + (1 if e in top else 0) for e in order}
        players.order = sorted(order, key=lambda e: -players.score[e])  # stable: standings within a group
    minimum = get_game(tournament.game).smallest_table
    sizes, bye_count = pairing.table_sizes(len(order), tournament.table_size, minimum)
    if tournament.table_size == 2:
        return swiss_pairing.pair_round(players)
    byes = choose_byes(players.order, bye_count, players.had_bye)
    players.order = [e for e in players.order if e not in byes]
    return swiss_pairing.seat_tables(players, sizes), byes


def history(tournament: Tournament, order: list[int], points: dict[int, float]) -> swiss_pairing.Field:
    """Who met whom, who sat first how often; at two seats, each player's seats in order ('w'
    moved first, 'b' second) and how they floated in the last two rounds they were paired in:
    down ('D': against a lower score, or a point without a game), up ('U'), or neither."""
    unplayed = set(
        Score.objects.filter(tournament=tournament, kind=scoring.UNPLAYED).values_list("table_id", flat=True)
    )
    earned: defaultdict = defaultdict(list)  # round -> (entry, points)
    without_game: defaultdict = defaultdict(set)  # round -> entries with points and no game
    for entry_id, round_, got, kind in tournament.scores.exclude(kind=scoring.UNPLAYED).values_list(
        "entry_id", "round", "points", "kind"
    ):
        earned[round_].append((entry_id, got))
        if kind in (scoring.BYE, scoring.WALKOVER) and got > 0:
            without_game[round_].add(entry_id)
    met: Counter = Counter()
    first_seats: defaultdict = defaultdict(int)
    last_first: dict[int, bool] = {}
    colours: defaultdict = defaultdict(str)
    floats: defaultdict = defaultdict(lambda: "  ")
    before: defaultdict = defaultdict(float)  # points before the round being read
    tables: defaultdict = defaultdict(list)  # round -> (table, seating)
    for table_id, round_, seating_ in tournament.tables.values_list("pk", "round", "seating"):
        tables[round_].append((table_id, seating_))
    for round_ in sorted(set(tables) | set(earned)):
        for table_id, seating_ in tables[round_]:
            if table_id in unplayed:
                continue
            for i, a in enumerate(seating_):
                for b in seating_[i + 1 :]:
                    met[frozenset((a, b))] += 1
                first_seats[a] += 1 if i == 0 else -1 if len(seating_) == 2 else 0
                last_first[a] = i == 0
            if len(seating_) == 2:
                for seat, (a, b) in enumerate((seating_, seating_[::-1])):
                    colours[a] += "wb"[seat]
                    mark = "D" if before[a] > before[b] else "U" if before[a] < before[b] else " "
                    floats[a] = mark + floats[a][0]
        for entry_id in without_game[round_]:
            floats[entry_id] = "D" + floats[entry_id][0]
        for entry_id, got in earned[round_]:
            before[entry_id] += got
    return swiss_pairing.Field(
        order=order,
        score=points,
        met=met,
        had_bye=won_without_playing(tournament),
        forbidden=forbidden_pairs(tournament),
        first_seats=dict(first_seats),
        last_first=last_first,
        colours=dict(colours),
        floats=dict(floats),
    )


def won_without_playing(tournament: Tournament) -> set[int]:
    """Who has had a bye or a point without a game (a walkover, an opponent who never came):
    FIDE gives the pairing bye to none of them while another player can take it (C.04.1 d)."""
    scores = Score.objects.filter(tournament=tournament)
    won = set(scores.filter(kind__in=(scoring.BYE, scoring.WALKOVER), points__gt=0).values_list("entry_id", flat=True))
    forfeited = set(scores.filter(kind=scoring.FORFEITED).values_list("table_id", flat=True))
    for table in tournament.tables.filter(pk__in=forfeited).select_related("match"):
        result = table.match.result if table.match and table.match.status == "finished" else None
        absent = {table.seating[seat] for seat in (result or {}).get("absent", [])}
        if absent and len(table.seating) - len(absent) < 2:  # nobody came to play the one who did
            won |= set(scores.filter(table=table, points__gt=0).exclude(entry_id__in=absent).values_list(
                "entry_id", flat=True))  # fmt: skip
    return won


def forbidden_pairs(tournament: Tournament) -> set[frozenset]:
    names = {name for pair in tournament.forbidden_pairs for name in pair}
    if not names:
        return set()
    entry_of = dict(tournament.entries.filter(user__username__in=names).values_list("user__username", "pk"))
    return {
        frozenset(entry_of[name] for name in pair)
        for pair in tournament.forbidden_pairs
        if len(pair) == 2 and all(name in entry_of for name in pair)
    }


def choose_byes(order: list[int], count: int, had_bye: set[int]) -> list[int]:
    """The lowest-placed players without a bye sit out; then, if need be, the lowest-placed."""
    byes = [e for e in reversed(order) if e not in had_bye][:count]
    byes += [e for e in reversed(order) if e not in byes][: count - len(byes)]
    return byes
