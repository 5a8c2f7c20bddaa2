"""The tables and matches API: one path with the websocket, for HTTP bots and scripts."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection

from games.engine import get_game
from games.matches import lifecycle
from games.matches.models import Match, MatchAction, Seat

pytestmark = pytest.mark.django_db


def post(client, url, body=None):
    return client.post(url, body or {}, content_type="application/json")


def test_games_lists_every_engine_with_its_options(client):
    games = {game["slug"]: game for game in client.get("/api/games/").json()}
    assert set(games) == {"dubito", "dudo", "doubt-it", "dobble", "dudab"}
    assert games["dudo"]["options"]["opening_ones"]["default"] is False


def test_a_bot_owner_hosts_a_table_seats_a_house_bot_and_plays_over_http(client, alice):
    client.force_login(alice)
    table = post(client, "/api/matches/", {"game": "dudo", "players": 2, "options": {"dice": 1}}).json()
    assert post(client, f"/api/matches/{table['id']}/bots/", {"bot": "random"}).status_code == 201
    started = post(client, f"/api/matches/{table['id']}/start/").json()
    assert started["status"] == "running"
    match = Match.objects.get(pk=table["id"])
    engine = get_game("dudo")
    if engine.to_act(match.load_state()) == [0]:
        reply = post(
            client, f"/api/matches/{match.pk}/actions/", {"action": {"type": "bid", "quantity": 1, "face": 3}, "seq": 0}
        )
        assert reply.status_code == 200 and reply.json()["seq"] == 1
        assert MatchAction.objects.get(match=match).source == "api"
    else:
        reply = post(client, f"/api/matches/{match.pk}/actions/", {"action": {"type": "doubt"}, "seq": 0})
        assert reply.json()["code"] == "not_your_turn"


def test_the_api_refuses_stale_moves_with_409_and_spectators_with_403(client, alice, bob, carol):
    client.force_login(alice)
    table = post(client, "/api/matches/", {"game": "dudo", "players": 2}).json()
    client.force_login(bob)
    post(client, f"/api/matches/{table['id']}/join/")
    client.force_login(alice)
    post(client, f"/api/matches/{table['id']}/start/")
    stale = post(client, f"/api/matches/{table['id']}/actions/", {"action": {"type": "doubt"}, "seq": 7})
    assert stale.status_code == 409 and stale.json()["code"] == "stale"
    client.force_login(carol)
    watcher = post(client, f"/api/matches/{table['id']}/actions/", {"action": {"type": "doubt"}, "seq": 0})
    assert watcher.status_code == 403 and watcher.json()["code"] == "not_seated"


def test_a_finished_match_exports_a_replay_that_the_replay_command_verifies(client, tmp_path, make_user):
    from dubium import demo

    match = demo.play_bot_match("dubito", ["heuristic", "random"], seed=9)
    client.force_login(make_user("steward", is_staff=True, is_superuser=True))
    export = client.get(f"/api/matches/{match.pk}/replay/").json()
    assert (export["seed"], len(export["actions"])) == (9, match.seq)
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(export))
    call_command("replay", str(path))
    client.force_login(match.seats.get(number=1).user)
    step = client.get(f"/api/matches/{match.pk}/replay/3/?seat=1").json()
    assert (step["step"], step["view"]["seat"]) == (3, 1)
    assert client.get(f"/api/matches/{match.pk}/replay/{match.seq + 1}/").status_code == 400


def test_a_tampered_replay_fails_verification(client, tmp_path, make_user):
    from django.core.management.base import CommandError

    from dubium import demo

    match = demo.play_bot_match("dudo", ["heuristic", "random"], seed=5)
    client.force_login(make_user("steward", is_staff=True, is_superuser=True))
    export = client.get(f"/api/matches/{match.pk}/replay/").json()
    export["result"]["ranking"] = list(reversed(export["result"]["ranking"]))
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(export))
    with pytest.raises(CommandError, match="do not reproduce"):
        call_command("replay", str(path))


def test_the_full_record_of_a_hidden_hand_game_goes_to_superusers_its_players_and_its_bots_owners(
    client, alice, bob, make_user
):
    """Organizers downloaded every hidden hand because they were staff (issue 30); a bot's owner
    could not export their own bot's finished game (issue 36)."""
    from dubium import demo

    dudo = demo.play_bot_match("dudo", ["heuristic", "random"], seed=5)
    dobble = demo.play_bot_match("dobble", ["easy", "hard"], seed=5)
    owner = make_user("carol_owner")
    robo = make_user("robo", is_bot=True, bot_owner=owner)
    mine = lifecycle.create_match(game="dudo", players=2, host=alice, seed=3)
    lifecycle.join_match(mine.pk, robo)
    lifecycle.start_match(mine.pk, alice)
    client.force_login(alice)
    assert client.get(f"/api/matches/{mine.pk}/replay/").status_code == 409, "only after the end"
    lifecycle.leave_match(mine.pk, alice)
    staff = make_user("steward", is_staff=True, role="staff")
    organizer = make_user("olga", role="organizer")
    for viewer in (None, bob, staff, organizer, alice):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        refused = client.get(f"/api/matches/{dudo.pk}/replay/")
        assert refused.status_code == 403 and refused.json()["code"] == "hidden_information", viewer
        assert client.get(f"/api/matches/{dobble.pk}/replay/").json()["seed"] == 5  # nothing hidden in Dobble
    for viewer, allowed in ((bob, False), (organizer, False), (staff, False), (alice, True), (owner, True)):
        client.force_login(viewer)
        assert client.get(f"/api/matches/{mine.pk}/replay/").status_code == (200 if allowed else 403), viewer
        page = client.get(f"/match/{mine.pk}/replay/").content.decode()
        assert (f"/api/matches/{mine.pk}/replay/" in page) is allowed, viewer
    client.force_login(make_user("root", is_staff=True, is_superuser=True))
    assert client.get(f"/api/matches/{dudo.pk}/replay/").json()["seed"] == 5


