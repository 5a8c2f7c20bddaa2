"""A Swiss player who came to the table but made no move of their own (the clock made every
one: the match service's "idle"): an arbiter's findings on how the event counts and says it."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import presence, wakeups
from tournaments import running, services
from tournaments.models import Score, Tournament
from tournaments.rounds import lines
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def swiss_with_an_idle_player(olga, alice, rounds: int = 3, options=None, **fields) -> tuple[Tournament, object]:
    """alice and three house bots; alice opens her round 1 table and never moves: the clock
    moves for her until it counts her out. Round 1's other table is played too."""
    cup = Tournament.objects.create(
        name="Arb Swiss",
        game="dudo",
        organizer=olga,
        starts_at=timezone.now() - timedelta(seconds=1),
        rounds=rounds,
        no_show_minutes=0,
        options=options or {},
        **fields,
    )
    services.enter(cup.pk, alice)
    for bot in ("heuristic", "random", "heuristic"):
        services.enter_house_bot(cup.pk, bot)
    cup = running.start(cup.pk)
    alices = cup.entries.get(user=alice).pk
    table = next(t for t in cup.tables.filter(round=1) if alices in t.seating)
    presence.connected(table.match_id, table.seating.index(alices), "alice's socket", True)
    for other in cup.tables.filter(round=1):
        wakeups.play_out(other.match_id)
    table.refresh_from_db()
    return Tournament.objects.get(pk=cup.pk), table


def unplayed_words(client, cup: Tournament, name: str) -> str:
    """What the standings' "Unplayed rounds in the tiebreaks" say of one player."""
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    return page.split(f"<dt>{name}</dt>")[1].split("</dd>")[0]


def test_the_opponent_of_a_player_who_made_no_move_has_a_forfeit_win_not_a_forfeit_loss(client, olga, alice):
    """An arbiter read "Round 1 (forfeit loss)" under the player who won because alice never moved."""
    cup, table = swiss_with_an_idle_player(olga, alice)
    opponent = next(s.entry.user.username for s in Score.objects.filter(table=table).exclude(entry__user=alice))
    assert "round 1 (forfeit win) counts against a stand-in" in unplayed_words(client, cup, opponent).lower()
    assert "round 1 (forfeit loss) counts against a stand-in" in unplayed_words(client, cup, "alice").lower()


def test_the_game_page_says_what_the_round_list_says_of_a_player_who_made_no_move(client, olga, alice):
    """The clock counted alice out: her game's page said "alice timed out before every player had
    made a move (Arb Swiss counts the game as played)" while the round list said she made no move:
    one sentence for both."""
    cup, table = swiss_with_an_idle_player(olga, alice)
    assert table.match.result["idle"] == table.match.result["forfeited"], "counted out, never having moved"
    said = "alice made no move of their own: counted as a forfeit"
    shown = client.get(f"/api/matches/{table.match_id}/").json()["state"]  # what the game's page draws
    assert shown["not_rated"] == said
    assert said in lines(cup, 1)[1][table.number - 1].result, "the round list's words"


def seat_kinds(client, cup: Tournament, table) -> dict[str, str]:
    """Each player's kind at the table, as the pairings download gives it."""
    pairings = client.get(f"/tournaments/{cup.pk}/pairings.json").json()["pairings"]
    line = next(line for line in pairings if line["match"] == table.match_id)
    return {seat["player"]: seat["kind"] for seat in line["seats"]}


@pytest.mark.parametrize("dice", [None, 1])  # counted out by the clock; or a short game the clock played to its end
def test_a_game_against_a_player_who_made_no_move_is_played_by_neither_and_a_forfeit_win_for_the_other(
    client, olga, alice, dice
):
    """FIDE: a game lost by forfeit is not played, for either side. The standings' "Played" and the
    pairings download counted it as played while the tiebreaks counted it as a forfeit."""
    cup, table = swiss_with_an_idle_player(olga, alice, options={"dice": dice} if dice else {})
    opponent = next(s.entry.user.username for s in Score.objects.filter(table=table).exclude(entry__user=alice))
    assert seat_kinds(client, cup, table) == {"alice": "forfeited", opponent: "walkover"}
    played = {row["player"]: row["played"] for row in standings(cup)}
    assert played["alice"] == played[opponent] == 0
    assert set(played.values()) == {0, 1}, "the other table's two played theirs"


@pytest.mark.parametrize("withdraw", [True, False])
def test_a_player_who_made_no_move_is_withdrawn_like_a_no_show_and_the_page_says_why(client, olga, alice, withdraw):
    """An arbiter saw a player who came but never moved paired every round (4 walkovers and the
    1-point bye): an arbiter withdraws them as a no-show, unless the tournament pairs no-shows on."""
    cup, _ = swiss_with_an_idle_player(olga, alice, withdraw_no_shows=withdraw)
    entry = cup.entries.get(user=alice)
    assert cup.tables.filter(round=2).exists(), "round 2 is seated"
    in_round_2 = any(entry.pk in table.seating for table in cup.tables.filter(round=2))
    in_round_2 |= cup.scores.filter(round=2, entry=entry).exists()  # a bye
    assert in_round_2 is not withdraw
    if withdraw:
        assert (entry.withdrawn_after, entry.no_show_round, entry.made_no_move) == (1, 1, True)
        said = "withdrawn: made no move in round 1 (the clock made every one)"
        assert said in client.get(f"/tournaments/{cup.pk}/").content.decode()
        client.force_login(alice)
        page = client.get(f"/tournaments/{cup.pk}/").content.decode()
        assert "You made no move in your round 1 game (the clock made every one), so you are withdrawn" in page
