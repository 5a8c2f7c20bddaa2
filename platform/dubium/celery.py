"""The Celery app: bot matches, clocks, ratings and tournament scoring run here."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")

app = Celery("dubium")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
