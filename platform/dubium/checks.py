"""`manage.py check --deploy` says when the site would run on the development key (with DEBUG off
the settings refuse to load at all; with DEBUG on Django's own key check finds nothing wrong with
it, since it is long and varied)."""

from django.conf import settings
from django.core.checks import Error, Tags, register


@register(Tags.security, deploy=True)
def development_key(app_configs, **kwargs) -> list[Error]:
    if settings.SECRET_KEY != settings.DEVELOPMENT_SECRET_KEY:
        return []
    return [
        Error(
            "SECRET_KEY is the development key written in settings.py: anyone can forge sessions with it.",
            hint="Set the SECRET_KEY environment variable to a long random value (README, Configuration).",
            id="dubium.E001",
        )
    ]
