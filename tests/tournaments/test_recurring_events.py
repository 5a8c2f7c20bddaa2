"""Recurring events (tournaments/series.py): the beat creates each next event one period ahead."""

from datetime import UTC, datetime, timedelta

import pytest

from tournaments import series, services
from tournaments.models import Series, Tournament


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


@pytest.fixture
def hourly_arena(olga):
    first = Tournament.objects.create(
        name="Dudo Hourly Arena", game="dudo", format="arena", organizer=olga, starts_at=at("2026-11-29 15:00"),
        time_control="3+2", duration_minutes=55, no_show_minutes=1, description="Every hour.",
    )  # fmt: skip
    services.enter_house_bot(first.pk, "heuristic")
    services.enter_house_bot(first.pk, "random")
    made = Series.objects.create(name="Dudo Hourly Arena", organizer=olga, every=Series.Every.HOUR)
    Tournament.objects.filter(pk=first.pk).update(series=made)
    return made


def starts(made: Series) -> list[datetime]:
    return list(made.events.order_by("starts_at").values_list("starts_at", flat=True))


def test_the_next_event_is_created_one_period_ahead_with_the_settings_and_house_bots(hourly_arena):
    assert series.create_due(now=at("2026-11-29 14:10")) == 0, "15:00 is the next; 16:00 is more than an hour away"
    assert series.create_due(now=at("2026-11-29 15:00:30")) == 1
    assert starts(hourly_arena) == [at("2026-11-29 15:00"), at("2026-11-29 16:00")]
    later = hourly_arena.events.get(starts_at=at("2026-11-29 16:00"))
    assert later.name == "Dudo Hourly Arena", "named as its series: the pages show its start beside the name"
    assert (later.format, later.time_control, later.duration_minutes, later.no_show_minutes, later.description) == (
        "arena",
        "3+2",
        55,
        1,
        "Every hour.",
    )
    assert later.status == Tournament.Status.SCHEDULED and later.organizer.username == "olga"
    assert sorted(later.entries.values_list("house_bot", "user__username")) == [
        ("heuristic", "HeuristicBot"), ("random", "RandomBot")
    ]  # fmt: skip


def test_running_the_beat_again_creates_nothing_more_until_the_next_period_comes(hourly_arena):
    series.create_due(now=at("2026-11-29 15:00:30"))
    assert series.create_due(now=at("2026-11-29 15:50")) == 0
    assert series.create_due(now=at("2026-11-29 16:00:05")) == 1
    assert starts(hourly_arena)[-1] == at("2026-11-29 17:00")


def test_starts_missed_while_nothing_ran_are_skipped_not_created_in_the_past(hourly_arena):
    assert series.create_due(now=at("2026-11-30 09:30")) == 1
    assert starts(hourly_arena) == [at("2026-11-29 15:00"), at("2026-11-30 10:00")]


def test_a_daily_event_keeps_its_hour_on_the_series_clock_across_summer_time(olga):
    first = Tournament.objects.create(
        name="Evening Dudo", game="dudo", organizer=olga, starts_at=datetime.fromisoformat("2026-03-28T20:00+01:00")
    )
    made = series.start_series(first, Series.Every.DAY, time_zone="Europe/Paris", now=first.starts_at)
    series.create_due(now=datetime.fromisoformat("2026-03-29T10:00+02:00"))
    following = made.events.order_by("starts_at").last()
    assert following.starts_at == datetime.fromisoformat("2026-03-29T20:00+02:00"), "20:00 in Paris, now summer time"
    assert following.name == "Evening Dudo"


def test_a_weekly_series_lists_next_weeks_event_and_a_stopped_series_creates_none(olga):
    first = Tournament.objects.create(
        name="Sunday Swiss", game="dudo", organizer=olga, starts_at=at("2026-11-29 18:00")
    )
    made = series.start_series(first, Series.Every.WEEK, now=at("2026-11-29 12:00"))
    assert made.events.count() == 1
    series.create_due(now=at("2026-11-29 18:30"))
    assert starts(made)[-1] == at("2026-12-06 18:00")
    Series.objects.filter(pk=made.pk).update(active=False)
    assert series.create_due(now=at("2026-12-06 18:30")) == 0


def test_the_beat_entry_runs_the_series_task():
    from django.conf import settings

    assert settings.CELERY_BEAT_SCHEDULE["tournament-series"]["task"] == "tournaments.tasks.create_series_events"


def test_the_demo_has_an_arena_starting_within_the_hour_for_every_game_and_loads_no_duplicate(db, tmp_path):
    import json
    from pathlib import Path

    from django.utils import timezone

    from dubium import demo
    from games.engine import GAMES

    data = json.loads((Path(demo.SEEDS)).read_text())
    data.update(players=["alice"], tournaments=[], bot_matches=[])
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(data))
    demo.load(path, log=lambda line: None)
    demo.load(path, log=lambda line: None)
    now = timezone.now()
    arenas = Tournament.objects.filter(format="arena", status=Tournament.Status.SCHEDULED)
    assert sorted(arenas.values_list("game", flat=True)) == sorted(GAMES)
    for arena in arenas:
        assert now < arena.starts_at <= now + timedelta(hours=1), arena.name
        assert arena.entries.exclude(house_bot="").count() >= 2 and arena.series.every == Series.Every.HOUR
        assert arena.table_size >= 2 and arena.duration_minutes == demo.ARENA_MINUTES


