"""Bluff and doubt statistics: how often a player bluffed, was caught, doubted and was right.

Each game that has bluffing counts from its public history (the `bluff_tally` its package
registers, games/<game>/bluffs.py), so a bluff counts only where the rules showed it. A
finished match is replayed from its seed and log and its counts stored per account
(`BluffRecord`); profiles and the API sum those rows.

Only a player's own moves count: the log's `source` tells which moves the server made for a
seat (a timeout's default move; a house bot finishing for a player who left).
"""

import logging

from django.db import transaction
from django.db.models import Count, Sum

from games.engine import GAMES, IllegalAction
from games.matches.models import Match, MatchAction
from games.registry import REGISTRY
from ratings.models import BluffRecord

logger = logging.getLogger(__name__)
FIELDS = ("claims", "judged", "bluffs", "caught", "chances", "doubts", "doubts_right")


def record_bluffs(match_id: int) -> int:
    """Store the finished match's counts for each seated account; idempotent. How many rows it wrote."""
    tallied = [slug for slug, registration in REGISTRY.items() if registration.bluff_tally]
    finished = Match.objects.filter(pk=match_id, status=Match.Status.FINISHED, game__in=tallied)
    match = finished.only("game", "players", "seed", "options").first()  # not the snapshot: a replay needs none
    if match is None:
        return 0
    seats = list(match.seats.values_list("number", "user_id", "user__is_bot", "user__bot_owner"))
    # A house bot's moves are its own; on anybody else's seat a house bot only ever finishes for them.
    house_bots = {number for number, _, is_bot, owner in seats if is_bot and owner is None}
    try:
        history, server_made = replay_marked(match, house_bots)
    except IllegalAction as error:  # a log the engine cannot replay says nothing about bluffs
        logger.warning("match %s: no bluff figures, its log does not replay: %s", match_id, error)
        return 0
    counts = REGISTRY[match.game].bluff_tally(history, server_made)
    rows = []
    for number, user_id, _, _ in seats:
        mine = counts.get(number, {})
        rows.append(BluffRecord(match=match, user_id=user_id, game=match.game, **{f: mine.get(f, 0) for f in FIELDS}))
    with transaction.atomic():
        BluffRecord.objects.bulk_create(rows, ignore_conflicts=True)
    return len(rows)


def replay_marked(match: Match, house_bots: set[int]) -> tuple[list[dict], list[frozenset[int]]]:
    """The match's public history, and per event the seats whose part in it the server played
    (its timeouts' moves, and a house bot's on a seat not its own: `house_bots` are the seats
    house bots hold).

    A server-made move that adds no event at once (a pass while others may still doubt) marks
    the event that closes its turn."""
    engine = GAMES[match.game]
    state = engine.new_game(match.players, match.seed, match.options)
    server_made = [frozenset()] * len(state.history)
    pending: set[int] = set()
    for seat, action, source in match.actions.values_list("seat", "action", "source"):
        state = engine.apply(state, seat, action)
        if source == MatchAction.Source.TIMEOUT or (source == MatchAction.Source.HOUSE and seat not in house_bots):
            pending.add(seat)
        if len(state.history) > len(server_made):
            server_made += [frozenset(pending)] * (len(state.history) - len(server_made))
            pending = set()
    return state.history, server_made


def player_bluffs(user) -> list[dict]:
    """One dict per game with counts and rates (None where nothing was shown yet), sorted by game name."""
    totals = (
        BluffRecord.objects.filter(user=user)
        .values("game")
        .annotate(matches=Count("id"), **{f: Sum(f) for f in FIELDS})
    )
    rows = [summarise(row) for row in totals]
    return sorted(rows, key=lambda row: row["name"])


def summarise(row: dict) -> dict:
    def rate(part: int, whole: int) -> float | None:
        return round(part / whole, 3) if whole else None

    return {
        **row,
        "name": GAMES[row["game"]].name,
        "bluff_rate": rate(row["bluffs"], row["judged"]),
        "caught_rate": rate(row["caught"], row["bluffs"]),
        "doubt_rate": rate(row["doubts"], row["chances"]),
        "doubt_accuracy": rate(row["doubts_right"], row["doubts"]),
    }
