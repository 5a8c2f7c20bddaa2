"""Site pages of no single app: home, the health check, the shared layout, and the stdlib `platform`."""

import sys
import sysconfig
from pathlib import Path

import pytest
from django.db import OperationalError
from django.utils import timezone

from dubium import views
from games.engine import GAMES
from games.matches.lifecycle import start_seated_match

pytestmark = pytest.mark.django_db
REPO = Path(__file__).resolve().parents[1]


def test_home_says_what_dubium_is_and_names_the_five_games(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Dubium is an online home for five games" in html
    for name in ["Dubito", "Dudo", "I Doubt It", "Dobble", "Dudab Buba"]:
        assert f"<h3>{name}</h3>" in html or f">{name}</a></h3>" in html, name


def test_home_links_each_playable_game_to_its_lobby_rules_and_ladder(client):
    html = client.get("/").content.decode()
    for game in GAMES.values():
        assert f'<h3><a href="/play/{game.slug}/">{game.name}</a></h3>' in html
        assert f'href="/rules/{game.slug}/"' in html
        assert f'href="/leaderboards/{game.slug}/"' in html
        assert f"{game.min_players}–{game.max_players} players" in html


def test_home_shows_the_top_established_players_of_each_ladder(client, alice, bob, carol):
    from ratings.models import Rating

    Rating.objects.create(user=alice, game="dudo", elo=1620, games=42, wins=28, sigma=4.0, established_opponents=10)
    Rating.objects.create(user=bob, game="dudo", elo=1480, games=30, wins=11, sigma=4.5, established_opponents=10)
    Rating.objects.create(user=carol, game="dudo", elo=1900, games=4, wins=4)  # provisional: not ranked
    html = client.get("/").content.decode()
    top = html[html.index('aria-label="Top Dudo players"'):]
    assert top.index("alice") < top.index("bob")
    assert "1620" in top and "carol" not in html


def test_home_invites_visitors_to_register_or_log_in(client):
    html = client.get("/").content.decode()
    assert 'href="/accounts/register/">Create an account</a>' in html
    assert 'href="/accounts/login/">log in</a>' in html


def test_home_does_not_invite_a_signed_in_user_to_register(client, alice):
    client.force_login(alice)
    html = client.get("/").content.decode()
    assert "Create an account" not in html
    assert 'href="/accounts/register/"' not in html


def test_every_page_has_the_header_with_the_brand_and_the_main_navigation(client):
    html = client.get("/").content.decode()
    assert '<a class="brand" href="/">Dubium</a>' in html
    assert '<a href="/" aria-current="page">Home</a>' in html
    assert '<a href="/play/">Play</a>' in html
    assert 'href="/accounts/login/">Log in</a>' in html
    assert '<a class="skip" href="#main">Skip to content</a>' in html
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


def test_pages_load_no_file_from_another_host(client):
    html = client.get("/").content.decode()
    assert "http://" not in html and "https://" not in html and 'src="//' not in html


def test_the_stylesheet_is_served_and_has_focus_styles_and_a_phone_layout(client):
    css = (REPO / "static" / "css" / "site.css").read_text()
    assert ":focus-visible" in css
    assert "@media (max-width: 700px)" in css
    assert "@import" not in css and "url(http" not in css


def test_healthz_reports_the_database_ok(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.json() == {"status": "ok", "database": "ok"}
    assert "no-cache" in response["Cache-Control"]


def test_healthz_answers_503_when_the_database_fails(client, monkeypatch):
    def broken_cursor(*args, **kwargs):
        raise OperationalError("connection refused")

    monkeypatch.setattr(views.connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "error", "database": "unreachable"}


def test_the_platform_module_is_the_standard_library_s_under_django(settings):
    import django.conf

    assert settings.ROOT_URLCONF == "dubium.urls" and django.conf.settings.configured
    import platform

    assert hasattr(platform, "python_version")
    assert platform.python_version() == "{}.{}.{}".format(*sys.version_info[:3])
    module_file = Path(platform.__file__).resolve()
    assert module_file.parent == Path(sysconfig.get_paths()["stdlib"]).resolve()
    assert REPO not in module_file.parents


def test_home_names_a_live_match_by_its_players_not_its_id(client, alice, bob):
    match = start_seated_match(game="dudo", seats=[{"user": alice}, {"user": bob}], now=timezone.now())
    html = client.get("/").content.decode()
    assert f'href="/match/{match.pk}/">Dudo</a>: alice, bob' in html
    assert f"#{match.pk}" not in html
