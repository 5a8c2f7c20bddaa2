"""REST endpoints for bot authors: create bots, upload code, start matches (docs/bots.md).

Thin views over botapi/services.py.
"""

from django.contrib.auth import get_user_model
from django.db.models import Q
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from accounts.throttles import API_THROTTLES, AccountThrottle
from botapi import services
from botapi.models import BotCode, BotFailure, BotProfile, Challenge
from games.engine import GAMES
from games.matches.api import LIST_OF_OBJECTS, summary
from ratings.models import Rating


class UploadThrottle(AccountThrottle):
    """Every upload runs the code once in the sandbox, or calls the endpoint to verify it."""

    scope = "upload"


class CreateBotSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=30)


class UploadSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(GAMES), help_text="The game whose opening position tests the code.")
    source = serializers.CharField(max_length=services.MAX_SOURCE_BYTES, trim_whitespace=False)


class WebhookSerializer(serializers.Serializer):
    endpoint = serializers.URLField(max_length=500, help_text="https:// URL the platform POSTs start, move and end to.")


class LadderSerializer(serializers.Serializer):
    ladder = serializers.BooleanField()
    game = serializers.ChoiceField(choices=sorted(GAMES), required=False, help_text="Needed to opt in.")
    games_per_day = serializers.IntegerField(required=False, min_value=1, max_value=services.MAX_LADDER_GAMES_PER_DAY)
    open_to_challenges = serializers.BooleanField(
        required=False, help_text="Other owners' bots may start matches against it without asking."
    )


class ChallengeSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(GAMES))
    opponents = serializers.ListField(child=serializers.CharField(max_length=40), min_length=1, max_length=10)
    ranked = serializers.BooleanField(required=False, default=True)


def describe(bot, owner_view: bool) -> dict:
    codes = list(BotCode.objects.filter(bot=bot).defer("source"))
    profile = BotProfile.objects.filter(bot=bot).first() or BotProfile(bot=bot)
    shown = {
        "name": bot.username,
        "owner": bot.bot_owner.username if bot.bot_owner else None,
        "code_version": codes[0].version if codes else None,
        "plays_by": codes[0].kind if codes else None,
        "ladder": profile.ladder,
        "ladder_game": profile.ladder_game if profile.ladder else None,
        "suspended": profile.suspended_at is not None,
        "open_to_challenges": profile.open_to_challenges,
        "ratings": {r.game: round(r.elo, 1) for r in Rating.objects.filter(user=bot)},
    }
    if owner_view:
        shown["strikes"] = profile.strikes
        shown["suspended_because"] = profile.suspended_because
        shown["ladder_games_per_day"] = profile.ladder_games_per_day
        shown["versions"] = [
            {
                "version": code.version,
                "kind": code.kind,
                "endpoint": code.endpoint,
                "sha256": code.sha256,
                "uploaded_at": code.uploaded_at,
                "moves": code.moves,
                "failures": code.failures,
                "last_error": code.last_error,
                "last_error_at": code.last_error_at,
                "recent_failures": [failure_report(failure) for failure in code.failure_reports.all()[:10]],
            }
            for code in codes
        ]
    return shown


def failure_report(failure: BotFailure) -> dict:
    """One failed move as its author reads it: where (the replay opened at that step) and why."""
    return {
        "match": failure.match_id,
        "step": failure.step,
        "replay": failure.replay_url,
        "message": failure.message,
        "traceback": failure.traceback,
        "printed": failure.printed,
        "at": failure.at,
    }


def describe_challenge(offer: Challenge) -> dict:
    return {
        "id": offer.pk,
        "challenger": offer.challenger.username,
        "opponent": offer.opponent.username,
        "game": offer.game,
        "house_bots": offer.house_bots,
        "ranked": offer.ranked,
        "status": offer.status,
        "match": offer.match_id,
    }


