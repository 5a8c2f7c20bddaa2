"""Production settings pass Django's deployment checklist with no warning at all."""

import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
# Settings read from the environment are the same on both stacks: these start Python afresh, once.


def test_check_deploy_is_clean_with_debug_off():
    env = {**os.environ, "DEBUG": "false", "SECRET_KEY": secrets.token_urlsafe(50)}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)  # set by the browser tests for their own process only
    finished = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert finished.returncode == 0, finished.stdout + finished.stderr
    assert "no issues" in finished.stdout


def run_django(*args: str, **env: str) -> subprocess.CompletedProcess:
    """A fresh Python with these environment variables and no SECRET_KEY unless given."""
    environment = {key: value for key, value in os.environ.items() if key not in ("SECRET_KEY", "DEBUG")}
    environment.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env={**environment, **env}, capture_output=True, text=True, timeout=120
    )


@pytest.mark.once
@pytest.mark.parametrize(
    "start",
    [("manage.py", "check"), ("-c", "import dubium.asgi"), ("-m", "celery", "-A", "dubium", "report")],
    ids=["manage.py", "web server", "celery"],
)
def test_production_refuses_to_start_on_the_development_key(start):
    finished = run_django(*start, DEBUG="false", SECRET_KEY="", PYTHONPATH=f"{ROOT / 'platform'}")
    assert finished.returncode != 0
    assert "DEBUG is off but SECRET_KEY is not set" in finished.stderr


@pytest.mark.once
@pytest.mark.parametrize(
    "keys",
    [
        {"SECRET_KEY": secrets.token_urlsafe(30)},  # 40 characters: Django's check wants 50
        {"SECRET_KEY": "ab" * 40},  # long, but 2 different characters
        {"SECRET_KEY": "django-insecure-" + secrets.token_urlsafe(50)},
        {"SECRET_KEY": secrets.token_urlsafe(50), "SECRET_KEY_FALLBACKS": "hunter2"},
    ],
    ids=["short", "two characters", "startproject's prefix", "a weak fallback"],
)
def test_production_refuses_a_weak_secret_key(keys):
    """A tester ran production on a short key (issue 32): one signed cookie lets it be guessed offline."""
    finished = run_django("manage.py", "check", DEBUG="false", **keys)
    assert finished.returncode != 0
    assert "SECRET_KEY (or one of SECRET_KEY_FALLBACKS) is weak: it needs at least 50 characters" in finished.stderr


@pytest.mark.once
def test_check_deploy_names_the_development_key():
    finished = run_django("manage.py", "check", "--deploy", DEBUG="true")
    assert finished.returncode != 0
    assert "(dubium.E001) SECRET_KEY is the development key" in finished.stdout + finished.stderr


def test_production_responses_carry_the_security_headers(client, settings, db):
    settings.DEBUG = False
    answer = client.get("/", secure=True, HTTP_HOST="localhost")
    policy = answer["Content-Security-Policy"]
    assert "script-src 'self'" in policy and "connect-src 'self' ws://localhost wss://localhost" in policy
    assert answer["X-Frame-Options"] == "DENY" and answer["X-Content-Type-Options"] == "nosniff"


def test_only_djangos_own_error_pages_may_style_themselves_inline_and_only_with_debug_on(client, settings, db):
    """`make run` (DEBUG on) shows Django's explanation of a 404, which is styled inline."""
    settings.DEBUG = True
    missing = client.get("/no-such-page/")
    assert missing.status_code == 404 and "<style" in missing.content.decode()
    assert "style-src 'self' 'unsafe-inline'" in missing["Content-Security-Policy"]
    assert "'unsafe-inline'" not in client.get("/")["Content-Security-Policy"]
    settings.DEBUG = False
    assert "'unsafe-inline'" not in client.get("/no-such-page/")["Content-Security-Policy"]
