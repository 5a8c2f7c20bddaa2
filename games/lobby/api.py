"""The ranked queue over HTTP: join, leave, and the lobby snapshot."""

from drf_spectacular.utils import extend_schema
from rest_framework import serializers, status
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from games.engine import GAMES
from games.lobby import matchmaking, tables
from games.lobby.snapshot import lobby_snapshot
from games.matches.errors import MatchError
from games.matches.time_controls import QUICK_PAIRING
from ratings.services import matchmaking_rating, rating_for


class QueueSerializer(serializers.Serializer):
    game = serializers.ChoiceField(choices=sorted(GAMES))
    players = serializers.IntegerField(min_value=2, max_value=11)
    time_control = serializers.ChoiceField(choices=QUICK_PAIRING, default=matchmaking.DEFAULT_TIME_CONTROL)
    meet_bots = serializers.BooleanField(
        default=False, help_text="People: be paired with bots too (never in real-time games). Bots always meet bots."
    )


@extend_schema(responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def lobby(request, game: str):
    """Open tables, queue sizes, matches in play and players online for one game."""
    if game not in GAMES:
        raise MatchError("not_found", "No such game.")
    return Response(lobby_snapshot(game))


@extend_schema(request=QueueSerializer, responses={201: dict})
@api_view(["POST", "DELETE"])
@permission_classes([IsAuthenticated])
def queue(request):
    """Join (POST) or leave (DELETE, with ?game=) the ranked queue of a game."""
    if request.method == "DELETE":
        matchmaking.leave_queue(request.user, request.query_params.get("game", ""))
        return Response(status=status.HTTP_204_NO_CONTENT)
    form = QueueSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    game, players = form.validated_data["game"], form.validated_data["players"]
    rating = matchmaking_rating(request.user, game)
    entry = matchmaking.join_queue(
        request.user,
        game,
        players,
        rating,
        time_control=form.validated_data["time_control"],
        meet_bots=form.validated_data["meet_bots"],
    )
    joined = {
        "game": entry.game,
        "players": entry.players,
        "time_control": entry.time_control,
        # Two figures, named apart: the public Elo the pages show, and the one pairing reads
        # (OpenSkill on the Elo scale by default: the better predictor, docs/ratings.md).
        "elo": round(rating_for(request.user, game).elo, 1),
        "pairing_rating": round(entry.rating, 1),
        "joined_at": entry.joined_at,
        "meet_bots": entry.meet_bots,
        "pool": matchmaking.pool(entry),
        "waiting_with_you": matchmaking.waiting_with(entry),
    }
    paired = tables.pair_now(request.user, game, players, entry.time_control)
    return Response({**joined, "match": paired.pk if paired else None}, status=status.HTTP_201_CREATED)
