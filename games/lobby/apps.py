from django.apps import AppConfig


class LobbyConfig(AppConfig):
    name = "games.lobby"
    label = "lobby"
    default_auto_field = "django.db.models.BigAutoField"
