"""REST endpoints for tables and matches: what HTTP bots and scripts use.

Thin views: each one validates the request shape and calls the match service,
the same functions the websocket consumer calls.
"""

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.exceptions import APIException, AuthenticationFailed, NotAuthenticated, NotFound, ValidationError
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.engine import GAMES
from games.matches import actions, lifecycle, presence, replays
from games.matches.errors import MatchError, error_body
from games.matches.models import Match, MatchAction
from games.registry import bot_names

# The OpenAPI schema of an answer that is a JSON array of objects (list endpoints).
LIST_OF_OBJECTS = {"type": "array", "items": {"type": "object"}}


class CreateMatchSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(GAMES))
    players = serializers.IntegerField(min_value=1, max_value=11)
    options = serializers.DictField(required=False, default=dict)
    ranked = serializers.BooleanField(required=False, default=False)
    clock = serializers.ChoiceField(choices=Match.Clock.values, required=False, default=Match.Clock.NONE)
    clock_initial_ms = serializers.IntegerField(required=False, default=0, min_value=0)
    clock_increment_ms = serializers.IntegerField(required=False, default=0, min_value=0)


class ActionSerializer(serializers.Serializer):
    action = serializers.DictField()
    seq = serializers.IntegerField(min_value=0)


class BotSerializer(serializers.Serializer):
    bot = serializers.CharField(max_length=32)


STATUS_OF_ERROR = {
    "not_found": 404,
    "not_seated": 403,
    "not_host": 403,
    "forfeited": 403,
    "stale": 409,
    "not_your_choice": 403,
    "suspended": 403,
    "busy": 503,
    "too_many": 429,
    "not_finished": 409,
    "not_your_seat": 403,
}


def field_sentences(fields: dict) -> list[str]:
    """Each bad field and its messages ("seq: This field is required."), for a person to read;
    a list's or a dict's items are named by their position or key ("opponents.0: ...")."""
    said = []
    for name, messages in fields.items():
        if isinstance(messages, dict):
            said += field_sentences({f"{name}.{key}": value for key, value in messages.items()})
            continue
        texts = messages if isinstance(messages, list) else [messages]
        prefix = "" if name == "non_field_errors" else f"{name}: "
        said.append(prefix + " ".join(str(text) for text in texts))
    return said


def exception_handler(error, context):
    """REST_FRAMEWORK's EXCEPTION_HANDLER: a service's refusal (MatchError) becomes its message
    with a fitting status, so views call services without wrapping each call; DRF's own errors
    (bad fields, credentials, throttling) take the same shape (errors.error_body)."""
    if isinstance(error, MatchError):
        fields = {error.field: [error.message]} if error.field else None
        return Response(error_body(error.code, error.message, fields), status=STATUS_OF_ERROR.get(error.code, 400))
    if isinstance(error, Http404):  # not get_object_or_404's "No User matches the given query."
        error = NotFound("No such object.")
    response = drf_exception_handler(error, context)
    if response is None:
        return None
    if isinstance(error, AuthenticationFailed):  # a credential was sent and is wrong (DRF says 403 when
        response.status_code = 401  # the session comes first), as the schema documents
        response["WWW-Authenticate"] = 'Token realm="api"'
    if isinstance(error, ValidationError):
        fields = error.detail if isinstance(error.detail, dict) else {"non_field_errors": error.detail}
        response.data = error_body("invalid", " ".join(field_sentences(fields)), fields)
    elif isinstance(error, APIException):
        response.data = error_body(str(error.get_codes()), str(error.detail))
    return response


def summary(match: Match) -> dict:
    return {
        "id": match.pk,
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "ranked": match.ranked,
        "status": match.status,
        "clock": {"mode": match.clock, "initial_ms": match.clock_initial_ms, "increment_ms": match.clock_increment_ms},
        "seats": [{"seat": s.number, "player": s.user.username, "bot": s.user.is_bot} for s in match.seats.all()],
        "seq": match.seq,
        "result": match.result,
        "deal": match.deal_facts(reveal=False),
        "created_at": match.created_at,
        "started_at": match.started_at,
        "finished_at": match.finished_at,
    }


def your_seat(match: Match, seat) -> dict:
    """The caller's seat at a table of theirs, and whether the game waits for them now."""
    running = match.status == Match.Status.RUNNING
    to_act = running and seat.forfeited_at is None and seat.number in match.engine.to_act(match.load_state())
    return {"your_seat": seat.number, "your_turn": to_act}


@extend_schema(responses={200: LIST_OF_OBJECTS})
@api_view(["GET"])
@permission_classes([AllowAny])
def games(request):
    """Every game with its player bounds, table options and house bots."""
    return Response([{**game.describe(), "house_bots": bot_names(slug)} for slug, game in GAMES.items()])


# `?status=` of the tables list: none, the tables one may still join or watch live.
LISTED = {
    "": [Match.Status.OPEN, Match.Status.RUNNING],
    "open": [Match.Status.OPEN],
    "running": [Match.Status.RUNNING],
    "finished": [Match.Status.FINISHED],
}


