"""Deals anyone at the table can verify: a commitment from the start, the seed and salt at the end."""

import json
import subprocess
import sys

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games import verify_deal
from games.matches import actions, lifecycle, presence, replays
from games.matches.models import Match, MatchAction

pytestmark = pytest.mark.django_db


def play_out(match: Match, players: dict) -> Match:
    """Doubt whenever a doubt is allowed, else make the first legal move, until the game ends."""
    while match.status == Match.Status.RUNNING:
        state = match.load_state()
        seat = match.engine.to_act(state)[0]
        legal = match.engine.legal_actions(state, seat)
        move = next((a for a in legal if a["type"] == "doubt"), legal[0])
        match = actions.submit_action(match.pk, players[seat], move, match.seq, MatchAction.Source.API)
        match.refresh_from_db()
    return match


@pytest.fixture
def secret_match(alice, bob):
    """A running Dudo match dealt from a random seed: 18 or so digits that no page holds by chance."""
    match = lifecycle.create_match(game="dudo", players=2, host=alice)
    lifecycle.join_match(match.pk, bob)
    return lifecycle.start_match(match.pk, alice)


def test_every_seat_and_spectator_sees_the_commitment_and_nobody_the_seed_while_it_runs(client, secret_match, alice):
    dudo_match = secret_match
    commitment = dudo_match.commitment
    assert commitment == verify_deal.commitment(dudo_match.seed, dudo_match.salt)
    secrets_ = (str(dudo_match.seed), dudo_match.salt)
    for viewer in (alice, None):
        client.logout()
        if viewer:
            client.force_login(viewer)
        answer = client.get(f"/api/matches/{dudo_match.pk}/")
        assert answer.json()["deal"] == {"commitment": commitment}
        assert answer.json()["state"]["deal"] == {"commitment": commitment}
        page = client.get(f"/match/{dudo_match.pk}/").content.decode()
        assert commitment in page
        for text in (answer.content.decode(), page, client.get("/api/matches/").content.decode()):
            assert not any(secret in text for secret in secrets_)
        assert client.get(f"/api/matches/{dudo_match.pk}/replay/").status_code == 409
        assert client.get(f"/api/matches/{dudo_match.pk}/replay/0/").status_code == 409
        assert client.get(f"/match/{dudo_match.pk}/replay/").status_code == 404
    for seat in (0, 1, None):
        message = json.dumps(presence.current_message(dudo_match.pk, seat))
        assert commitment in message and not any(secret in message for secret in secrets_)


def test_at_the_end_the_players_get_the_seed_and_salt_and_a_spectator_only_the_verdict(
    client, dudo_match, alice, bob, carol
):
    match = play_out(dudo_match, {0: alice, 1: bob})
    client.force_login(alice)
    deal = client.get(f"/api/matches/{match.pk}/").json()["deal"]
    assert deal == {"commitment": match.commitment, "seed": 42, "salt": match.salt}
    assert presence.current_message(match.pk, 1)["deal"]["seed"] == 42
    record = client.get(f"/api/matches/{match.pk}/replay/").json()
    assert verify_deal.verify(record).ok
    assert "The deal matches its seal" in client.get(f"/match/{match.pk}/replay/").content.decode()
    client.force_login(carol)
    assert client.get(f"/api/matches/{match.pk}/").json()["deal"] == {"commitment": match.commitment}
    assert "seed" not in presence.current_message(match.pk, None)["deal"]
    page = client.get(f"/match/{match.pk}/replay/").content.decode()
    assert "The deal matches its seal" in page and match.salt not in page
    assert client.get(f"/api/matches/{match.pk}/replay/").status_code == 403


def test_verify_match_says_fair_and_finds_an_event_the_seed_does_not_give(client, dudo_match, alice, bob, capsys):
    match = play_out(dudo_match, {0: alice, 1: bob})
    call_command("verify_match", str(match.pk))
    assert f"dudo match {match.pk}: FAIR" in capsys.readouterr().out
    doubt = match.actions.filter(action__type="doubt").first()
    doubt.events[0]["dice"] = [[6], [6]]  # the table was shown other dice than the seed rolled
    doubt.save()
    with pytest.raises(CommandError, match="not verified"):
        call_command("verify_match", str(match.pk))
    assert f"move {doubt.seq}: the seed gives other events" in capsys.readouterr().out
    assert "does NOT match" in client.get(f"/match/{match.pk}/replay/").content.decode()


def test_a_game_ranked_by_who_never_played_is_still_a_fair_deal(dudo_match, alice, bob):
    """The match ranks seats that never came or never moved by its own rule (last, or tied where
    nobody played), not as the clock's moves ended the game: the replay's check said "the deal does
    NOT match its seal" for such games (an outside tester). The same seats are still required."""
    match = play_out(dudo_match, {0: alice, 1: bob})
    record = replays.export(match)
    record["result"].update(idle=[0, 1], ranking=[[0, 1]])  # as the match records a game neither played
    assert verify_deal.verify(record).ok
    record["result"]["ranking"] = [[0]]
    assert not verify_deal.verify(record).ok


def test_a_seed_swapped_after_the_start_breaks_the_commitment(dudo_match, alice, bob):
    match = play_out(dudo_match, {0: alice, 1: bob})
    record = replays.export(match)
    record["seed"] += 1
    verdict = verify_deal.verify(record)
    assert verdict.commitment_ok is False and not verdict.ok


def test_the_downloaded_verifier_runs_alone_with_python_and_checks_a_record(client, dudo_match, alice, bob, tmp_path):
    match = play_out(dudo_match, {0: alice, 1: bob})
    verifier = tmp_path / "dubium-verifier.pyz"
    verifier.write_bytes(client.get("/fair-play/verifier.pyz").content)
    record = replays.export(match)
    (tmp_path / "good.json").write_text(json.dumps(record, default=str))
    record["salt"] = "0" * 32
    (tmp_path / "bad.json").write_text(json.dumps(record, default=str))
    run = [sys.executable, "-I", str(verifier)]  # -I: nothing of the project's path or packages
    good = subprocess.run([*run, "good.json"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert good.returncode == 0 and "FAIR" in good.stdout, good.stderr
    bad = subprocess.run([*run, "bad.json"], cwd=tmp_path, capture_output=True, text=True, check=False)
    assert bad.returncode == 1 and "commitment: DOES NOT MATCH" in bad.stdout
