from django.apps import AppConfig

from dubium import checks, db_connections  # noqa: F401  (registered as the app loads: deploy checks, a receiver)


class DubiumConfig(AppConfig):
    name = "dubium"
