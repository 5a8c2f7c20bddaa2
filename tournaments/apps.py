from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Register the formats, in the order the organizer's form offers them (a new format: its
        module and one name here); subscribe to finished matches: a tournament table's result is
        scored and its tournament moves on; and name a tournament match's event for its table page."""
        from games.matches import occasions, signals
        from tournaments import rounds, running
        from tournaments.formats import registry
        from tournaments.formats.arena import Arena
        from tournaments.formats.dobble_series import DobbleSeries
        from tournaments.formats.knockout import Knockout
        from tournaments.formats.round_robin import RoundRobin
        from tournaments.formats.rounds_total import RoundsTotal
        from tournaments.formats.swiss import Swiss

        registry.register(Swiss, RoundRobin, Knockout, DobbleSeries, RoundsTotal, Arena)
        signals.match_finished.connect(running.score_tournament_table, dispatch_uid="tournaments")
        occasions.register(rounds.occasion)
