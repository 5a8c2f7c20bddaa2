from django.apps import AppConfig

from dubium import checks  # noqa: F401  (registers the deployment checks as the app loads)


class DubiumConfig(AppConfig):
    name = "dubium"
