from django.apps import AppConfig


class FairplayConfig(AppConfig):
    name = "fairplay"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        """Read every finished match after it is scored (ratings' receivers are connected first,
        as ratings comes before this app in INSTALLED_APPS); note where accounts sign in."""
        from django.contrib.auth.signals import user_logged_in

        from fairplay import receivers
        from games.matches import signals

        signals.match_finished.connect(receivers.review_finished_match, dispatch_uid="fairplay")
        user_logged_in.connect(receivers.note_sighting, dispatch_uid="fairplay-sighting")
