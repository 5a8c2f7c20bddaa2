from django.apps import AppConfig


class RatingsConfig(AppConfig):
    name = "ratings"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Subscribe to finished matches; lend the match pages what they say of ratings."""
        from games.matches import broadcast, signals
        from ratings import receivers

        signals.match_finished.connect(receivers.rate_finished_match, dispatch_uid="ratings")
        signals.match_finished.connect(receivers.count_bluffs, dispatch_uid="ratings-bluffs")
        broadcast.report_ratings(receivers.rating_report)
