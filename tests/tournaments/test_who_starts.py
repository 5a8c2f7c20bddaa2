"""Who moves first in a tournament: where the format gives the seat order (a Swiss's colours), the
first seat starts, though Dudo, I Doubt It and Dudab Buba draw who starts at a table among players."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches.models import Match
from tournaments import running, services
from tournaments.forms import TournamentForm
from tournaments.models import Entry, Table, Tournament

pytestmark = pytest.mark.django_db


def tournament(olga, game, **fields):
    fields = {"name": f"{game} cup", "starts_at": timezone.now() - timedelta(seconds=1), **fields}
    return Tournament.objects.create(game=game, organizer=olga, **fields)


def table_options(cup, round_number=1):
    return running.match_options(cup, Table(tournament=cup, round=round_number, number=1, seating=[]))


@pytest.mark.parametrize(
    ("game", "fields"),
    [
        ("dudo", {"format": "swiss"}),
        ("dudo", {"format": "round-robin"}),
        ("doubt-it", {"format": "swiss", "table_size": 3}),
        ("doubt-it", {"format": "knockout", "table_size": 3}),
        ("dudab", {"format": "rounds-total", "table_size": 3}),
    ],
)
def test_a_format_that_gives_the_seat_order_lets_the_first_seat_start_whatever_the_organizer_chose(olga, game, fields):
    cup = tournament(olga, game, options={"starter": "drawn"}, **fields)
    assert table_options(cup)["starter"] == "first_seat"
    assert table_options(cup, 2)["starter"] == "first_seat"


def test_an_arena_seats_by_waiting_time_so_its_tables_start_as_the_organizer_chose(olga):
    for chosen in ("drawn", "first_seat"):
        cup = tournament(olga, "dudo", format="arena", options={"starter": chosen}, name=f"arena {chosen}")
        assert table_options(cup)["starter"] == chosen
    assert "starter" not in table_options(tournament(olga, "dudo", format="arena")), "the game's default: drawn"


def test_a_game_that_never_draws_who_starts_is_given_no_such_option(olga):
    assert "starter" not in table_options(tournament(olga, "dubito", format="swiss"))
    assert "starter" not in table_options(tournament(olga, "dobble", format="dobble-series"))


def test_the_organizers_form_says_which_formats_let_the_first_seat_start(olga):
    help_text = TournamentForm(game="dudo").fields["opt_starter"].help_text
    assert help_text == (
        "In Swiss rounds, Round robin and Knockout the first seat always starts: the format decides who sits "
        "first, as it gives colours in chess. In Arena this choice holds."
    )


@pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit
def test_in_a_swiss_of_dudo_the_player_the_pairing_seated_first_moves_first(olga):
    """An outside arbiter saw Dudo's drawn starter break the colour rules: seed 1 moved second in
    round 1, and one player moved first three rounds running."""
    cup = tournament(olga, "dudo", rounds=4)
    for bot in ["heuristic", "random"] * 3:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    cup = running.play_out(cup.pk)
    users = dict(Entry.objects.filter(tournament=cup).values_list("pk", "user_id"))
    tables = list(cup.tables.select_related("match").order_by("round", "number"))
    assert len(tables) == 12 and all(table.match.status == Match.Status.FINISHED for table in tables)
    for table in tables:
        match = table.match
        assert match.options["starter"] == "first_seat"
        assert match.actions.order_by("seq").first().seat == 0, "the first move is the first seat's"
        assert match.seats.get(number=0).user_id == users[running.seat_order_of(cup, table)[0]]
        assert match.option_labels()[-1] == "Who starts: The first seat"
    seed_one = Entry.objects.get(tournament=cup, seed=1)
    (opening,) = [table for table in tables if table.round == 1 and seed_one.pk in table.seating]
    assert opening.seating[0] == seed_one.pk, "round 1: seed 1 (an odd pairing number) moves first"
