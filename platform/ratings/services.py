"""Rating finished matches (called once per finished match; retries and races are harmless).

`rate_match(match_id)` is the only writer of live ratings; `recompute.recompute()` rebuilds them.
"""

import logging
from collections import Counter
from datetime import timedelta
from itertools import combinations

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from games.matches import occasions
from games.matches.models import Match, MatchAction
from ratings import skill
from ratings.models import HighScore, Rating, RatingChange
from ratings.table import ESTABLISHED_GAMES, ESTABLISHED_SIGMA, Standing, places_from_ranking, rate_table

log = logging.getLogger(__name__)
PREDICTORS = ("elo", "openskill")
# bench/ratings.py: OpenSkill predicts held-out results of simulated bot populations better than Elo
# (docs/ratings.md, "Which rating predicts better"); settings.MATCHMAKING_RATING overrides it.
DEFAULT_PREDICTOR = "openskill"
# Rated games one pair of accounts may play together in one game in 24 hours (docs/security.md, "Fair
# play"): two accounts farming each other gain at most what 5 wins give (+80 from 1500, against the
# +252 of 20 wins over different players), and a rating rests on 30 games before it is ranked.
PAIR_GAMES_PER_DAY = 5
PAIR_WINDOW = timedelta(hours=24)


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

    The one rule for every finished game, whatever the game, the way it ended or the score
    (docs/ratings.md, "What is rated"): `why_not_counted` for the match itself, then
    `pair_limit_reached` for who played it.
    """
    seats = seats if seats is not None else list(match.seats.select_related("user"))
    return why_not_counted(match, seats) or pair_limit_reached(match, seats)


def why_not_counted(match: Match, seats: list) -> str | None:
    """Rated: ranked, finished with a ranking, two seats or more that came (Match.absentees), and
    neither aborted nor idle:

    - aborted (Lichess): somebody resigned, left or was counted out ("timed out") while a player
      who came had not yet made a move of their own. So a resignation at once gains the other player nothing.
      An event's game is not aborted for the event: its result stands there (an arena gives the win, as
      Lichess does a player who never moved), so the words say the event counts it.
    - idle: a seat whose every move the clock made for it did not take part (`Match.idle_seats`,
      the fact an event reads too: it counts the game as lost by that player, and the words say so,
      in the round list's sentence (`occasions.no_move_words`), also where the clock counted them out).

    A game played to its end by its rules is rated whoever scored what: a Dobble 53-0 as much as a
    40-13, a duel that ended before one player's turn came as much as a long one.
    """
    if match.status != Match.Status.FINISHED or not (match.result or {}).get("ranking"):
        return "not finished"
    if not match.ranked:
        return "not ranked"
    if len(seats) < 2:
        return "solo"
    absent = match.absentees()
    if len(seats) - len(absent) < 2:
        return "fewer than two players came"
    present = [s for s in seats if s.number not in absent]
    made = set(match.actions.values_list("seat", "source").distinct())  # who moved, and who the clock moved for
    moved = {seat for seat, source in made if source != MatchAction.Source.TIMEOUT}
    forfeited = set(match.result.get("forfeited", [])) | {s.number for s in seats if s.forfeited_at}
    unmoved = [s for s in present if s.number not in moved]
    idle = [s for s in seats if s.number in match.idle_seats()]
    aborted = bool(forfeited - absent and unmoved)
    occasion = occasions.of(match) if idle or aborted else None
    if occasion is not None and idle:  # counted out or not, as the event's round list says it
        return occasions.no_move_words(names(idle))
    if aborted:
        gone = [s for s in seats if s.number in forfeited - absent]
        said = " and ".join(f"{s.user.username} {'timed out' if s.counted_out else 'left'}" for s in gone)
        if occasion is not None:
            return f"{said} before every player had made a move ({occasion.event} counts the game as played)"
        return f"aborted: {said} before every player had made a move"
    return f"{names(idle)} made no move of their own" if idle else None


def pair_limit_reached(match: Match, seats: list) -> str | None:
    """Two accounts that already played PAIR_GAMES_PER_DAY rated games of this game together in the
    24 hours before this one ended are not rated against each other again that day (two accounts
    farming each other: docs/security.md, "Fair play"). An event's own games are exempt: an
    organizer, not the players, pairs them (a Dobble series plays one pair many times)."""
    if occasions.of(match) is not None:
        return None
    absent = match.absentees()
    users = {s.user_id: s.user for s in seats if s.number not in absent}
    ended = match.finished_at or timezone.now()
    together = games_together(match.game, list(users), ended, leave_out=match.pk)
    for (one, other), count in sorted(together.items()):
        if count >= PAIR_GAMES_PER_DAY:
            return (
                f"{users[one].username} and {users[other].username} have played {count} rated "
                f"{match.get_game_display()} games together in the last 24 hours"
            )
    return None


def games_together(game: str, user_ids: list[int], until, leave_out: int | None = None) -> Counter:
    """{(smaller id, larger id): rated tables of the game the two shared} in the PAIR_WINDOW up to `until`."""
    earlier = RatingChange.objects.filter(
        game=game, user_id__in=user_ids, finished_at__gt=until - PAIR_WINDOW, finished_at__lte=until
    ).exclude(match_id=leave_out)
    tables: dict[int, set[int]] = {}
    for match_id, user_id in earlier.values_list("match_id", "user_id"):
        tables.setdefault(match_id, set()).add(user_id)
    return Counter(pair for players in tables.values() for pair in combinations(sorted(players), 2))


def pairs_at_limit(game: str, user_ids: list[int], now=None) -> set[tuple[int, int]]:
    """The pairs among these accounts that a new rated game of `game` would not rate (for pairing)."""
    together = games_together(game, user_ids, now or timezone.now())
    return {pair for pair, count in together.items() if count >= PAIR_GAMES_PER_DAY}


def names(seats: list) -> str:
    return " and ".join(s.user.username for s in seats)


def rate_match(match_id: int) -> list[RatingChange]:
    """Apply a finished ranked match to every seat's ratings, exactly once; returns the new rows."""
    if Match.objects.filter(pk=match_id, ranked=False, players__gt=1).exists():
        return []  # never rated (`why_not_counted`): no lock taken, on SQLite the whole database's
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
        reason = why_not_counted(match, seats)
        if reason:
            log.info("%s is not rated: %s", match, reason)
            return []
        # A seat whose player never came did not play: rated among the others only, as FIDE
        # rates no forfeit (the result still ranks them last).
        absent = match.absentees()
        ranking = [[n for n in group if n not in absent] for group in match.result["ranking"]]
        playing = [seat for seat in seats if seat.number not in absent]
        # The players' rows are locked before counting their games together: two of their matches
        # ending at once are counted one after the other, so neither slips past the limit.
        ratings = lock_ratings(match.game, [seat.user for seat in playing])
        reason = pair_limit_reached(match, seats)
        if reason:
            log.info("%s is not rated: %s", match, reason)
            return []
        seats = playing
        place = places_from_ranking([group for group in ranking if group], 1 + max(seat.number for seat in seats))
        before = [ratings[seat.user_id].standing() for seat in seats]
        after = rate_table(before, [place[seat.number] for seat in seats])
        changes = []
        vouching = [seat.user for seat, old in zip(seats, before, strict=True) if vouches(seat.user, old)]
        for seat, old, new in zip(seats, before, after, strict=True):
            rating = ratings[seat.user_id]
            rating.set_standing(new)
            rating.established_opponents += len(new_established_opponents(match, seat.user, vouching))
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
            ratings.values(),
            ["elo", "peak", "games", "wins", "mu", "sigma", "is_bot", "established_opponents", "updated_at"],
        )
        return RatingChange.objects.bulk_create(changes)


def is_house_bot(user) -> bool:
    """The site's own programs: bot accounts nobody owns (lifecycle.house_bot_user)."""
    return user.is_bot and user.bot_owner_id is None


def vouches(user, standing: Standing) -> bool:
    """A game against this player counts towards a ladder place (docs/ratings.md, "A place on the
    ladder"): established before the game, or a house bot, whose strength nobody can lend."""
    return not standing.provisional or is_house_bot(user)


def new_established_opponents(match: Match, user, vouching: list) -> list:
    """The players of `vouching` at this table whom the account had not yet played while they vouched."""
    theirs = RatingChange.objects.filter(game=match.game, user=user).exclude(match=match).values("match_id")
    earlier = RatingChange.objects.filter(game=match.game, match__in=theirs)
    found = []
    for other in vouching:
        if other.pk == user.pk:
            continue
        met = earlier.filter(user=other)
        if not is_house_bot(other):
            met = met.filter(games_before__gte=ESTABLISHED_GAMES, sigma_before__lte=ESTABLISHED_SIGMA)
        if not met.exists():
            found.append(other)
    return found


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
