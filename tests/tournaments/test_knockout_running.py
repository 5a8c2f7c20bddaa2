"""Knockouts run end to end: a seeded best-of-three bracket with byes, and a free-for-all knockout."""

import csv
import io
import re
from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import wakeups
from games.matches.models import Match
from tournaments import brackets, organizing, running, services, tiebreaks
from tournaments.models import Score, Tournament
from tournaments.standings import standings, tiebreak_names

pytestmark = pytest.mark.django_db(transaction=True)


def knockout(olga, game, bots, **fields):
    cup = started(olga, game, bots, **fields)
    return running.play_out(cup.pk)


def started(olga, game, bots, **fields):
    cup = Tournament.objects.create(
        name=f"{game} knockout",
        game=game,
        organizer=olga,
        starts_at=timezone.now() - timedelta(seconds=1),
        format="knockout",
        **fields,
    )
    for bot in bots:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    return Tournament.objects.get(pk=cup.pk)


def test_a_best_of_three_bracket_gives_byes_to_the_top_seeds_and_ends_with_one_champion(olga, client):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 3, best_of=3)
    assert cup.status == Tournament.Status.FINISHED and cup.rounds == 3
    byes = Score.objects.filter(tournament=cup, kind="bye")
    assert sorted(cup.entries.get(pk=b.entry_id).seed for b in byes) == [1, 2], "6 players: seeds 1 and 2 skip round 1"
    for table in cup.tables.filter(round=1).exclude(match=None):
        games = cup.tables.filter(
            round=1, number__gt=(table.number - 1) // 5 * 5, number__lte=(table.number - 1) // 5 * 5 + 5
        )
        assert 2 <= games.count() <= 5
    rows = standings(cup)
    assert rows[0]["points"] == 4.0 and [r["points"] for r in rows].count(4.0) == 1, "one champion"
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Bracket" in page and "(bye)" in page and "Final" in page
    assert "Round 3: final" in page and "Round 2: semi-final" in page, "the round lists say which stage they are"
    assert "Round 1: quarter-final" in page
    client.force_login(olga)  # a signed-in visitor: the byes' tables have no match and no chooser
    assert "(bye)" in client.get(f"/tournaments/{cup.pk}/").content.decode()


def test_a_free_for_all_knockout_sends_the_top_two_of_each_table_to_the_final(olga):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 4, table_size=4, advance=2)
    assert cup.status == Tournament.Status.FINISHED
    first, final = cup.tables.filter(round=1), cup.tables.filter(round=2)
    assert first.count() == 2 and final.count() == 1 and len(final.get().seating) == 4


def test_an_i_doubt_it_knockout_fills_its_final_table_with_the_best_second_place(olga, client):
    """Six players at two tables of three, one going through from each: two cannot play I Doubt
    It, so the better of the two second places joins them at the final table, and the bracket
    says why they are there."""
    cup = knockout(olga, "doubt-it", ["heuristic", "random"] * 3, table_size=3, advance=1)
    assert cup.status == Tournament.Status.FINISHED
    first, final = cup.tables.filter(round=1), cup.tables.get(round=2)
    winners = {table.seating[table.match.result["ranking"][0][0]] for table in first}
    assert len(final.seating) == 3 and winners < set(final.seating)
    second = (set(final.seating) - winners).pop()
    assert any(table.seating[table.match.result["ranking"][1][0]] == second for table in first)
    name = cup.entries.get(pk=second).user.username
    bracket = client.get(f"/tournaments/{cup.pk}/").content.decode().partition('id="bracket"')[2]
    assert f"and {name} as one of the best next places, to fill the next table" in bracket


def play_one_game(cup):
    match = Match.objects.filter(tournament_table__tournament=cup, status=Match.Status.RUNNING).first()
    wakeups.play_out(match.pk)
    running.record_match(match.pk)  # as the match service's event would (here the sweep)
    return Match.objects.get(pk=match.pk)