@extend_schema(methods=["GET"], operation_id="matches_list", responses={200: LIST_OF_OBJECTS})
@extend_schema(methods=["POST"], operation_id="matches_create", request=CreateMatchSerializer, responses={201: dict})
@api_view(["GET", "POST"])
def matches(request):
    """Open and running tables (GET; `?game=dudo`, `?status=open|running|finished`, and `?mine=1`
    for those you have a seat at, each with your seat and whether you are to act: what a bot
    polls) or a new table hosted by you (POST)."""
    if request.method == "GET":
        game, wanted = request.query_params.get("game", ""), request.query_params.get("status", "")
        if game and game not in GAMES:
            raise MatchError("bad_request", f"No game {game[:40]!r}: choose from {', '.join(sorted(GAMES))}.", "game")
        if wanted not in LISTED:
            raise MatchError("bad_request", "List tables by status open, running or finished.", "status")
        found = Match.objects.filter(status__in=LISTED[wanted])
        if game:
            found = found.filter(game=game)
        if request.query_params.get("mine", "0") not in ("0", "1", "true", "false"):
            raise MatchError("bad_request", "Say mine=1 for your own tables.", "mine")
        mine = request.query_params.get("mine") in ("1", "true")
        if mine and not request.user.is_authenticated:
            raise NotAuthenticated()
        if mine:
            found = found.filter(seats__user=request.user)
        found = found.prefetch_related("seats__user").order_by("-created_at")[:100]
        if not mine:
            return Response([summary(match) for match in found])
        # A seat left between the two queries (the table's list, then its seats) is no table of yours.
        seated = [(match, match.seat_of(request.user)) for match in found]
        return Response([summary(match) | your_seat(match, seat) for match, seat in seated if seat is not None])
    form = CreateMatchSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    match = lifecycle.create_match(host=request.user, **form.validated_data)
    return Response(summary(match), status=status.HTTP_201_CREATED)


@extend_schema(operation_id="matches_retrieve", responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def match_detail(request, match_id: int):
    """The table and, for a seated player, their own view (spectators get the public one)."""
    match = get_object_or_404(Match.objects.prefetch_related("seats__user"), pk=match_id)
    seat = match.seat_of(request.user)
    deal = match.deal_facts(reveal=replays.may_export_everything(match, request.user))
    state = presence.current_message(match.pk, None if seat is None else seat.number)
    return Response({**summary(match), "deal": deal, "state": state})


@extend_schema(request=None, responses={200: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def match_command(request, match_id: int, command: str):
    """join, leave or start a table."""
    service = {"join": lifecycle.join_match, "leave": lifecycle.leave_match, "start": lifecycle.start_match}[command]
    service(match_id, request.user)
    return Response(summary(get_object_or_404(Match, pk=match_id)))


@extend_schema(request=BotSerializer, responses={201: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def add_bot(request, match_id: int):
    """Seat a house bot at your table."""
    form = BotSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    lifecycle.add_house_bot(match_id, request.user, form.validated_data["bot"])
    return Response(summary(get_object_or_404(Match, pk=match_id)), status=status.HTTP_201_CREATED)


@extend_schema(request=ActionSerializer, responses={200: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def act(request, match_id: int):
    """Play a move: {"action": {...}, "seq": the last sequence number you saw}."""
    form = ActionSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    match = actions.submit_action(
        match_id, request.user, form.validated_data["action"], form.validated_data["seq"], MatchAction.Source.API
    )
    seat = match.seat_of(request.user)
    return Response(presence.current_message(match.pk, seat.number))


@extend_schema(operation_id="matches_replay_export", responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def replay_export(request, match_id: int):
    """Seed, salt, options and every action of a finished match: `manage.py replay` and
    games/verify_deal.py verify it. In a game with hidden cards or dice they show every hand: only
    superusers, the match's own players and its bots' owners get them there
    (replays.may_export_everything)."""
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        return Response(error_body("not_finished", "Replays open when the match ends."), status=409)
    if not replays.may_export_everything(match, request.user):
        message = "The full record of this game shows every hand, so only its players get it: watch its replay instead."
        return Response(error_body("hidden_information", message), status=403)
    return Response(replays.export(match))


@extend_schema(operation_id="matches_replay_step", responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def replay_step(request, match_id: int, step: int):
    """The view after `step` actions of a finished match; `?seat=N` shows your own seat's cards too."""
    match = get_object_or_404(Match, pk=match_id)
    if match.status != Match.Status.FINISHED:
        raise MatchError("not_finished", "Replays open when the match ends.")
    seat = request.query_params.get("seat")
    try:
        seat = None if seat in (None, "") else int(seat)
        if seat is not None and seat not in replays.seats_shown_to(match, request.user):
            raise MatchError("not_your_seat", "A replay shows a hand only to its player (and a bot's to its owner).")
        frame = replays.frame(match, step, seat)
    except (ValueError, IndexError):
        raise MatchError("bad_request", "No such step or seat.") from None
    return Response(frame)
