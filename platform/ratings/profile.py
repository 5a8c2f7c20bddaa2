"""What a profile shows of ratings: each game's standing, its chart and recent rated matches.

accounts' profile view passes `profile_ratings(person)` as `ratings` to "ratings/_profile_ratings.html".
"""

from games.engine import GAMES
from games.matches.played import listed, seats_of
from ratings import elo
from ratings.charts import history_svg
from ratings.models import Rating, RatingChange
from ratings.table import ESTABLISHED_GAMES

CHART_GAMES = 200  # the chart shows the last 200 rated games of each game
RECENT = 5


def profile_ratings(user) -> list[dict]:
    """One dict per game the account has played rated: rating, name, chart (SVG), recent changes."""
    rows = []
    for rating in Rating.objects.filter(user=user, games__gt=0).order_by("game"):
        name = GAMES[rating.game].name if rating.game in GAMES else rating.game
        latest = list(RatingChange.newest_first(user, rating.game)[:CHART_GAMES])
        history = latest[::-1]
        points = [history[0].before] + [c.after for c in history] if history else []
        rows.append(
            {
                "rating": rating,
                "name": name,
                "chart": history_svg(
                    points,
                    elo.PROVISIONAL_GAMES,
                    f"{name} rating after each rated game",
                    first_game=history[0].games_before if history else 0,
                ),
                "recent": with_games(user, latest[:RECENT]),
                "established_games": ESTABLISHED_GAMES,
            }
        )
    return rows


def with_games(user, changes: list[RatingChange]) -> list[RatingChange]:
    """The changes, each with its game as the games list words it (`played`: the outcome, the others)."""
    games = {row["match"].pk: row for row in listed(seats_of(user).filter(match_id__in=[c.match_id for c in changes]))}
    for change in changes:
        change.played = games.get(change.match_id)
    return changes


def with_rating_changes(user, games: list[dict]) -> list[dict]:
    """The games list's rows, each with what it did to the player's rating (`rating_change`, None
    for a game not rated)."""
    changes = RatingChange.objects.filter(user=user, match_id__in=[row["match"].pk for row in games])
    by_match = {change.match_id: change for change in changes}
    return [{**row, "rating_change": by_match.get(row["match"].pk)} for row in games]
