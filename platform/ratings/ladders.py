"""Leaderboard queries: a ladder, an account's place on it, and solo high scores.

A ladder ranks established ratings only (table.is_established: 30 rated games and sigma at most 5),
as Lichess ranks no provisional rating, and only those rated against LADDER_OPPONENTS different
opponents who were established when played (table.is_ranked): a new account, two accounts farming
each other, or a farmer's ring of fresh puppets has no place.

Every query here reads the (game, [is_bot,] -elo, user) indexes: a page is an index range and a
place is two index counts, so neither grows with the number of accounts beyond the counted range.
"""

from django.db.models import QuerySet

from games.engine import GAMES
from ratings.models import HighScore, Rating
from ratings.table import ESTABLISHED_GAMES, ESTABLISHED_SIGMA, LADDER_OPPONENTS

KINDS = {"all": None, "humans": False, "bots": True}
PAGE_SIZE = 50


def default_kind(game: str) -> str:
    """Real-time games (Dobble) rank people and bots apart unless asked: a program's reaction
    time is no measure of a person's, so one ladder would not compare like with like."""
    return "humans" if GAMES[game].realtime else "all"


def who_is_ranked(game: str, kind: str) -> str:
    """The ladder's rule in words, shown wherever its ratings are, so every page agrees."""
    if kind == "humans":
        apart = " (a program's reaction time is no measure of a person's)" if GAMES[game].realtime else ""
        return f"People only: bots are ranked apart{apart}."
    return "Bots only." if kind == "bots" else "People and bots share this ladder."


def clean_kind(kind: str | None, game: str) -> str:
    return kind if kind in KINDS else default_kind(game)


def kind_of(game: str, kind: str = "all") -> QuerySet[Rating]:
    """The game's ranked ratings of that kind (Rating.ranked), unordered (for counts and lookups)."""
    ratings = Rating.objects.filter(
        game=game,
        games__gte=ESTABLISHED_GAMES,
        sigma__lte=ESTABLISHED_SIGMA,
        established_opponents__gte=LADDER_OPPONENTS,
    )
    return ratings if KINDS.get(kind) is None else ratings.filter(is_bot=KINDS[kind])


def ladder(game: str, kind: str = "all") -> QuerySet[Rating]:
    """Best first; equal ratings in account order (the order of the index).

    The accounts come in a second query (prefetch): a join would be paid for every row that a
    deep page's OFFSET skips (75 ms instead of 4 ms for page 1,000 of 100,000 on SQLite).
    """
    return kind_of(game, kind).prefetch_related("user").order_by("-elo", "user_id")


def not_ranked_yet(game: str, kind: str = "all", limit: int = 10) -> list[Rating]:
    """The best provisional ratings of that kind, for a ladder with nobody established yet (a young
    site, a fresh demo): shown apart, under their own heading, and never once anybody is ranked."""
    established = {"games__gte": ESTABLISHED_GAMES, "sigma__lte": ESTABLISHED_SIGMA}
    ratings = Rating.objects.filter(game=game, games__gt=0).exclude(**established)
    if KINDS.get(kind) is not None:
        ratings = ratings.filter(is_bot=KINDS[kind])
    return list(ratings.prefetch_related("user").order_by("-elo", "user_id")[:limit])


def place_of(rating: Rating, kind: str = "all") -> int:
    """1-based place of a rating on its game's ladder of that kind."""
    same = kind_of(rating.game, kind)
    above = same.filter(elo__gt=rating.elo).count()
    tied_before = same.filter(elo=rating.elo, user_id__lt=rating.user_id).count()
    return above + tied_before + 1


def position(game: str, user, kind: str = "all") -> tuple[int | None, Rating] | None:
    """(place, rating) of the account's rating in the game; the place is None while the rating is
    off the ladder (Rating.unranked_because). None when never rated, or not of that kind."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    ratings = Rating.objects.filter(game=game, user=user, games__gt=0)
    rating = (ratings if KINDS.get(kind) is None else ratings.filter(is_bot=KINDS[kind])).first()
    if rating is None:
        return None
    return (place_of(rating, kind) if rating.ranked else None), rating


def page_of(place: int, per_page: int | None = None) -> int:
    return (place - 1) // (per_page or PAGE_SIZE) + 1


def high_scores(game: str, limit: int = 10) -> QuerySet[HighScore]:
    return HighScore.objects.filter(game=game).select_related("user").order_by("-score", "finished_at")[:limit]
