from django.apps import AppConfig
from django.urls import register_converter

from games.matches.ids import IdConverter


class MatchesConfig(AppConfig):
    name = "games.matches"
    label = "matches"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self):
        # Before any URLconf is read: every app's URLs name their row ids `<id:...>`.
        register_converter(IdConverter, "id")
        # Load the tasks into Celery's registry, where the modules below tasks.py find them by
        # name (scheduling.py); they import the models, so not before the apps are ready.
        from games.matches import tasks  # noqa: F401