def test_loading_the_demo_hours_later_lists_the_coming_arena(db, olga):
    from dubium import demo

    spec = {"series": "Dudo Hourly Arena", "minute": 0, "game": "dudo", "table_size": 2, "time_control": "3+2",
            "house_bots": ["random"]}  # fmt: skip
    assert demo.ensure_hourly_arena(spec, olga, at("2026-11-29 14:20"))
    assert not demo.ensure_hourly_arena(spec, olga, at("2026-11-29 19:05"))
    made = Series.objects.get(name="Dudo Hourly Arena")
    assert starts(made) == [at("2026-11-29 15:00"), at("2026-11-29 20:00")]


def test_an_organizer_repeats_a_tournament_in_her_time_zone_and_stops_the_series(client, olga, make_user):
    cup = Tournament.objects.create(
        name="Evening Cup", game="dudo", organizer=olga, starts_at=datetime.now(UTC) + timedelta(hours=3)
    )
    client.force_login(make_user("otto", role="organizer"))
    assert client.post(f"/organize/{cup.pk}/repeat/", {"every": "day"}).status_code == 404, "not his"
    client.force_login(olga)
    client.cookies["tz"] = "Europe/Paris"
    page = client.post(f"/organize/{cup.pk}/repeat/", {"every": "day"}, follow=True).content.decode()
    assert "Repeated every day: the next event is listed one period ahead." in page
    made = Series.objects.get(name="Evening Cup")
    assert (made.every, made.time_zone, made.organizer, list(made.events.all())) == ("day", "Europe/Paris", olga, [cup])
    assert "One of the series “Evening Cup”, every day" in client.get(f"/organize/{cup.pk}/").content.decode()
    page = client.post(f"/organize/{cup.pk}/repeat/", {"stop": "1"}, follow=True).content.decode()
    assert "The series Evening Cup creates no more events." in page
    made.refresh_from_db()
    assert not made.active


@pytest.mark.parametrize("arrival", ["14:00:30", "14:05", "14:11:59", "14:12", "14:30", "14:47", "14:59"])
def test_the_demo_s_five_arenas_start_12_minutes_apart_so_a_fresh_site_has_one_within_a_quarter_hour(
    db, olga, arrival
):
    import json
    from pathlib import Path

    from dubium import demo

    now = at(f"2026-11-29 {arrival}")
    for spec in json.loads(Path(demo.SEEDS).read_text())["arenas"]:
        demo.ensure_hourly_arena(spec, olga, now)
    firsts = sorted(Tournament.objects.filter(format="arena").values_list("starts_at", flat=True))
    assert len(firsts) == 5 and all(now < start <= now + timedelta(hours=1) for start in firsts)
    assert sorted(start.minute for start in firsts) == [0, 12, 24, 36, 48]
    assert firsts[0] - now <= timedelta(minutes=12), "an arrival at any minute finds one starting soon"
    dudo = Tournament.objects.get(game="dudo", format="arena")
    assert dudo.name == "Dudo Hourly Arena" and "starting at the full hour" in dudo.description
    dubito = Tournament.objects.get(game="dubito", format="arena")
    assert "starting at 12 minutes past the hour" in dubito.description


def test_repeat_it_asks_first_saying_what_it_will_make_and_when_the_next_event_starts(client, olga):
    """The button sits under Pause and Cancel and makes a series without end: one click must not."""
    cup = Tournament.objects.create(
        name="Evening Cup", game="dudo", organizer=olga, starts_at=datetime.now(UTC) + timedelta(hours=3)
    )
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert f'<form method="get" action="/organize/{cup.pk}/repeat/"' in page, "the button only asks"
    asked = client.get(f"/organize/{cup.pk}/repeat/", {"every": "hour"}).content.decode()
    assert not Series.objects.exists(), "asking makes nothing"
    assert "Repeat Evening Cup every hour?" in asked
    following = (cup.starts_at + timedelta(hours=1)).astimezone(UTC).strftime("%H:%M")  # no tz cookie: UTC
    assert "A new event then starts every hour, the next at" in asked and following in asked
    assert "with no end until you press “Stop repeating”" in asked
    assert 'name="every" value="hour"' in asked
    done = client.post(f"/organize/{cup.pk}/repeat/", {"every": "hour"}, follow=True).content.decode()
    assert "Repeated every hour" in done and Series.objects.get().every == "hour"
    again = client.get(f"/organize/{cup.pk}/repeat/", {"every": "hour"}, follow=True).content.decode()
    assert "Evening Cup is already one of the series Evening Cup." in again, "already repeated: nothing to ask"
