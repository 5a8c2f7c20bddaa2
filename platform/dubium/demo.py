"""Loads seeds/demo.json: people, an organizer, house bots, tournaments, an hourly arena per game
and finished bot matches.

Idempotent: whatever already exists is left alone, so `make run` can load it every time.
Bot matches are played through the real match service (ranked, so the ladders fill).
Each demo account gets a random password when it is created, reported once through `log`
and stored nowhere but in its hash: no installation shares a known password.
"""

import json
import secrets
from datetime import datetime, timedelta
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from games.engine import GAMES
from games.matches import lifecycle, wakeups
from games.matches.models import Match
from games.registry import bot_names
from tournaments import running, series, services
from tournaments.models import Series, Tournament

SEEDS = Path(settings.BASE_DIR) / "seeds" / "demo.json"
PLAYED_BEFORE = timedelta(minutes=15)  # about as long as the bots take over the demo's games
ARENA_MINUTES = 55  # each hourly arena ends before the next one starts
ARENA_WORDS = (
    "An arena every hour, starting at {past}: join whenever you like while it runs. The five games' arenas "
    "start 12 minutes apart, so one is always about to begin. House bots sit in when nobody else is free."
)


def load(path: Path = SEEDS, log=print) -> dict:
    data = json.loads(path.read_text())
    counts = {"users": 0, "tournaments": 0, "matches": 0, "series": 0}
    played_out = []
    with transaction.atomic():
        counts["users"] += ensure_users(data["players"], log, role="player")
        counts["users"] += ensure_users(data["organizers"], log, role="organizer")
        counts["users"] += ensure_users(data["staff"], log, role="staff", is_staff=True, is_superuser=True)
        for slug in GAMES:
            for name in bot_names(slug):
                lifecycle.house_bot_user(name)
        organizer = get_user_model().objects.get(username=data["organizers"][0])
        for spec in data["tournaments"]:
            tournament, created = Tournament.objects.get_or_create(
                name=spec["name"],
                game=spec["game"],
                defaults={
                    "format": spec["format"],
                    "table_size": spec["table_size"],
                    "rounds": spec["rounds"],
                    "organizer": organizer,
                    "starts_at": timezone.now() + timedelta(days=spec["starts_in_days"]),
                },
            )
            counts["tournaments"] += created
            if created:
                for name in spec.get("house_bots", []):
                    services.enter_house_bot(tournament.pk, name)
                if spec.get("play_out"):
                    played_out.append(tournament.pk)
        for spec in data["arenas"]:
            counts["series"] += ensure_hourly_arena(spec, organizer, timezone.now())
    # The bots play in simulated time, each game from the end of the one before, starting a while
    # back: the games' times run in the order they were played (and rated), and mostly in the past.
    # A tournament's next round is seated when its last game ends, or now if that is later.
    clock = timezone.now() - PLAYED_BEFORE
    for spec in data["bot_matches"]:
        if Match.objects.filter(game=spec["game"], seed=spec["seed"]).exists():
            continue
        match = play_bot_match(spec["game"], spec["bots"], spec["seed"], clock)
        clock = match.finished_at
        log(f"  {match}: {len(spec['bots'])} bots, {match.seq} moves, ranking {match.result['ranking']}")
        counts["matches"] += 1
    for tournament_id in played_out:
        running.start(tournament_id, now=clock)
        tournament = running.play_out(tournament_id)
        clock = max(clock, tournament.finished_at or clock)
        log(f"  {tournament}: {tournament.tables.count()} tables, {tournament.get_status_display().lower()}")
    return counts


def ensure_hourly_arena(spec: dict, organizer, now: datetime) -> bool:
    """The game's hourly arena series, its first event at the next start at its minute past the hour
    (each game's at another minute, so arrivals at any time find one starting soon) and, whenever
    the demo is loaded again, its next event (the beat creates the others). True when created."""
    made, created = Series.objects.get_or_create(
        name=spec["series"], defaults={"organizer": organizer, "every": Series.Every.HOUR}
    )
    if not made.events.exists():
        start = now.replace(minute=spec["minute"], second=0, microsecond=0)
        if start <= now:
            start += timedelta(hours=1)
        past = f"{spec['minute']} minutes past the hour" if spec["minute"] else "the full hour"
        first = Tournament.objects.create(
            name=made.name,
            game=spec["game"],
            format="arena",
            table_size=spec["table_size"],
            time_control=spec["time_control"],
            duration_minutes=ARENA_MINUTES,
            no_show_minutes=1,
            max_entries=200,
            description=ARENA_WORDS.format(past=past),
            organizer=organizer,
            starts_at=start,
            series=made,
        )
        for name in spec["house_bots"]:
            services.enter_house_bot(first.pk, name)
    series.extend(made.pk, now)
    return created


def ensure_users(names: list[str], log, **fields) -> int:
    """Creates the missing accounts, each with a fresh random password that is logged once."""
    created = 0
    for name in names:
        user, made = get_user_model().objects.get_or_create(
            username=name, defaults={**fields, "email": f"{name}@example.com"}
        )
        if made:
            password = secrets.token_urlsafe(12)
            user.set_password(password)
            user.save()
            log(f"  account {name}: password {password}")
            created += 1
    return created


def play_bot_match(game: str, bots: list[str], seed: int, start: datetime | None = None) -> Match:
    """A ranked match between house bots, started at `start` (now) and played to the end through the match service."""
    match = lifecycle.create_match(game=game, players=len(bots), ranked=True, seed=seed)
    for name in bots:
        lifecycle.seat_house_bot(match, name)
    lifecycle.start_match(match.pk, None, now=start)
    return wakeups.play_out(match.pk)
