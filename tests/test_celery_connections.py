"""A Celery worker keeps its database connection from task to task by DB_CONN_MAX_AGE, as Django
keeps a request's (dubium/celery.py): Celery's Django fixup, as installed in every worker, had
closed it before and after each task, so every scoring, wake-up and bot move opened a new one."""

import pytest
from celery.fixups.django import DjangoWorkerFixup
from celery.signals import task_postrun, task_prerun
from django.db import connection

from dubium.celery import app
from games.matches.tasks import settle_match

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def max_age():
    """Set the connection's CONN_MAX_AGE for the test, from a closed connection."""
    settings = connection.settings_dict
    kept = settings["CONN_MAX_AGE"]
    connection.close()

    def set_to(seconds):
        settings["CONN_MAX_AGE"] = seconds

    yield set_to
    connection.close()
    settings["CONN_MAX_AGE"] = kept


def run_in_worker(fixup: DjangoWorkerFixup) -> object:
    """What a worker does around a task, its fixup's hooks and the signals' receivers in turn,
    with a statement inside; the driver's connection the task used."""
    fixup.on_task_prerun(sender=settle_match)
    task_prerun.send(sender=settle_match, task_id="t", task=settle_match, args=(), kwargs={})
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    used = connection.connection
    fixup.on_task_postrun(sender=settle_match)
    task_postrun.send(sender=settle_match, task_id="t", task=settle_match, args=(), kwargs={}, retval=None)
    return used


def test_a_kept_connection_serves_task_after_task(max_age):
    max_age(60)
    fixup = DjangoWorkerFixup(app)
    first = run_in_worker(fixup)
    assert connection.connection is first
    assert all(run_in_worker(fixup) is first for _ in range(5))


def test_without_a_max_age_each_task_closes_its_connection_as_a_request_does(max_age):
    max_age(0)
    fixup = DjangoWorkerFixup(app)
    first = run_in_worker(fixup)
    assert connection.connection is None
    assert run_in_worker(fixup) is not first


def test_an_eager_task_leaves_its_callers_connection_and_transaction_alone(max_age):
    max_age(0)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    opened = connection.connection
    settle_match.push_request(is_eager=True)
    try:
        task_postrun.send(sender=settle_match, task_id="t", task=settle_match, args=(), kwargs={}, retval=None)
    finally:
        settle_match.pop_request()
    assert connection.connection is opened
