"""Playing someone again or by name: the rematch of a finished table and the challenge.

Both end in an ordinary match started through the match service; the people involved are
told through their sockets (the finished table's group, the lobby's per-user group).
"""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.engine import GAMES
from games.lobby.models import Challenge, Rematch
from games.matches import broadcast, lifecycle, occasions
from games.matches.errors import MatchError
from games.matches.models import Match
from games.matches.time_controls import PRESETS, QUICK_PAIRING

# Challenges by name, limited (docs/security.md, "Challenges"): 200 of them once grew every page
# of the one challenged from 6 KB to 114 KB. One waiting challenge per sender and person; a
# sender sends at most SENT_PER_HOUR; a person has at most WAITING_AT_MOST waiting, and every
# page's header lists no more.
SENT_PER_HOUR = 20
WAITING_AT_MOST = 10


def offer_rematch(match_id: int, user) -> Match | None:
    """Ask for (or agree to) a rematch; the new match once every person at the table has.

    Bots agree at once. The seats turn by one, so another player opens the new match.
    """
    with transaction.atomic():
        match = lifecycle.locked(match_id)
        if match.status != Match.Status.FINISHED:
            raise MatchError("not_finished", "A rematch is offered once the match is over.")
        occasion = occasions.of(match)
        if occasion is not None:
            raise MatchError("bad_request", f"{occasion.event} seats your next game itself: a rematch is not offered.")
        seats = list(match.seats.select_related("user").order_by("number"))
        if not any(seat.user_id == user.pk for seat in seats):
            raise MatchError("not_seated", "Only the players of this match can ask for a rematch.")
        rematch, _ = Rematch.objects.get_or_create(match=match)
        if rematch.new_match_id is None:
            rematch.accepted_by = sorted(set(rematch.accepted_by) | {user.pk})
            people = {seat.user_id for seat in seats if not seat.user.is_bot}
            if people <= set(rematch.accepted_by):
                rematch.new_match = start_again(match, seats)
            rematch.save()
        message = rematch_message(match, rematch)
        transaction.on_commit(lambda: broadcast.send_to_table(match.pk, message))
    return rematch.new_match


def start_again(match: Match, seats: list) -> Match:
    turned = seats[1:] + seats[:1]
    return lifecycle.start_seated_match(
        game=match.game,
        # A person who resigned had a house bot finish for them; in the new match they play again.
        seats=[
            {"user": s.user, "house_bot": s.house_bot if s.user.is_bot else "", "code_version": s.code_version}
            for s in turned
        ],
        now=timezone.now(),
        options=match.options,
        ranked=match.ranked and not any(brought_bot(seat) for seat in seats),
        clock=match.clock,
        clock_initial_ms=match.clock_initial_ms,
        clock_increment_ms=match.clock_increment_ms,
    )


def brought_bot(seat) -> bool:
    """A programmer's bot: its owner never agreed to a ranked rematch, so one is played casual."""
    return seat.user.is_bot and not seat.house_bot


def rematch_asked(match: Match) -> dict | None:
    """The rematch asked for at this finished table and not yet started, as its push says it; None
    if nobody asked, or once it started (an old table's page is not sent on to the new match)."""
    rematch = Rematch.objects.filter(match=match, new_match=None).prefetch_related("match__seats__user").first()
    return None if rematch is None else rematch_message(match, rematch)


def rematch_message(match: Match, rematch: Rematch) -> dict:
    """What the finished table hears: who asked, and where the new match is once it starts."""
    url = f"/match/{rematch.new_match_id}/" if rematch.new_match_id else None
    return {"type": "rematch", "match": match.pk, "asked_by": rematch.asked_by(), "url": url}


def challenge(challenger, username: str, game: str, time_control: str) -> Challenge:
    """Invite a person by name to a two-player game; they answer from any page's header."""
    if game not in GAMES or GAMES[game].min_players > 2:
        raise MatchError("bad_request", "Challenges are for two-player games.")
    if time_control not in QUICK_PAIRING:
        raise MatchError("bad_request", "Choose one of the offered time controls.")
    challenged = get_user_model().objects.filter(username__iexact=username.strip()).first()
    if challenged is None or challenged.is_bot:
        raise MatchError("not_found", f"There is no player called {username!r} (to play a bot, play the computer).")
    if challenged.pk == challenger.pk:
        raise MatchError("bad_request", "You cannot challenge yourself.")
    with transaction.atomic():
        # The one challenged is locked, so two challenges at once cannot both take the last place.
        get_user_model().objects.select_for_update().filter(pk=challenged.pk).first()
        check_room(challenger, challenged, game)
        sent = Challenge.objects.create(
            challenger=challenger, challenged=challenged, game=game, time_control=time_control
        )
        notice = {"type": "challenge", "game": game, "from": challenger.username}
        transaction.on_commit(
            lambda: broadcast.deliver([(broadcast.user_group(challenged.pk), broadcast.push(notice))])
        )
    return sent