@extend_schema(methods=["GET"], operation_id="bots_list", responses={200: LIST_OF_OBJECTS})
@extend_schema(methods=["POST"], operation_id="bots_create", request=CreateBotSerializer, responses={201: dict})
@api_view(["GET", "POST"])
@permission_classes([IsAuthenticated])
def bots(request):
    """Your bots (GET) or a new one (POST): the answer holds its API token, shown only this once."""
    if request.method == "GET":
        return Response([describe(bot, True) for bot in request.user.owned_bots.select_related("bot_owner")])
    form = CreateBotSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    bot, token = services.create_bot(request.user, form.validated_data["name"])
    return Response({**describe(bot, True), "token": token}, status=status.HTTP_201_CREATED)


@extend_schema(responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def bot_detail(request, name: str):
    """A bot's public card; its owner also sees every code version with its moves and failures."""
    bot = get_object_or_404(get_user_model().objects.select_related("bot_owner"), username__iexact=name, is_bot=True)
    return Response(describe(bot, request.user.is_authenticated and bot.bot_owner_id == request.user.pk))


@extend_schema(request=None, responses={201: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def token(request, name: str):
    """A new API token for your bot, shown only in this answer: the old one stops working at once."""
    key = services.new_token(request.user, name)
    return Response({"bot": name, "token": key}, status=status.HTTP_201_CREATED)


@extend_schema(request=UploadSerializer, responses={201: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@throttle_classes([*API_THROTTLES, UploadThrottle])
def upload(request, name: str):
    """A new version of the bot's code; refused unless it answers a fresh game's first move legally."""
    form = UploadSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    code = services.upload_code(request.user, name, form.validated_data["source"], form.validated_data["game"])
    return Response(describe(code.bot, True), status=status.HTTP_201_CREATED)


@extend_schema(request=WebhookSerializer, responses={201: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
@throttle_classes([*API_THROTTLES, UploadThrottle])
def webhook(request, name: str):
    """Play the bot through an endpoint: a new version, once the endpoint echoes the verify token."""
    form = WebhookSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    code = services.set_webhook(request.user, name, form.validated_data["endpoint"])
    return Response(describe(code.bot, True), status=status.HTTP_201_CREATED)


@extend_schema(request=LadderSerializer, responses={200: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def ladder(request, name: str):
    """Opt the bot in or out of the ladder's own rated matches (and its daily number of them)."""
    form = LadderSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    data = form.validated_data
    profile = services.set_ladder(
        request.user,
        name,
        data["ladder"],
        data.get("game", ""),
        data.get("games_per_day"),
        data.get("open_to_challenges"),
    )
    return Response(describe(profile.bot, True))


@extend_schema(request=ChallengeSerializer, responses={201: dict, 202: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def challenge(request, name: str):
    """Your bot against house bots (`house:heuristic`) or other bots: started at once (201), except a
    ranked match against another owner's bot, which waits for that owner to accept (202)."""
    form = ChallengeSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    started = services.challenge(request.user, name, **form.validated_data)
    if isinstance(started, Challenge):
        return Response(describe_challenge(started), status=status.HTTP_202_ACCEPTED)
    return Response(summary(started), status=status.HTTP_201_CREATED)


@extend_schema(responses={200: dict})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def challenges(request):
    """Challenges waiting for you (to your bots) and those you sent (from your bots)."""
    mine = Challenge.objects.select_related("challenger", "opponent").order_by("-created_at")
    received = mine.filter(Q(opponent__bot_owner=request.user) | Q(opponent=request.user))
    return Response(
        {
            "received": [describe_challenge(c) for c in received[:50]],
            "sent": [describe_challenge(c) for c in mine.filter(challenger__bot_owner=request.user)[:50]],
        }
    )


@extend_schema(request=None, responses={200: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def answer_challenge(request, challenge_id: int, answer: str):
    """Accept (the ranked match starts now) or decline a challenge to one of your bots."""
    offer = services.answer_challenge(request.user, challenge_id, accept=answer == "accept")
    return Response(describe_challenge(offer))
