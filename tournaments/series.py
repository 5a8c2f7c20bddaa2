"""Recurring events: an organizer repeats a tournament every hour, day or week, and the beat
(tasks.create_series_events; embedded, the ticker thread runs the same beat entry) creates each
next event one period ahead, so the next one is always listed: a copy of the series' latest
event, settings and house bots, named as the series is: every page shows its start beside its
name, so the name does not repeat it ("Dudo Hourly Arena", as on Lichess).

Hours are counted in absolute time; a daily or weekly event keeps its hour on the series' clock
(`Series.time_zone`), summer time or not. Starts missed while nothing ran are skipped, not
created in the past. Each series is locked while it is extended, so two beats create one event.
"""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.utils import timezone

from tournaments import services
from tournaments.models import Series, Tournament

STEP = {
    Series.Every.HOUR: timedelta(hours=1),
    Series.Every.DAY: timedelta(days=1),
    Series.Every.WEEK: timedelta(weeks=1),
}
# What an event is not given by the one before it: its name and start, and what running it wrote.
NOT_COPIED = {"id", "name", "starts_at", "status", "created_at", "started_at", "finished_at", "cancelled_because",
              "size_factors"}  # fmt: skip


def following_start(series: Series, after: datetime) -> datetime:
    """The series' start after `after`: an hour later, or the same hour of the next day or week
    on the series' clock (aware arithmetic on a zone's time keeps the wall-clock hour)."""
    if series.every == Series.Every.HOUR:
        return after.astimezone(UTC) + STEP[series.every]
    local = after.astimezone(ZoneInfo(series.time_zone))
    return (local + STEP[series.every]).astimezone(UTC)


def next_start(series: Series, after: datetime, now: datetime) -> datetime:
    """The series' first start after `after` still to come: starts missed while nothing ran are skipped."""
    start = following_start(series, after)
    while start <= now:
        start = following_start(series, start)
    return start


def create_due(now: datetime | None = None) -> int:
    """Beat: every active series has its events of the coming period created; how many were."""
    now = now or timezone.now()
    return sum(extend(series_id, now) for series_id in Series.objects.filter(active=True).values_list("pk", flat=True))


def extend(series_id: int, now: datetime) -> int:
    """Create the series' events starting within one period from now (missed starts skipped)."""
    created = 0
    with transaction.atomic():
        series = Series.objects.select_for_update().get(pk=series_id)
        latest = series.events.order_by("-starts_at").first()
        if not series.active or latest is None:
            return 0
        while True:
            start = next_start(series, latest.starts_at, now)
            if start > now + STEP[series.every]:
                return created
            latest = copy_event(series, latest, start)
            created += 1


def copy_event(series: Series, model: Tournament, starts_at: datetime) -> Tournament:
    """A new event with `model`'s settings and house bots, open for entries."""
    values = {
        f.attname: getattr(model, f.attname) for f in Tournament._meta.concrete_fields if f.name not in NOT_COPIED
    }
    event = Tournament.objects.create(**values, name=series.name, starts_at=starts_at)
    for bot in model.entries.exclude(house_bot="").order_by("pk").values_list("house_bot", flat=True):
        services.enter_house_bot(event.pk, bot)
    return event


def start_series(
    tournament: Tournament, every: str, name: str = "", time_zone: str = "UTC", now: datetime | None = None
) -> Series:
    """Make `tournament` the first event of a new series, and create what follows it now."""
    with transaction.atomic():
        series = Series.objects.create(
            name=name or tournament.name, organizer=tournament.organizer, every=every, time_zone=time_zone
        )
        Tournament.objects.filter(pk=tournament.pk).update(series=series)
    extend(series.pk, now or timezone.now())
    return series
