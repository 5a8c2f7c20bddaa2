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