@pytest.mark.parametrize("fields", [{"best_of": 1}, {"table_size": 3, "advance": 1}])
def test_a_player_who_went_through_ranks_above_those_still_playing_the_round(olga, fields):
    """Mid-round, going through is reaching the next round: the winner of the first table
    decided ranks first, "Final" reached, above the players whose tables still play."""
    bots = ["heuristic", "random"] * (2 if fields.get("table_size") is None else 3)
    cup = started(olga, "dudo", bots, **fields)
    table = play_one_game(cup).tournament_table
    rows = standings(cup)
    through = [row for row in rows if row["reached"] == "Final"]
    assert len(through) == 1 and through[0]["place"] == 1 and through[0]["entry"].pk in table.seating
    playing = [row for row in rows if row["entry"].pk not in table.seating]
    assert playing and all(row["place"] == 2 for row in playing), "those still playing share second place"
    assert all(row["place"] > 2 for row in rows if row["entry"].pk in table.seating and row not in through)


def test_the_pairings_export_gives_each_game_of_a_series_its_own_points(olga, client):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 2, best_of=3)
    rows = list(csv.reader(io.StringIO(client.get(f"/tournaments/{cup.pk}/pairings.csv").content.decode("utf-8-sig"))))
    games = [row for row in rows[1:] if ", game " in row[1]]
    assert len(games) >= 6, "three pairings of at least two games"
    for row in games:
        assert row[5:7] in (["1", "0"], ["0", "1"], ["0.5", "0.5"]), f"a game's own points, not the series': {row}"
        assert row[4] == row[2], f"seat 1 starts each game, and seat 1 takes turns in a series: {row}"


def test_uneven_knockout_tables_give_the_top_seeds_the_smaller_tables(olga):
    """Seven at tables of up to three, the winner of each going through: seeds 1 and 2 sit at
    the tables of two (one opponent each), seed 3 at the table of three."""
    cup = started(olga, "dobble", ["hard", "easy", "hard", "easy", "hard", "easy", "hard"], table_size=3, advance=1)
    seeds = dict(cup.entries.values_list("pk", "seed"))
    tables = sorted(sorted(seeds[e] for e in table.seating) for table in cup.tables.filter(round=1))
    assert tables == [[1, 6], [2, 5], [3, 4, 7]]


def test_a_multi_table_knockout_s_rounds_are_headed_without_repeating_themselves(olga, client):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 4, table_size=4, advance=2)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 2: final" in page and "Round 1: round 1" not in page
    bracket = page.partition('id="bracket"')[2].partition("</div>")[0]
    assert "→ 1st " in bracket and ", 2nd " in bracket, "the final's places, not only its winner"


def test_a_knockout_player_s_finished_game_says_whether_they_are_out_or_play_on(olga, client, make_user):
    ann = make_user("ann")
    cup = Tournament.objects.create(
        name="Ann's cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1),
        format="knockout", best_of=1, no_show_minutes=0,
    )  # fmt: skip
    for bot in ["heuristic", "random", "random"]:
        services.enter_house_bot(cup.pk, bot)
    services.enter(cup.pk, ann)
    running.start(cup.pk)
    hers = cup.entries.get(user=ann).pk
    table = next(t for t in cup.tables.filter(round=1) if hers in t.seating)
    wakeups.play_out(table.match_id)  # the clock plays for her (no-show time 0)
    running.record_match(table.match_id)
    match = Match.objects.get(pk=table.match_id)
    lost = match.result["ranking"][-1] == [match.seats.get(user=ann).number]
    client.force_login(ann)
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert ("You are out of the knockout" in page) is lost
    assert ("the next round&#x27;s if you go through" in page) is not lost


def test_a_knockout_whose_smaller_tables_would_send_everyone_through_still_ends(olga):
    """Five at tables of up to three, two going through from each: the table of two sends one,
    so the field shrinks every round and a final is reached (it went on round after round)."""
    cup = knockout(olga, "dobble", ["hard", "easy", "hard", "easy", "hard"], table_size=3, advance=2)
    assert cup.status == Tournament.Status.FINISHED
    assert [cup.tables.filter(round=r).count() for r in (1, 2)] == [2, 1], "two tables, then the final"



