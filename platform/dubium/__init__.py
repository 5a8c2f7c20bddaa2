"""Dubium's site configuration: settings, URLs, ASGI and Celery apps."""

from dubium.celery import app as celery_app

__all__ = ["celery_app"]
