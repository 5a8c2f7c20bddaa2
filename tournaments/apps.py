from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    name = "tournaments"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe to finished matches: a tournament table's result is scored and its tournament
        moves on; and name a tournament match's event for its table page."""
        from games.matches import occasions, signals
        from tournaments import rounds, running

        signals.match_finished.connect(running.record_finished_match, dispatch_uid="tournaments")
        occasions.register(rounds.occasion)
