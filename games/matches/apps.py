from django.apps import AppConfig


class MatchesConfig(AppConfig):
    name = "games.matches"
    label = "matches"
    default_auto_field = "django.db.models.BigAutoField"