def check_room(challenger, challenged, game: str) -> None:
    """The limits of challenges by name, each refused with what to do: one waiting a game from one
    player to another (a player may offer a friend two games at once), a sender's hour, a person's list."""
    waiting = Challenge.objects.filter(challenged=challenged, status=Challenge.Status.PENDING)
    if waiting.filter(challenger=challenger, game=game).exists():
        game_name = GAMES[game].name
        raise MatchError(
            "too_many", f"Your {game_name} challenge to {challenged.username} is still waiting for an answer."
        )
    an_hour_ago = timezone.now() - timedelta(hours=1)
    if Challenge.objects.filter(challenger=challenger, created_at__gte=an_hour_ago).count() >= SENT_PER_HOUR:
        raise MatchError("too_many", f"You have sent {SENT_PER_HOUR} challenges in the last hour: wait a little.")
    if waiting.count() >= WAITING_AT_MOST:
        raise MatchError(
            "too_many", f"{challenged.username} has {WAITING_AT_MOST} challenges waiting already: try later."
        )


def pending_for(user) -> list[Challenge]:
    """The challenges of every game waiting for the user's answer (every page's header lists them),
    newest first, never more than a person may have waiting."""
    waiting = Challenge.objects.filter(challenged=user, status=Challenge.Status.PENDING).select_related("challenger")
    return list(waiting[:WAITING_AT_MOST])


def answer(challenge_id: int, user, accept: bool) -> Match | None:
    """Accept (the match starts, the challenger is sent to it) or decline a challenge."""
    with transaction.atomic():
        found = Challenge.objects.select_for_update().filter(pk=challenge_id, challenged=user).first()
        if found is None or found.status != Challenge.Status.PENDING:
            raise MatchError("not_found", "That challenge is no longer waiting for you.")
        if not accept:
            found.status = Challenge.Status.DECLINED
            found.save(update_fields=["status"])
            said = f"{user.username} declined your {found.get_game_display()} challenge."
            notice = {"type": "challenge_declined", "game": found.game, "by": user.username, "text": said}
            transaction.on_commit(
                lambda: broadcast.deliver([(broadcast.user_group(found.challenger_id), broadcast.push(notice))])
            )
            return None
        table = {} if GAMES[found.game].realtime else PRESETS[found.time_control].as_table()
        found.match = lifecycle.start_seated_match(
            game=found.game,
            seats=[{"user": found.challenger}, {"user": user}],
            now=timezone.now(),
            ranked=PRESETS[found.time_control].ranked,
            **table,
        )
        found.status = Challenge.Status.ACCEPTED
        found.save(update_fields=["status", "match"])
        transaction.on_commit(lambda: broadcast.send_match_found(found.match, [found.challenger]))
    return found.match


def sent_by(user, game: str) -> list[Challenge]:
    """The challenges of this game the user sent that still wait for an answer (the lobby shows them, with Cancel)."""
    waiting = Challenge.objects.filter(challenger=user, game=game, status=Challenge.Status.PENDING)
    return list(waiting.select_related("challenged"))


def cancel(challenge_id: int, user) -> None:
    """The challenger takes a waiting challenge back; the challenged player's header drops it at once."""
    with transaction.atomic():
        found = Challenge.objects.select_for_update().filter(pk=challenge_id, challenger=user).first()
        if found is None or found.status != Challenge.Status.PENDING:
            raise MatchError("not_found", "That challenge is no longer waiting for an answer.")
        found.status = Challenge.Status.CANCELLED
        found.save(update_fields=["status"])
        notice = {"type": "challenge_cancelled", "game": found.game, "from": user.username}
        transaction.on_commit(
            lambda: broadcast.deliver([(broadcast.user_group(found.challenged_id), broadcast.push(notice))])
        )
