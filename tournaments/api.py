"""REST endpoints for tournaments: list, standings and tables, entering, the Dobble choice.

Thin views over tournaments/services.py and running.py, the same calls the pages make.
"""

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response

from games.engine import GAMES
from games.matches.api import LIST_OF_OBJECTS
from tournaments import services
from tournaments.formats import dobble_series
from tournaments.models import Tournament
from tournaments.standings import standings, tiebreak_labels


class ChoiceSerializer(serializers.Serializer):
    mini_game = serializers.CharField(max_length=32)


def summary(tournament: Tournament) -> dict:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.game,
        "format": tournament.format,
        "status": tournament.status,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "turn_seconds": tournament.turn_seconds,
        "options": tournament.options,
        "organizer": tournament.organizer.username,
        "starts_at": tournament.starts_at,
        "started_at": tournament.started_at,
        "finished_at": tournament.finished_at,
        "entries": tournament.entries.count(),
        "max_entries": tournament.max_entries,
    }


def detail(tournament: Tournament) -> dict:
    entries = {entry.pk: entry.user.username for entry in tournament.entries.select_related("user")}
    tables = tournament.tables.select_related("match", "chooser__user")
    return {
        **summary(tournament),
        "scoring": tournament.rules.scoring_words(),
        "tiebreaks": [label["label"] for label in tiebreak_labels(tournament)],
        "players": sorted(entries.values(), key=str.lower),
        "standings": [
            {key: row[key] for key in ("place", "player", "bot", "points", "tiebreak", "tiebreaks", "played")}
            for row in standings(tournament)
        ],
        "tables": [
            {
                "round": table.round,
                "table": table.number,
                "players": [entries[entry_id] for entry_id in table.seating],
                "mini_game": table.mini_game or None,
                "match": table.match_id,
                "match_status": table.match.status if table.match else None,
                "chooser": table.chooser.user.username if table.match is None and table.chooser else None,
                "choose_by": table.choose_by if table.match is None else None,
                "chosen_by": table.chooser.user.username if table.match is not None and table.chooser else None,
                "choice": table.choice or None,
            }
            for table in tables
        ],
    }


@extend_schema(operation_id="tournaments_list", responses={200: LIST_OF_OBJECTS})
@api_view(["GET"])
@permission_classes([AllowAny])
def tournaments(request):
    """Tournaments, soonest first; filter with ?game= and ?status=."""
    found = Tournament.objects.select_related("organizer")
    if request.query_params.get("game") in GAMES:
        found = found.filter(game=request.query_params["game"])
    if request.query_params.get("status") in Tournament.Status.values:
        found = found.filter(status=request.query_params["status"])
    return Response([summary(tournament) for tournament in found[:200]])


@extend_schema(responses={200: dict})
@api_view(["GET"])
@permission_classes([AllowAny])
def tournament_detail(request, tournament_id: int):
    """One tournament with its standings and every table (round, players, match, Dobble choice)."""
    return Response(detail(get_object_or_404(Tournament.objects.select_related("organizer"), pk=tournament_id)))


@extend_schema(methods=["POST", "DELETE"], request=None, responses={200: dict})
@api_view(["POST", "DELETE"])
@permission_classes([IsAuthenticated])
def entry(request, tournament_id: int):
    """Enter (POST) or withdraw (DELETE) before the tournament starts."""
    get_object_or_404(Tournament, pk=tournament_id)
    if request.method == "POST":
        services.enter(tournament_id, request.user)
    else:
        services.withdraw(tournament_id, request.user)
    return Response(summary(Tournament.objects.select_related("organizer").get(pk=tournament_id)))


@extend_schema(request=ChoiceSerializer, responses={200: dict})
@api_view(["POST"])
@permission_classes([IsAuthenticated])
def choice(request, tournament_id: int):
    """The loser of a Dobble series mini-game names the next one."""
    get_object_or_404(Tournament, pk=tournament_id)
    form = ChoiceSerializer(data=request.data)
    form.is_valid(raise_exception=True)
    dobble_series.choose(tournament_id, request.user, form.validated_data["mini_game"])
    return Response(detail(Tournament.objects.select_related("organizer").get(pk=tournament_id)))