def test_replays_open_only_when_the_match_is_over(client, alice):
    client.force_login(alice)
    table = post(client, "/api/matches/", {"game": "dudo", "players": 2}).json()
    assert client.get(f"/api/matches/{table['id']}/replay/").status_code == 409


def test_the_simulate_command_reports_win_rates_as_json(capsys):
    call_command("simulate", "dudo", "--players", "2", "--games", "20", "--json")
    report = json.loads(capsys.readouterr().out)
    assert report["games"] == 20 and report["win_rate"]["heuristic"] > report["win_rate"]["random"]


def test_a_polling_bot_finds_its_own_tables_and_whether_it_is_to_act(client, alice, bob):
    """An HTTP bot paired by the queue had to scan every table on the site to find its own."""
    client.force_login(bob)
    post(client, "/api/matches/", {"game": "dudo", "players": 3})  # someone else's table
    client.force_login(alice)
    table = post(client, "/api/matches/", {"game": "dudo", "players": 2, "options": {"dice": 1}}).json()
    post(client, f"/api/matches/{table['id']}/bots/", {"bot": "random"})
    post(client, f"/api/matches/{table['id']}/start/")
    mine = client.get("/api/matches/?mine=1").json()
    match = Match.objects.get(pk=table["id"])
    to_act = get_game("dudo").to_act(match.load_state())
    assert [(row["id"], row["your_seat"], row["your_turn"]) for row in mine] == [(match.pk, 0, to_act == [0])]
    assert len(client.get("/api/matches/").json()) == 2
    assert client.get("/api/matches/?mine=1&status=finished").json() == []
    post(client, f"/api/matches/{table['id']}/leave/")  # a resignation: the house bot wins
    finished = client.get("/api/matches/?mine=1&status=finished").json()
    assert [(row["id"], row["status"]) for row in finished] == [(match.pk, "finished")], "a bot finds its past games"
    assert client.get("/api/matches/?status=open").json()[0]["status"] == "open"
    for wrong in ("status=done", "game=nosuch", "mine=yes"):
        refused = client.get(f"/api/matches/?{wrong}")
        assert refused.status_code == 400 and refused.json()["code"] == "bad_request", wrong
    client.logout()
    assert client.get("/api/matches/?mine=1").status_code == 403


def test_a_bot_that_leaves_a_table_while_it_polls_its_own_gets_a_list_not_a_server_error(client, alice, bob):
    """7 of 257 polls answered 500: the seat went between the list's query and its seats' query."""
    client.force_login(bob)
    table = post(client, "/api/matches/", {"game": "dudo", "players": 3}).json()
    seat = Match.objects.get(pk=table["id"]).seats.get()
    left = []

    def leave_before_the_seats_are_read(execute, sql, params, many, context):
        if not left and 'FROM "matches_seat"' in sql:
            left.append(True)
            Seat.objects.filter(pk=seat.pk).delete()
        return execute(sql, params, many, context)

    with connection.execute_wrapper(leave_before_the_seats_are_read):
        polled = client.get("/api/matches/?mine=1")
    assert left and polled.status_code == 200 and polled.json() == []


def test_a_host_keeps_at_most_five_tables_waiting(client, alice):
    """A script opened 100 tables and pushed everyone else's off the lobby's list."""
    client.force_login(alice)
    for _ in range(5):
        assert post(client, "/api/matches/", {"game": "dudo", "players": 10}).status_code == 201
    refused = post(client, "/api/matches/", {"game": "dudo", "players": 10})
    assert refused.status_code == 400 and refused.json()["code"] == "too_many_tables"
    post(client, f"/api/matches/{Match.objects.first().pk}/leave/")
    assert post(client, "/api/matches/", {"game": "dudo", "players": 10}).status_code == 201
    bot = get_user_model().objects.create_user("Dicey", is_bot=True, bot_owner=alice)
    client.force_login(bot)
    refused = post(client, "/api/matches/", {"game": "dudo", "players": 10})
    assert refused.json()["code"] == "too_many_tables", "her bots' tables count as hers"


def test_an_api_path_that_names_nothing_is_a_json_404_even_with_debug_on(client, settings):
    settings.DEBUG = True
    for path in ("/api/matches/1/replay/-1/", "/api/nothing/here/"):
        missing = client.get(path)
        assert missing.status_code == 404 and missing.json()["message"] == "No such API path.", path
    unknown = client.get("/api/bots/NoSuchBot/")
    assert unknown.status_code == 404 and unknown.json()["message"] == "No such object.", "no model names"


def test_a_ranked_table_a_person_hosts_has_a_clock_and_no_house_bots(client, alice):
    """Ranked tables without a clock against house bots: keep the games you win, walk away from the rest."""
    client.force_login(alice)
    refused = post(client, "/api/matches/", {"game": "dudo", "players": 2, "ranked": True})
    assert refused.status_code == 400 and "A ranked table needs a clock" in refused.json()["message"]
    clocked = {"clock": "turn", "clock_initial_ms": 30_000}
    table = post(client, "/api/matches/", {"game": "dudo", "players": 2, "ranked": True, **clocked}).json()
    bot = post(client, f"/api/matches/{table['id']}/bots/", {"bot": "heuristic"})
    assert bot.status_code == 400 and bot.json()["message"].startswith("Games against the computer are casual")