def test_a_walkover_against_a_no_show_is_no_pairing_or_game_won_over_the_board(olga, alice):
    """FIDE: a forfeit is no game. Alice never comes to her best-of-three quarter-final: her
    opponent goes through, but wins no game and no pairing over the board, and neither of them
    played it (an outside tester saw "Games won 2, Pairings won 1" for the walkover)."""
    cup = Tournament.objects.create(
        name="walkover cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1),
        format="knockout", best_of=3, no_show_minutes=1,
    )  # fmt: skip
    for bot in ["heuristic", "random", "random", "heuristic", "random"]:
        services.enter_house_bot(cup.pk, bot)
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    hers = cup.entries.get(user=alice).pk
    forfeits, now = 0, timezone.now()
    while any(hers in t.seating and not t.scored for t in cup.tables.filter(round=1)):
        now += timedelta(minutes=2)  # past the no-show minute of the game her forfeit just started
        forfeits += running.forfeit_no_shows(now=now)
        assert forfeits <= 5, "each game of her series is forfeited once"
    walkover = next(t for t in cup.tables.filter(round=1) if hers in t.seating)
    opponent = next(entry for entry in walkover.seating if entry != hers)
    rows = {row["entry"].pk: row for row in standings(cup)}
    assert rows[opponent]["reached"] == "Semi-final", "the walkover still sends the opponent through"
    assert rows[opponent]["games_won"] == 0
    assert rows[opponent]["still_in"] and not rows[hers]["still_in"], "she is out: her place shows already"
    assert rows[opponent]["played"] == 0 and rows[hers]["played"] == 0
    pairings_won = rows[opponent]["tiebreaks"][tiebreak_names(cup).index(tiebreaks.WINS)]
    assert pairings_won == 0


def test_a_running_bracket_shows_the_rounds_to_come_with_who_is_already_through(olga, client):
    """As a club draws it on the wall: the semi-final and final before they are seated, a bye's
    player already in their semi-final, the others as "winner of quarter-final N"."""
    cup = started(olga, "dudo", ["heuristic", "random"] * 3, best_of=3)
    seeds = {entry.seed: entry.user.username for entry in cup.entries.select_related("user")}
    bracket = client.get(f"/tournaments/{cup.pk}/").content.decode().partition('id="bracket"')[2]
    bracket = bracket.partition("</div>")[0]
    semi_final = bracket.partition("<h3>Semi-final</h3>")[2].partition("</section>")[0]
    assert f"{seeds[1]} v winner of quarter-final 2" in semi_final
    assert f"{seeds[2]} v winner of quarter-final 4" in semi_final
    final = bracket.partition("<h3>Final</h3>")[2]
    assert "winner of semi-final 1 v winner of semi-final 2" in final


@pytest.mark.parametrize("field,first_round", [(7, [1, 3, 3]), (4, [1, 3])])
def test_a_field_that_cannot_all_sit_at_tables_of_three_gives_the_top_seed_a_bye_and_ends(olga, field, first_round):
    """I Doubt It needs three at a table: seven (or four) cannot all sit at tables of three, so the
    top seed goes through on a bye (starting it hung the whole site: the deal looked for a free
    seat for ever); the final is filled to three from the best next places."""
    cup = started(olga, "doubt-it", (["random", "heuristic"] * 4)[:field], table_size=3, advance=1)
    first = list(cup.tables.filter(round=1).order_by("number"))
    assert sorted(len(t.seating) for t in first) == first_round
    bye = next(t for t in first if len(t.seating) == 1)
    assert cup.entries.get(pk=bye.seating[0]).seed == 1
    cup = running.play_out(cup.pk)
    assert cup.status == Tournament.Status.FINISHED
    assert len(cup.tables.filter(round=2).get().seating) == 3, "the final table is full"


def test_a_series_still_level_goes_to_the_higher_seed_and_says_so_without_a_pairing_won(olga, client, alice, bob):
    """Three games stopped with no result: level after the last game allowed, the higher seed
    goes through, the bracket says why, and nobody won the pairing over the board."""
    cup = Tournament.objects.create(
        name="duel", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), format="knockout",
    )  # fmt: skip
    for player in (alice, bob):
        services.enter(cup.pk, player)
    running.start(cup.pk)
    while (table := cup.tables.filter(scored=False).first()) is not None:
        organizing.stop_table(olga, cup.pk, table.pk)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and cup.tables.count() == 3, "best of 1: up to 3 games"
    rows = standings(cup)
    top_seed = cup.entries.get(seed=1).user.username
    assert rows[0]["player"] == top_seed and rows[0]["reached"] == "Winner"
    assert [row["tiebreaks"] for row in rows] == [[0], [0]], "no pairing won over the board"
    bracket = client.get(f"/tournaments/{cup.pk}/").content.decode().partition('id="bracket"')[2]
    assert f"<strong>{top_seed}</strong> (level after 3 games: the higher seed goes through)" in bracket


