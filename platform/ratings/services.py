"""Rating finished matches (called once per finished match; retries and races are harmless).

`rate_match(match_id)` is the only writer of live ratings; `recompute.recompute()` rebuilds them.
"""

import logging

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.matches.models import Match, MatchAction
from ratings import skill
from ratings.models import HighScore, Rating, RatingChange
from ratings.table import Standing, places_from_ranking, rate_table

log = logging.getLogger(__name__)
PREDICTORS = ("elo", "openskill")
# bench/ratings.py: OpenSkill predicts held-out results of simulated bot populations better than Elo
# (docs/ratings.md, "Which rating predicts better"); settings.MATCHMAKING_RATING overrides it.
DEFAULT_PREDICTOR = "openskill"


def rating_for(user, game: str) -> Standing:
    """The account's standing in the game (elo, games, provisional, mu, sigma, peak, wins); a fresh
    1500 provisional standing for an account without rated games or an anonymous visitor."""
    if user is None or not getattr(user, "is_authenticated", False):
        return Standing()
    rating = Rating.objects.filter(user=user, game=game).first()
    return rating.standing() if rating else Standing()


def predictor() -> str:
    """ "elo" or "openskill": which rating the matchmaker pairs by (settings.MATCHMAKING_RATING)."""
    chosen = getattr(settings, "MATCHMAKING_RATING", DEFAULT_PREDICTOR)
    return chosen if chosen in PREDICTORS else DEFAULT_PREDICTOR


def matchmaking_rating(user, game: str) -> float:
    """The number the matchmaker pairs by, always on the Elo scale (1500 at the start)."""
    standing = rating_for(user, game)
    return skill.elo_scale(standing.mu) if predictor() == "openskill" else standing.elo


def ladder_ratings(game: str, user_ids) -> dict[int, float]:
    """Each rated account's Elo on the game's ladder, by account id (one query; the unrated are left out)."""
    return dict(Rating.objects.filter(game=game, user_id__in=user_ids).values_list("user_id", "elo"))


def why_not_rated(match: Match, seats: list | None = None) -> str | None:
    """None when the match counts; else why not (in words, as the table says it after "Not rated:").

    Rated: ranked, finished with a ranking, two seats or more that came (Match.absentees), and
    every seat that did not forfeit made at least one move of its own (a move the clock made for
    it does not count). So a table abandoned before anyone played is not rated, while a player
    who opened the table and left, even before moving, loses (the result already ranks forfeited
    seats last).
    """
    if match.status != Match.Status.FINISHED or not (match.result or {}).get("ranking"):
        return "not finished"
    if not match.ranked:
        return "not ranked"
    seats = seats if seats is not None else list(match.seats.select_related("user"))
    if len(seats) < 2:
        return "solo"
    forfeited = set(match.result.get("forfeited", [])) | {s.number for s in seats if s.forfeited_at}
    made = set(match.actions.values_list("seat", "source").distinct())  # who moved, and who the clock moved for
    moved = {seat for seat, source in made if source != MatchAction.Source.TIMEOUT}
    if len(seats) - len(match.absentees()) < 2:
        return "fewer than two players came"
    idle = [s for s in seats if s.number not in moved and s.number not in forfeited]
    if not idle:
        return None
    names = " and ".join(s.user.username for s in idle)
    if any((s.number, MatchAction.Source.TIMEOUT) in made for s in idle):
        return f"{names} made no move of their own"
    return f"the game ended before {names} had a move"


def rate_match(match_id: int) -> list[RatingChange]:
    """Apply a finished ranked match to every seat's ratings, exactly once; returns the new rows."""
    with transaction.atomic():
        # The match row lock serialises retries of the same task: the second one waits here,
        # then finds the ledger rows the first one wrote and does nothing.
        match = Match.objects.select_for_update().filter(pk=match_id).defer("state").first()  # no snapshot needed
        if match is None or match.rating_changes.exists():
            return []
        if match.players == 1:
            record_high_score(match)
            return []
        seats = sorted(match.seats.select_related("user"), key=lambda s: s.number) if match.ranked else []
        reason = why_not_rated(match, seats)
        if reason:
            log.info("%s is not rated: %s", match, reason)
            return []
        # A seat whose player never came did not play: rated among the others only, as FIDE
        # rates no forfeit (the result still ranks them last).
        absent = match.absentees()
        seats = [seat for seat in seats if seat.number not in absent]
        ranking = [[n for n in group if n not in absent] for group in match.result["ranking"]]
        place = places_from_ranking([group for group in ranking if group], 1 + max(seat.number for seat in seats))
        ratings = lock_ratings(match.game, [seat.user for seat in seats])
        before = [ratings[seat.user_id].standing() for seat in seats]
        after = rate_table(before, [place[seat.number] for seat in seats])
        changes = []
        for seat, old, new in zip(seats, before, after, strict=True):
            rating = ratings[seat.user_id]
            rating.set_standing(new)
            rating.is_bot, rating.updated_at = seat.user.is_bot, timezone.now()
            changes.append(
                RatingChange(
                    match=match,
                    user=seat.user,
                    game=match.game,
                    seat=seat.number,
                    place=place[seat.number] + 1,
                    before=old.elo,
                    after=new.elo,
                    delta=new.elo - old.elo,
                    mu_before=old.mu,
                    mu_after=new.mu,
                    sigma_before=old.sigma,
                    sigma_after=new.sigma,
                    games_before=old.games,
                    finished_at=match.finished_at or match.started_at or match.created_at,
                )
            )
        Rating.objects.bulk_update(
            ratings.values(), ["elo", "peak", "games", "wins", "mu", "sigma", "is_bot", "updated_at"]
        )
        return RatingChange.objects.bulk_create(changes)


def lock_ratings(game: str, users) -> dict[int, Rating]:
    """The players' rating rows in this game, created at 1500 if new, locked in user id order.

    One order for every caller, so two matches sharing players never wait on each other in a cycle:
    the new rows too, since inserting a key another transaction has just inserted waits for it.
    """
    new = [Rating(user=user, game=game, is_bot=user.is_bot) for user in sorted(users, key=lambda user: user.pk)]
    Rating.objects.bulk_create(new, ignore_conflicts=True)
    locked = Rating.objects.select_for_update().filter(game=game, user__in=users).order_by("user_id")
    return {rating.user_id: rating for rating in locked}


def record_high_score(match: Match) -> HighScore | None:
    """A finished solo game's score (result["scores"]["0"]) goes to the high-score table, once."""
    if match.status != Match.Status.FINISHED or not match.result or match.result.get("forfeited"):
        return None
    scores = match.result.get("scores") or {}
    score = scores.get("0", scores.get(0))
    seat = match.seats.select_related("user").first()
    if score is None or seat is None:
        return None
    high_score, _ = HighScore.objects.get_or_create(
        match=match,
        defaults={
            "user": seat.user,
            "game": match.game,
            "score": int(score),
            "finished_at": match.finished_at or match.created_at,
        },
    )
    return high_score
