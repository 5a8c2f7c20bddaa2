"""Accounts over REST: registration and token login go through the same services as the web forms."""

from django.conf import settings
from django.contrib.auth import authenticate, get_user_model
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.authtoken.models import Token
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotAuthenticated
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from accounts import services
from accounts.serializers import (
    AccountSerializer,
    MeSerializer,
    RegisteredSerializer,
    RegisterSerializer,
    TokenRequestSerializer,
    TokenSerializer,
)
from accounts.throttles import API_THROTTLES, RegisterThrottle, TokenThrottle
from games.matches import broadcast
from games.matches.errors import error_body

WRONG_CREDENTIALS = "Wrong username or password."
LOCKED_OUT = "Too many failed logins: try again later."


@extend_schema(
    request=RegisterSerializer,
    responses={201: RegisteredSerializer, 400: OpenApiResponse(description="Errors keyed by field.")},
)
@api_view(["POST"])
@permission_classes([AllowAny])
@throttle_classes([*API_THROTTLES, RegisterThrottle])
def register(request):
    """Create a player account; answers with the account and its API token."""
    form = RegisterSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    try:
        user = services.do_register(**form.validated_data)
    except ValidationError as error:
        raise serializers.ValidationError(error.message_dict) from None  # the one error shape
    token, _ = Token.objects.get_or_create(user=user)
    answer = RegisteredSerializer(user, context={"token": token.key}).data
    return Response(answer, status=status.HTTP_201_CREATED)


@extend_schema(
    methods=["POST"],
    request=TokenRequestSerializer,
    responses={
        200: TokenSerializer,
        400: OpenApiResponse(description=WRONG_CREDENTIALS),
        429: OpenApiResponse(description=LOCKED_OUT),
    },
)
@extend_schema(methods=["DELETE"], request=None, responses={204: None})
@api_view(["POST", "DELETE"])
@permission_classes([AllowAny])
@throttle_classes([*API_THROTTLES, TokenThrottle])
def token(request):
    """POST: exchange a username (any case) and password for the account's API token (bots and
    scripts). DELETE: retire the token the request is signed with (the next POST gets a new one).

    Failed attempts count towards the login lockout of the address and the account (settings: AXES_*)."""
    if request.method == "DELETE":
        if not request.user.is_authenticated:
            raise NotAuthenticated()
        Token.objects.filter(user=request.user).delete()
        broadcast.close_token_sockets(request.user.pk)
        return Response(status=status.HTTP_204_NO_CONTENT)
    form = TokenRequestSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    user = authenticate(request, **form.validated_data)
    if getattr(request, "axes_locked_out", False):
        return Response(
            error_body("locked_out", LOCKED_OUT),
            status=status.HTTP_429_TOO_MANY_REQUESTS,
            headers={"Retry-After": str(int(settings.AXES_COOLOFF_TIME.total_seconds()))},  # the whole cool-off
        )
    if user is None:
        return Response(error_body("wrong_credentials", WRONG_CREDENTIALS), status=status.HTTP_400_BAD_REQUEST)
    key, _ = Token.objects.get_or_create(user=user)
    return Response(TokenSerializer({"token": key.key, "username": user.username}).data)


@extend_schema(responses={200: MeSerializer})
@api_view(["GET"])
@permission_classes([IsAuthenticated])
def me(request):
    """The signed-in account, with its e-mail address."""
    return Response(MeSerializer(request.user).data)


@extend_schema(responses={200: AccountSerializer})
@api_view(["GET"])
@permission_classes([AllowAny])
def account(request, username: str):
    """Anybody's public profile data; the username matches in any case."""
    user = get_object_or_404(get_user_model(), username__iexact=username)
    return Response(AccountSerializer(user).data)
