"""No installation shares a known password: demo accounts are random, and production loads none."""

import json
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

from dubium import demo

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def small_seeds(tmp_path):
    data = json.loads((ROOT / "seeds" / "demo.json").read_text())
    data.update(players=["alice"], tournaments=[], bot_matches=[])
    path = tmp_path / "demo.json"
    path.write_text(json.dumps(data))
    return path


def test_the_seeds_hold_no_password():
    assert "password" not in (ROOT / "seeds" / "demo.json").read_text()


def test_load_demo_refuses_when_debug_is_off(settings, db, django_user_model):
    settings.DEBUG = False
    with pytest.raises(CommandError, match="createsuperuser"):
        call_command("load_demo")
    assert not django_user_model.objects.exists()


def test_each_demo_account_gets_a_random_password_printed_once(db, small_seeds):
    printed = []
    demo.load(small_seeds, log=printed.append)
    passwords = dict(re.findall(r"account (\w+): password (\S+)", "\n".join(printed)))
    assert set(passwords) == {"alice", "olga", "admin"}
    assert len(set(passwords.values())) == 3
    admin = get_user_model().objects.get(username="admin")
    assert admin.is_superuser and admin.check_password(passwords["admin"])
    assert not admin.check_password("dubium-demo")
    again = []
    demo.load(small_seeds, log=again.append)
    assert not any("password" in line for line in again)


def test_production_setups_create_no_account():
    compose = (ROOT / "docker" / "compose.yaml").read_text()
    stack_target = (ROOT / "Makefile").read_text().split("\nstack:")[1].split("\n\n")[0]
    assert "load_demo" not in compose and "load_demo" not in stack_target
    assert "createsuperuser --noinput" not in compose + stack_target


def test_the_demo_loader_belongs_to_the_site_not_the_match_service():
    from django.core.management import get_commands

    assert get_commands()["load_demo"] == "dubium"
    assert not (ROOT / "games" / "matches" / "demo.py").exists()
