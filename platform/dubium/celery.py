"""The Celery app: bot matches, clocks, ratings and tournament scoring run here."""

import gc
import os

from celery import Celery
from celery.signals import worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")

app = Celery("dubium")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
@worker_ready.connect
def keep_the_start_out_of_full_collections(**kwargs) -> None:
    """As the web process does after start (asgi.py): Django and the apps, loaded for good, are
    kept out of the garbage collector's full passes. A worker that seats a 10,000-player round
    makes hundreds of thousands of objects, and each full pass they set off walked the whole
    start-up heap again: 0.36 s of a round's 1.2 s of CPU at two seats (docs/performance.md).
    Prefork children freeze after the fork; the solo pool runs tasks in the worker itself."""
    gc.freeze()
