"""What a profile shows of ratings: each game's standing, its chart and recent rated matches.

accounts' profile view passes `profile_ratings(person)` as `ratings` to "ratings/_profile_ratings.html".
"""

from games.engine import GAMES
from ratings import elo
from ratings.charts import history_svg
from ratings.models import Rating, RatingChange

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
                "recent": latest[:RECENT],
            }
        )
    return rows