def test_an_organizer_withdraws_a_knockout_player_and_the_opponent_goes_through_at_once(olga, alice, client):
    """A player tells the desk they must leave: their game under way is resigned, their best-of
    series goes to the opponent with no more games, and a later round would resign them as seated
    (an outside tester found no way but to wait out the no-show time, game after game)."""
    cup = Tournament.objects.create(
        name="leaving cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1),
        format="knockout", best_of=3,
    )  # fmt: skip
    services.enter(cup.pk, alice)
    for bot in ["heuristic", "random", "random"]:
        services.enter_house_bot(cup.pk, bot)
    running.start(cup.pk)
    hers = cup.entries.get(user=alice).pk
    table = next(t for t in cup.tables.filter(round=1) if hers in t.seating)
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert "can no longer withdraw" not in page
    services.withdraw(cup.pk, olga, hers)
    table.refresh_from_db()
    assert table.scored, "her game ended at once"
    assert cup.tables.filter(round=1).count() == 2, "no second game of her series"
    opponent = next(e for e in table.seating if e != hers)
    her_pairing = next(slot for slot in brackets.bracket(cup)[0] if hers in slot.players)
    assert her_pairing.winner == opponent
    cup = running.play_out(cup.pk)
    assert cup.status == Tournament.Status.FINISHED
    rows = {row["entry"].pk: row for row in standings(cup)}
    assert rows[hers]["reached"] == "Semi-final" and rows[hers]["withdrawn"]
    assert rows[hers]["played"] == 0, "she never came to the table: her withdrawal is no game played"
    assert "withdrawn in round 1" in client.get(f"/tournaments/{cup.pk}/").content.decode(), "she left during it"
    her_pairing = next(slot for slot in brackets.bracket(cup)[0] if hers in slot.players)
    assert her_pairing.walkover() == {hers, opponent}, "a walkover for both: no pairing won over the board"
    bracket = client.get(f"/tournaments/{cup.pk}/").content.decode().partition('id="bracket"')[2]
    assert re.search(r"alice v \w+ · walkover → <strong>|\w+ v alice · walkover → <strong>", bracket), "not '0–1'"


def test_a_running_multi_table_knockout_shows_where_its_later_rounds_come_from(olga, client):
    cup = started(olga, "dudo", ["heuristic", "random"] * 4, table_size=4, advance=2)
    bracket = client.get(f"/tournaments/{cup.pk}/").content.decode().partition('id="bracket"')[2]
    bracket = bracket.partition("</div>")[0]
    final = bracket.partition("<h3>Final</h3>")[2]
    assert "the top 2 of each table of round 1, dealt again by seed" in final


def test_the_losers_of_one_round_share_their_place_in_seed_order_as_a_bye_is_no_round_won(olga):
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 3)
    rows = standings(cup)
    for reached in (1.0, 2.0):  # out in round 1 (two players), out in the semi-finals (two)
        out = [row for row in rows if row["points"] == reached]
        assert len(out) == 2 and out[0]["keys"] == out[1]["keys"], "one shared place, no third-place match"
        assert out[0]["seed"] < out[1]["seed"]


def test_a_knockout_page_says_that_its_tiebreaks_split_nothing_as_players_out_together_share_a_place(olga, client):
    """An arbiter read "Ties are split by Pairings won" beside a third place shared by players with
    0 and 1 pairings won."""
    cup = knockout(olga, "dudo", ["heuristic", "random"] * 3)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Ties are split by" not in page
    said = "Players out in the same round at the same place share it, listed by seed: Pairings won is shown but splits"
    assert f"{said} nothing." in page
    assert "pairings won are shown, but split nothing" in page, "the scoring words agree"


def test_a_running_knockout_s_standings_export_gives_no_place_to_those_still_in_as_the_page_does(olga, client):
    cup = started(olga, "dudo", ["heuristic", "random"] * 2, best_of=1)
    play_one_game(cup)
    still_in = {row["player"] for row in standings(cup) if row["still_in"]}
    assert still_in
    text = client.get(f"/tournaments/{cup.pk}/standings.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {row["player"] for row in rows if row["place"] == ""} == still_in, "the page's —"
    assert all(row["place"] for row in rows if row["player"] not in still_in), "those out have theirs"
    exported = client.get(f"/tournaments/{cup.pk}/standings.json").json()["standings"]
    assert {row["player"] for row in exported if row["place"] is None} == still_in
