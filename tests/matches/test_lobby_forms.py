"""The lobby's own forms, posted as a browser posts them: every game, every option, both paths."""

import re

import pytest

from games.engine import GAMES, get_game
from games.lobby.forms import NewTableForm, PlayComputerForm
from games.lobby.models import QueueEntry
from games.matches import lifecycle
from games.matches.models import Match
from tournaments.forms import HouseBotsForm

pytestmark = pytest.mark.django_db


def defaults_as_posted(form) -> dict:
    """What the page sends when nobody changes a field (unchecked boxes send nothing)."""
    data = {}
    for name, field in form.fields.items():
        initial = form.get_initial_for_field(field, name)
        if initial is True:
            data[name] = "on"
        elif initial is not None and initial is not False:
            data[name] = str(initial)
    return data


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_the_new_table_form_opens_a_table_with_its_defaults(client, alice, slug):
    client.force_login(alice)
    response = client.post(f"/play/{slug}/table/", defaults_as_posted(NewTableForm(GAMES[slug])))
    match = Match.objects.get(host=alice)
    assert response.status_code == 302 and response.url == f"/match/{match.pk}/"
    assert match.status == Match.Status.OPEN and match.options == GAMES[slug].clean_options(match.players, {})


@pytest.mark.parametrize("slug", sorted(GAMES))
def test_play_the_computer_starts_at_once_against_house_bots(client, alice, slug):
    client.force_login(alice)
    data = defaults_as_posted(PlayComputerForm(GAMES[slug]))
    data["players"] = "3"
    response = client.post(f"/play/{slug}/computer/", data)
    match = Match.objects.get(host=alice)
    assert response.status_code == 302 and response.url == f"/match/{match.pk}/"
    assert match.status == Match.Status.RUNNING and not match.ranked
    seats = list(match.seats.order_by("number"))
    assert seats[0].user == alice and [s.house_bot for s in seats[1:]] == [data["bot"]] * 2


def test_a_dudab_buba_table_with_two_starting_columns_is_created_from_posted_text(client, alice):
    client.force_login(alice)
    data = {**defaults_as_posted(NewTableForm(GAMES["dudab"])), "opt_four_player_columns": "2", "players": "4"}
    assert client.post("/play/dudab/table/", data).status_code == 302
    assert Match.objects.get(host=alice).options["four_player_columns"] == 2


def test_a_bad_option_shows_the_lobby_again_with_the_fields_error(client, alice):
    client.force_login(alice)
    data = {**defaults_as_posted(NewTableForm(GAMES["dudo"])), "opt_dice": "9"}
    response = client.post("/play/dudo/table/", data)
    assert response.status_code == 400 and not Match.objects.exists()
    assert "Ensure this value is less than or equal to 5." in response.content.decode()


def test_the_lobby_names_options_and_clocks_in_words(client, alice):
    client.force_login(alice)
    html = client.get("/play/dudo/").content.decode()
    assert "Ones wild in one-die rounds" in html and "palifico_wild:" not in html
    assert ">3+2</option>" in html and ">no clock</option>" in html and "ms)" not in html


def test_quick_pairing_sends_the_player_who_completes_a_table_to_it(client, alice, bob):
    client.force_login(alice)
    assert client.post("/play/dudo/queue/", {"players": "2", "time_control": "5+5"}).url == "/play/dudo/"
    client.force_login(bob)
    response = client.post("/play/dudo/queue/", {"players": "2", "time_control": "5+5"})
    match = Match.objects.get()
    assert response.url == f"/match/{match.pk}/" and not QueueEntry.objects.exists()
    assert match.ranked and match.clock_label == "5+5"


def test_no_clock_quick_pairing_is_casual_and_only_meets_the_same_time_control(client, alice, bob, carol):
    client.force_login(alice)
    client.post("/play/dudo/queue/", {"players": "2", "time_control": "3+2"})
    client.force_login(bob)
    assert client.post("/play/dudo/queue/", {"players": "2", "time_control": "none"}).url == "/play/dudo/"
    client.force_login(carol)
    client.post("/play/dudo/queue/", {"players": "2", "time_control": "none"})
    match = Match.objects.get()
    assert not match.ranked and match.clock_label == "no clock"
    assert {s.user.username for s in match.seats.all()} == {"bob", "carol"}


def test_the_table_names_its_options_and_clock_in_words(client, alice):
    client.force_login(alice)
    data = {**defaults_as_posted(NewTableForm(GAMES["dudo"])), "opt_dice": "1", "opt_palifico_wild": "on"}
    data["time_control"] = "turn-60"
    table = client.get(client.post("/play/dudo/table/", data).url).content.decode()
    assert "1 minute per move" in table and "Dice per player: 1" in table
    assert "casual · 1 minute per move" in client.get("/play/dudo/").content.decode()  # the open tables
    assert "Ones wild in one-die rounds: yes" in table and "Opening bid on ones: no" in table


def test_dobble_has_no_clock_but_its_quick_pairing_is_ranked_or_casual(client, alice, bob):
    client.force_login(alice)
    html = client.get("/play/dobble/").content.decode()
    assert ">Ranked</option>" in html and ">Casual</option>" in html and ">3+2<" not in html
    client.post("/play/dobble/queue/", {"players": "2", "time_control": "3+2"})
    client.force_login(bob)
    client.post("/play/dobble/queue/", {"players": "2", "time_control": "3+2"})
    match = Match.objects.get()
    assert match.ranked and match.clock_label == "no clock"


def test_every_strength_choice_is_one_ordered_list_of_distinct_bots_in_words(client, alice):
    """Weakest to strongest, each bot once: Dobble's `heuristic` (an alias of Medium) is not offered."""
    dobble = [(name, words.split(":")[0]) for name, words in PlayComputerForm(get_game("dobble")).fields["bot"].choices]
    assert dobble == [("random", "Beginner"), ("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")]
    assert PlayComputerForm(get_game("dobble")).fields["bot"].initial == "medium"
    dudo = [words.split(":")[0] for _, words in PlayComputerForm(get_game("dudo")).fields["bot"].choices]
    assert dudo == ["Beginner", "Strong"]
    assert list(HouseBotsForm(game="dobble").fields) == ["bots_random", "bots_easy", "bots_medium", "bots_hard"]
    client.force_login(alice)
    match = lifecycle.create_match(game="dobble", players=3, host=alice)
    html = client.get(f"/match/{match.pk}/").content.decode()
    offered = re.findall(r'<option value="(\w+)">(\w+):', html)
    assert offered == [("random", "Beginner"), ("easy", "Easy"), ("medium", "Medium"), ("hard", "Hard")]


def test_a_table_names_only_the_options_that_matter_at_its_size_and_mini_game(client, alice):
    client.force_login(alice)
    three = lifecycle.create_match(game="dudab", players=3, host=alice)
    four = lifecycle.create_match(game="dudab", players=4, host=alice)
    assert "with 4 players" not in client.get(f"/match/{three.pk}/").content.decode()
    assert "Starting columns with 4 players: 3 columns" in client.get(f"/match/{four.pk}/").content.decode()
    inferno = lifecycle.create_match(game="dobble", players=2, host=alice)
    potato = lifecycle.create_match(game="dobble", players=2, host=alice, options={"mini_game": "hot-potato"})
    assert "Hot Potato rounds" not in " ".join(inferno.option_labels())
    assert "Hot Potato rounds" in " ".join(potato.option_labels())
