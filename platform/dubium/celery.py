"""The Celery app: bot matches, clocks, ratings and tournament scoring run here."""

import gc
import os

from celery import Celery
from celery.signals import task_postrun, task_prerun, worker_process_init, worker_ready
from django.db import close_old_connections

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


@task_prerun.connect
@task_postrun.connect
def connections_kept_as_for_a_request(task=None, **kwargs) -> None:
    """A worker's database connections are kept or closed around each task as Django keeps or
    closes a request's (DB_CONN_MAX_AGE, a broken one closed), not closed at every task as
    Celery's fixup does (settings.CELERY_DB_REUSE_MAX): a new PostgreSQL connection for each
    task cost the worker and PostgreSQL more than the task's own statements (docs/performance.md).
    An eager task runs inside its caller, whose connection and transaction are not its own."""
    if task is not None and not getattr(task.request, "is_eager", False):
        close_old_connections()
