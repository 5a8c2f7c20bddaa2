"""Read-only ratings API: ladders, each account's ratings and history, solo high scores."""

from django.contrib.auth import get_user_model
from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema, extend_schema_view
from rest_framework import generics
from rest_framework.permissions import AllowAny

from games.engine import GAMES
from ratings import ladders
from ratings.bluffs import player_bluffs
from ratings.models import HighScore, Rating, RatingChange
from ratings.serializers import BluffSummarySerializer, HighScoreSerializer, RatingChangeSerializer, RatingSerializer

KIND = OpenApiParameter(
    "kind", str, enum=list(ladders.KINDS), description="humans, bots or all (the default; humans for Dobble)."
)


def known_game(slug: str) -> str:
    if slug not in GAMES:
        raise Http404("There is no such game.")
    return slug


class ReadOnly(generics.ListAPIView):
    permission_classes = [AllowAny]

    def account(self):
        return get_object_or_404(get_user_model(), username__iexact=self.kwargs["username"])


@extend_schema_view(
    get=extend_schema(
        operation_id="leaderboard", parameters=[KIND], summary="One game's ladder, best first (50 a page)."
    )
)
class Leaderboard(ReadOnly):
    serializer_class = RatingSerializer

    def get_queryset(self):
        game = known_game(self.kwargs["game"])
        return ladders.ladder(game, ladders.clean_kind(self.request.query_params.get("kind"), game))

    def get_serializer_context(self):
        context = super().get_serializer_context()
        page = getattr(self.paginator, "page", None)
        if page is not None:  # places follow from the page: the ladder's order is total
            context["places"] = {r.pk: page.start_index() + i for i, r in enumerate(page.object_list)}
        return context


@extend_schema_view(
    get=extend_schema(
        operation_id="account_ratings", summary="Every game's rating of one account, with its place on each ladder."
    )
)
class AccountRatings(ReadOnly):
    serializer_class = RatingSerializer

    def get_queryset(self):
        return Rating.objects.filter(user=self.account()).select_related("user").order_by("game")

    def get_serializer_context(self):
        context = super().get_serializer_context()
        context["places"] = {r.pk: ladders.place_of(r) for r in self.get_queryset() if r.ranked}
        return context


@extend_schema_view(
    get=extend_schema(
        operation_id="account_rating_history", summary="One account's rated matches in one game, the last rated first."
    )
)
class AccountHistory(ReadOnly):
    serializer_class = RatingChangeSerializer

    def get_queryset(self):
        game = known_game(self.kwargs["game"])
        return RatingChange.newest_first(self.account(), game)


@extend_schema_view(
    get=extend_schema(operation_id="high_scores", summary="Solo high scores of a game (solo games are not rated).")
)
class HighScores(ReadOnly):
    serializer_class = HighScoreSerializer

    def get_queryset(self):
        return HighScore.objects.filter(game=known_game(self.kwargs["game"])).select_related("user")


@extend_schema_view(
    get=extend_schema(
        operation_id="account_bluffs",
        summary="How often one account bluffed, was caught, doubted and was right, per game with bluffing.",
    )
)
class AccountBluffs(ReadOnly):
    serializer_class = BluffSummarySerializer
    pagination_class = None

    def get_queryset(self):
        return player_bluffs(self.account())
