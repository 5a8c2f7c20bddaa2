"""A player's past games, as their profile lists them: newest first, each with who else sat at
the table and how it went for them, in words."""

from django.contrib.humanize.templatetags.humanize import ordinal
from django.db.models import Count, Prefetch

from games.engine import GAMES
from games.matches.models import Match, Seat


def seats_of(user, game: str | None = None):
    """The account's seats in games that ended (finished, or stopped under way), of one game or
    all, newest first, each with its match and the match's seats and players."""
    ended = Seat.objects.filter(user=user, match__finished_at__isnull=False)
    return (
        (ended.filter(match__game=game) if game else ended)
        .select_related("match")
        .defer("match__state")  # a list has no use for the snapshot
        .prefetch_related(Prefetch("match__seats", queryset=Seat.objects.select_related("user").order_by("number")))
        .order_by("-match__finished_at", "-match_id")
    )


def games_counted(user) -> list[tuple[str, str, int]]:
    """(slug, name, games ended) of each game the account has played, in the site's order."""
    counts = dict(
        Seat.objects.filter(user=user, match__finished_at__isnull=False)
        .values_list("match__game")
        .annotate(games=Count("id"))
    )
    return [(slug, engine.name, counts[slug]) for slug, engine in GAMES.items() if slug in counts]


def listed(seats) -> list[dict]:
    """One row per seat (a page of `seats_of`): the match, the others at the table and the outcome."""
    rows = []
    for seat in seats:
        others = [other for other in seat.match.seats.all() if other.pk != seat.pk]
        result = seat.match.result
        gone = [f"{other.user.display_name} {other.why_gone(result)}" for other in others if other.why_gone(result)]
        ended_by_them = seat.why_gone(result) is None and len(gone) == len(others)  # they all left the player alone
        rows.append(
            {"match": seat.match, "others": [other.user for other in others], "outcome": outcome(seat.match, seat)}
            | {"others_gone": gone if ended_by_them else []}  # "bob resigned": why the game ended early
        )
    return rows


def outcome(match: Match, seat: Seat) -> str:
    """How the game went for this seat: "Won", "Lost", "Drew", "2nd of 4", "=1st of 3", a solo
    score, with why the player was out of it ("Lost, resigned")."""
    result = match.result or {}
    if match.status == Match.Status.ABORTED:
        return "Stopped, no result"
    if match.players == 1:
        scores = result.get("scores") or {}
        score = scores.get("0", scores.get(0))
        words = "Finished" if score is None else f"Scored {score}"
    else:
        words = place_words(result.get("ranking") or [], seat.number, match.players)
    gone = seat.why_gone(result)
    return f"{words}, {gone}" if gone else words


def place_words(ranking: list[list[int]], number: int, players: int) -> str:
    before = 0
    for group in ranking:
        if number in group:
            if len(group) == players:
                return "Drew"
            if before == 0 and len(group) == 1:
                return "Won"
            if before + len(group) == players and players == 2:
                return "Lost"
            return f"{'=' if len(group) > 1 else ''}{ordinal(before + 1)} of {players}"
        before += len(group)
    return "No place"
