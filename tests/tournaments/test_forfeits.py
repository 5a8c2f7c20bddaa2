"""Events never freeze: a forfeit, a cancelled match or a table left with one player is scored,
and a table that cannot be scored never stops the others."""

from datetime import timedelta

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from games.matches import broadcast, lifecycle, presence, scheduling, tasks, wakeups
from games.matches.actions import submit_action
from games.matches.models import Match, Seat
from tournaments import running, scoring, seating, services
from tournaments.formats import dobble_series
from tournaments.models import Score, Tournament
from tournaments.rounds import lines
from tournaments.standings import player_games, standings
from tournaments.tasks import tournament_tick

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def tournament(olga, game, bots, players=(), **fields):
    created = Tournament.objects.create(
        name=f"{game} cup", game=game, organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), **fields
    )
    for bot in bots:
        services.enter_house_bot(created.pk, bot)
    for player in players:
        services.enter(created.pk, player)
    return running.start(created.pk)


@pytest.mark.parametrize(
    "game,fields,stayer",
    [
        ("dudo", {"rounds": 2}, scoring.PLAYED),
        ("dudab", {"format": "rounds-total", "rounds": 2}, scoring.UNPLAYED),  # no round played: no total to keep
        ("dobble", {"format": "dobble-series", "rounds": 2}, scoring.PLAYED),
    ],
)
def test_a_player_who_resigns_a_two_seat_table_loses_it_over_the_board_and_the_event_goes_on(
    olga, alice, game, fields, stayer
):
    """A resignation is a game played and lost, as at a club, not a forfeit (an outside tester saw
    "alice forfeited" and the winner's Buchholz count the game as unplayed)."""
    cup = tournament(olga, game, ["heuristic" if game != "dobble" else "hard"], [alice], **fields)
    table = cup.tables.get(round=1)
    for seat in Seat.objects.filter(match__tournament_table=table, user=alice):
        presence.connected(seat.match_id, seat.number, "alice's socket", True)
    lifecycle.leave_match(table.match_id, alice)
    table.refresh_from_db()
    assert table.scored
    scores = {s.entry.user.username: (s.points, s.kind) for s in Score.objects.filter(table=table)}
    assert scores.pop("alice")[1] == scoring.PLAYED and [kind for _, kind in scores.values()] == [stayer]
    if game == "dudo":
        games, _ = player_games(cup)
        assert [g.played for entry in cup.entries.all() for g in games[entry.pk] if g.round == 1] == [True, True]
        assert "alice resigned" in lines(cup)[1][0].result
    assert cup.tables.filter(round=2).exists(), "the next round (or mini-game) follows"


def test_a_hot_potato_ended_by_a_forfeit_is_scored(olga, alice):
    cup = tournament(olga, "dobble", ["hard"], [alice], format="dobble-series", rounds=2)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    dobble_series.choose(cup.pk, alice, "hot-potato")
    second = cup.tables.get(round=2)
    lifecycle.leave_match(second.match_id, alice)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    assert Score.objects.get(table=second, entry__user=alice).points == -5


def test_a_cancelled_match_is_scored_as_unplayed_by_the_tick_and_the_round_moves_on(olga):
    cup = tournament(olga, "dudo", ["heuristic", "random", "heuristic", "random"], rounds=2)
    first, second = cup.tables.filter(round=1)
    Match.objects.filter(pk=first.match_id).update(status=Match.Status.ABORTED)
    wakeups.play_out(second.match_id)
    assert not cup.tables.filter(round=2).exists()
    assert running.score_stalled() == 1
    assert {s.kind for s in Score.objects.filter(table=first)} == {scoring.UNPLAYED}
    assert cup.tables.filter(round=2).count() == 2


def test_one_match_that_cannot_be_settled_does_not_stop_the_sweep_for_the_others(olga, monkeypatch):
    cup = tournament(olga, "dudo", ["heuristic", "random", "heuristic", "random"], rounds=1)
    first, second = cup.tables.filter(round=1)
    monkeypatch.setattr(scheduling, "queue_settling", lambda match_id: None)  # both scoring tasks are lost
    for table in (first, second):
        wakeups.play_out(table.match_id)
    record = running.record_match

    def fails_on_the_first(match_id, now=None):
        if match_id == first.match_id:
            raise RuntimeError("a table that cannot be scored")
        return record(match_id, now)

    monkeypatch.setattr(running, "record_match", fails_on_the_first)
    # play_out runs in simulated time, so the matches may finish "later" than the clock says
    finished = max(Match.objects.filter(pk__in=[first.match_id, second.match_id]).values_list("finished_at", flat=True))
    later = max(timezone.now(), finished) + tasks.SETTLE_GRACE * 2
    assert tasks.settle_forgotten(now=later) == 2
    second.refresh_from_db()
    assert second.scored
    assert Match.objects.get(pk=second.match_id).settled_at is not None
    assert Match.objects.get(pk=first.match_id).settled_at is None, "tried again by the next sweep"


def test_a_result_without_a_ranking_still_scores_every_seat(olga):
    cup = tournament(olga, "dudo", ["heuristic", "random"], rounds=1)
    table = cup.tables.get()
    wakeups.play_out(table.match_id)
    Score.objects.filter(table=table).delete()
    cup.tables.filter(pk=table.pk).update(scored=False)
    Tournament.objects.filter(pk=cup.pk).update(status=Tournament.Status.RUNNING)
    Match.objects.filter(pk=table.match_id).update(result={"ranking": []})
    assert running.record_match(table.match_id)
    assert sorted(Score.objects.filter(table=table).values_list("points", flat=True)) == [0.5, 0.5]


def test_a_dobble_table_whose_players_never_show_is_settled_by_the_absence_rule(olga, alice, bob, carol, settings):
    """Dobble has no clock: the no-show rule (docs/rules/dobble.md, "A player who is away")
    forfeits each seat that has had no connection for the grace, counted from the start, and
    a house bot plays on for it, so the table finishes and the round moves on. The last seat,
    left alone by the others' forfeits, never came either: it forfeits too (no walkover)."""
    settings.MATCH_DISCONNECT_GRACE_SECONDS = 60
    cup = tournament(olga, "dobble", [], [alice, bob, carol], table_size=3, rounds=2)
    table = cup.tables.get(round=1)
    match = table.match
    grace_over = match.started_at + timedelta(seconds=60)
    assert match.wake_at == grace_over, "the grace runs from the start"
    assert not wakeups.wake(match.pk, now=match.started_at + timedelta(seconds=59))
    match = wakeups.play_out(match.pk)  # simulated time: every wake-up at the moment it is due
    assert match.status == Match.Status.FINISHED and len(match.result["forfeited"]) == 2
    assert min(seat.forfeited_at for seat in match.seats.exclude(forfeited_at=None)) >= grace_over
    table.refresh_from_db()
    alone = table.seating[match.seats.get(forfeited_at=None).number]
    scores = Score.objects.filter(table=table)
    assert table.scored and set(scores.values_list("kind", flat=True)) == {scoring.FORFEITED}
    assert scores.get(entry_id=alone).points == 0.0, "the seat left alone never came: no walkover"
    assert cup.tables.filter(round=2).exists(), "round 2 is seated: the absent table did not stall the event"


def test_a_person_who_never_comes_to_a_turn_based_table_forfeits_after_the_no_show_time(
    olga, alice, bob, carol, make_user
):
    """A club forfeits a player who does not turn up: the clock alone would play alice's default
    moves, and she could win without ever opening the site. Bob opened his table, carol moved:
    both came. The bot account is left to the clock (it polls over HTTP and holds no socket)."""
    bot = make_user("polling-bot", is_bot=True)
    cup = tournament(olga, "dudo", [], [alice, bob, carol, bot], no_show_minutes=5)
    matches = {seat.user.username: seat.match for seat in Seat.objects.filter(match__tournament_table__tournament=cup)}
    presence.connected(matches["bob"].pk, matches["bob"].seats.get(user=bob).number, "bob's socket", True)
    carols = matches["carol"]
    seat = carols.seats.get(user=carol).number
    while carols.engine.to_act(carols.load_state()) != [seat]:
        wakeups.play_for(carols, carols.load_state(), carols.seats.exclude(number=seat).get(), None, timezone.now())
        carols.refresh_from_db()
    submit_action(carols.pk, carol, carols.engine.legal_actions(carols.load_state(), seat)[0], carols.seq)
    started = matches["alice"].started_at
    assert running.forfeit_no_shows(now=started + timedelta(minutes=4, seconds=59)) == 0
    Match.objects.filter(tournament_table__tournament=cup).update(started_at=started - timedelta(minutes=5))
    tournament_tick()  # the beat, on the clock of the wall
    forfeited = Seat.objects.filter(match__tournament_table__tournament=cup).exclude(forfeited_at=None)
    assert [seat.user.username for seat in forfeited] == ["alice"]
    assert not forfeited.get().resigned and forfeited.get().house_bot, "a house bot plays on for her"
    assert broadcast.public_seat(forfeited.get(), None)["gone"] == "did not come", "her table says so"


def test_with_no_show_time_zero_the_clock_plays_for_an_absent_player(olga, alice):
    cup = tournament(olga, "dudo", ["random"], [alice], no_show_minutes=0)
    match = cup.tables.get().match
    assert running.forfeit_no_shows(now=match.started_at + timedelta(hours=1)) == 0
    assert not match.seats.exclude(forfeited_at=None).exists()


def paired_in_round_two(cup) -> set[str]:
    tables, byes = seating.swiss_round(cup, 2)
    entries = {entry.pk: entry.user.username for entry in cup.entries.select_related("user")}
    return {entries[pk] for pk in [*byes, *(pk for table in tables for pk in table)]}


@pytest.mark.parametrize("withdraw", [True, False])
def test_a_no_show_is_withdrawn_from_the_following_rounds_unless_the_tournament_pairs_them_on(
    olga, alice, bob, withdraw
):
    """FIDE: a player absent without notice is withdrawn. Bob came; alice did not."""
    cup = tournament(olga, "dudo", ["random", "random"], [alice, bob], rounds=3, withdraw_no_shows=withdraw)
    for seat in Seat.objects.filter(match__tournament_table__tournament=cup, user=bob):
        presence.connected(seat.match_id, seat.number, "bob's socket", True)
    Match.objects.filter(tournament_table__tournament=cup).update(started_at=timezone.now() - timedelta(minutes=6))
    assert running.forfeit_no_shows() == 1
    entry = cup.entries.get(user=alice)
    assert (entry.withdrawn_after, entry.no_show_round) == ((1, 1) if withdraw else (None, None))
    assert ("alice" in paired_in_round_two(cup)) is not withdraw
    assert "bob" in paired_in_round_two(cup)


def test_a_game_against_a_no_show_is_unplayed_for_every_tiebreak_though_the_clock_finished_it(olga, alice, bob):
    """FIDE: a forfeit is no game. Bob never came and the clock played his seat to the end of the
    game before the no-show time, so the result has scores; alice's win still counts as unplayed
    for Buchholz and Sonneborn-Berger, as it does for "Played" (an outside tester found the two
    disagreeing, and a place changed)."""
    cup = tournament(olga, "dudo", [], [alice, bob], rounds=2)
    table = cup.tables.get(round=1)
    for seat in Seat.objects.filter(match__tournament_table=table, user=alice):
        presence.connected(seat.match_id, seat.number, "alice's socket", True)
    wakeups.play_out(table.match_id)
    assert Match.objects.get(pk=table.match_id).result["absent"] != []
    games, _ = player_games(cup)
    alices = cup.entries.get(user=alice).pk
    assert [game.played for game in games[alices] if game.round == 1] == [False]
    row = next(row for row in standings(cup) if row["player"] == "alice")
    assert row["played"] == 0


def test_a_no_show_whose_forfeit_ends_the_round_is_not_seated_in_the_next(olga, alice):
    """Her forfeit ends round 1's last table, and round 2 is seated as that commits: she is
    withdrawn by then (an organizer saw her paired again in round 2 while marked withdrawn)."""
    cup = Tournament.objects.create(
        name="cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=3
    )
    services.enter(cup.pk, alice)  # first in: the first seed of three unrated, so a bot has the bye
    for _ in range(2):
        services.enter_house_bot(cup.pk, "random")
    cup = running.start(cup.pk)
    Match.objects.filter(tournament_table__tournament=cup).update(started_at=timezone.now() - timedelta(minutes=6))
    assert running.forfeit_no_shows() == 1
    alices = cup.entries.get(user=alice).pk
    assert cup.tables.filter(round=2).exists(), "round 2 is seated"
    assert not [table for table in cup.tables.filter(round=2) if alices in table.seating]
    assert not cup.scores.filter(round=2, entry_id=alices).exists(), "no bye either"


def test_the_organizer_pairs_a_no_show_again_who_explains(client, olga, alice, bob):
    cup = tournament(olga, "dudo", ["random", "random"], [alice, bob], rounds=3)
    Match.objects.filter(tournament_table__tournament=cup).update(started_at=timezone.now() - timedelta(minutes=6))
    assert running.forfeit_no_shows() == 2
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert "withdrawn: did not come to round 1" in page and "Pair again" in page
    entry = cup.entries.get(user=alice)
    client.post(f"/organize/{cup.pk}/entries/{entry.pk}/pair-again/")
    assert paired_in_round_two(cup) >= {"alice"}, "alice is paired again; bob stays withdrawn"
    assert "bob" not in paired_in_round_two(cup)
    entry.refresh_from_db()
    assert entry.no_show_round is None
    client.force_login(alice)
    bobs = cup.entries.get(user=bob)
    assert client.post(f"/organize/{cup.pk}/entries/{bobs.pk}/pair-again/").status_code in (302, 403, 404)
    assert cup.entries.get(user=bob).withdrawn_after == 1, "only the organizer pairs a player again"


def test_a_no_show_s_game_says_she_never_came_links_to_the_event_and_offers_no_rematch(client, olga, alice):
    """Opening the finished table afterwards is not coming to the game: the result keeps who was
    absent, so her table (and her rating) still say so."""
    cup = tournament(olga, "dudo", ["random"] * 3, [alice], rounds=2)  # the bots' other table keeps round 1 going
    match = Seat.objects.get(match__tournament_table__tournament=cup, user=alice).match
    Match.objects.filter(pk=match.pk).update(started_at=timezone.now() - timedelta(minutes=6))
    assert running.forfeit_no_shows() == 1
    match.refresh_from_db()
    seat = match.seats.get(user=alice).number
    assert match.status == Match.Status.FINISHED and match.result["absent"] == [seat]
    client.force_login(alice)
    presence.connected(match.pk, seat, "alice's socket, after the end", True)
    assert broadcast.public_seat(match.seats.get(user=alice), None)["came"], "her socket is open now"
    page = client.get(f"/match/{match.pk}/").content.decode()
    assert f'href="/tournaments/{cup.pk}/" id="occasion">Round 1 of dudo cup</a>' in page
    assert 'id="rematch"' not in page and "You are withdrawn from the next rounds (you did not come to round 1)" in page
    tournament_page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "You did not come to your round 1 table, so you are withdrawn from the next rounds" in tournament_page
    client.post(f"/match/{match.pk}/rematch/")
    assert not Match.objects.filter(pk__gt=match.pk, tournament_table__isnull=True).exists(), "no rematch started"


def test_in_the_last_round_a_no_show_is_not_offered_to_be_paired_again(client, olga, alice, bob):
    """There is no next round to pair her in: the button would promise what cannot happen."""
    cup = tournament(olga, "dudo", ["random", "random"], [alice, bob], rounds=1)
    for seat in Seat.objects.filter(match__tournament_table__tournament=cup, user=bob):
        presence.connected(seat.match_id, seat.number, "bob's socket", True)
    Match.objects.filter(tournament_table__tournament=cup).update(started_at=timezone.now() - timedelta(minutes=6))
    assert running.forfeit_no_shows() == 1
    client.force_login(olga)
    page = client.get(f"/organize/{cup.pk}/").content.decode()
    assert "withdrawn: did not come to round 1" in page and "Pair again" not in page
    public = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert '<tr class="withdrawn">' in public and "withdrawn: did not come to round 1" in public
    rows = {row["player"]: row for row in standings(Tournament.objects.get(pk=cup.pk))}
    assert rows["alice"]["played"] == 0, "a forfeit without coming is not a game played"
    opponent = next(name for name, row in rows.items() if row["points"] == 1 and name != "bob")
    assert rows[opponent]["played"] == 0 and rows[opponent]["tiebreaks"], "nor is the win by forfeit against her"
    entry = cup.entries.get(user=alice)
    answer = client.post(f"/organize/{cup.pk}/entries/{entry.pk}/pair-again/", follow=True).content.decode()
    assert "there is no next round to pair them in" in answer
    entry.refresh_from_db()
    assert entry.withdrawn_after == 1


def test_a_player_the_clock_played_to_the_end_is_a_no_show_not_a_loser_over_the_board(olga, alice):
    """A short game can end before the no-show time: the clock made all of alice's moves. She
    never came, so the tournament counts it as her forfeit (even had the clock won it), withdraws
    her, and nobody has played a game; with no-show time 0 the clock's result would stand."""
    cup = tournament(olga, "dudo", ["heuristic"], [alice], rounds=2, no_show_minutes=5)
    table = cup.tables.get(round=1)
    match = wakeups.play_out(table.match_id)  # simulated time: the clock answers each of her turns
    seat = match.seats.get(user=alice).number
    assert match.result["absent"] == [seat] and seat not in match.result["forfeited"], "the game's own result"
    scores = {s.entry.user.username: (s.points, s.kind) for s in Score.objects.filter(table=table)}
    assert scores == {"alice": (0.0, scoring.FORFEITED), "HeuristicBot": (1.0, scoring.WALKOVER)}, "a forfeit win"
    entry = cup.entries.get(user=alice)
    assert (entry.withdrawn_after, entry.no_show_round) == (1, 1)
    rows = {row["player"]: row for row in standings(Tournament.objects.get(pk=cup.pk))}
    assert rows["alice"]["played"] == rows["HeuristicBot"]["played"] == 0


def test_two_players_who_never_came_both_forfeit_whoever_the_clock_made_win(olga, alice, bob, client):
    cup = tournament(olga, "dudo", [], [alice, bob], rounds=1, no_show_minutes=5)
    table = cup.tables.get(round=1)
    wakeups.play_out(table.match_id)  # the clock plays both seats to the end: one of them "wins"
    assert set(Score.objects.filter(table=table).values_list("points", "kind")) == {(0.0, scoring.FORFEITED)}
    assert cup.entries.filter(withdrawn_after=1).count() == 2
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "nobody came" in page.partition('id="round-1"')[2].partition("</ul>")[0]


def test_a_round_without_a_game_never_gives_the_best_sum_of_places(olga, alice):
    """An outside tester saw 0, the best sum of places, for every player whose table had a forfeit.
    Alice never comes to an I Doubt It table of three: she counts last there, the two who played on
    their own places, and nobody's round is worth less than a place."""
    cup = tournament(olga, "doubt-it", ["heuristic", "random"], [alice], rounds=2, table_size=3)
    table = cup.tables.get(round=1)
    assert running.forfeit_no_shows(now=timezone.now() + timedelta(minutes=10)) == 1
    wakeups.play_out(table.match_id)
    games, _ = player_games(cup)
    alices = cup.entries.get(user=alice).pk
    assert [(g.played, g.place) for g in games[alices] if g.round == 1] == [(False, 3)]
    others = [g.place for entry in cup.entries.exclude(pk=alices) for g in games[entry.pk] if g.round == 1]
    assert sorted(others) == [1, 2]
    assert all(game.place >= 1 for player in games.values() for game in player)


def test_a_player_who_won_because_the_opponent_never_came_is_not_given_the_bye_too(olga, alice):
    """FIDE C.04.1 d: a player who has scored a point without playing gets no pairing bye while
    another can take it (an outside tester saw a walkover winner get the round-3 bye and finish 2nd)."""
    cup = Tournament.objects.create(
        name="cup", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=3,
        no_show_minutes=1, withdraw_no_shows=False,
    )  # fmt: skip
    services.enter(cup.pk, alice)  # first in: the top seed of five unrated, so a bot has the bye
    for bot in ["random", "random", "heuristic", "heuristic"]:
        services.enter_house_bot(cup.pk, bot)
    cup = running.start(cup.pk)
    hers = cup.entries.get(user=alice).pk
    first = next(t for t in cup.tables.filter(round=1) if hers in t.seating)
    assert running.forfeit_no_shows(now=timezone.now() + timedelta(minutes=2)) == 1
    walkover = next(entry for entry in first.seating if entry != hers)
    assert walkover in seating.won_without_playing(cup)
    cup = running.play_out(cup.pk)
    later_byes = Score.objects.filter(tournament=cup, kind=scoring.BYE, round__gt=1).values_list("entry_id", flat=True)
    assert walkover not in set(later_byes), "a second point without a game went elsewhere"


@pytest.mark.parametrize("staying", [0, 1])
def test_a_swiss_everyone_but_one_or_all_left_seats_no_empty_round_and_finishes(
    client, olga, alice, bob, carol, staying
):
    """An organizer's Swiss stayed "round 3 of 4 under way" for good: every player had been
    withdrawn, so round 4 had no table, and no game would ever end it."""
    players = [alice, bob, carol]
    cup = tournament(olga, "dudo", ["random", "random"], players, rounds=4)
    for player in players[staying:]:
        services.withdraw(cup.pk, player)
    for entry in cup.entries.filter(house_bot__gt=""):
        services.take_out(cup, entry)
    for seat in Seat.objects.filter(match__tournament_table__tournament=cup, user=alice):
        presence.connected(seat.match_id, seat.number, "alice's socket", True)  # she came: no no-show
    for table in cup.tables.filter(round=1):
        wakeups.play_out(table.match_id)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and cup.finished_at is not None
    assert not cup.tables.filter(round__gt=1).exists()
    assert not Score.objects.filter(tournament=cup, round__gt=1).exists(), "no point for a round nobody could play"
    said = "Finished after round 1 of 4: too few players were left for another table."
    assert said in client.get(f"/tournaments/{cup.pk}/").content.decode(), "the page says why"


def test_a_round_robin_everyone_else_left_gives_the_last_player_their_forfeit_wins_and_finishes(olga):
    """The round robin's later opponents of withdrawn players win by forfeit: the last one left got nothing."""
    cup = tournament(olga, "dudo", ["heuristic"] * 4, format="round-robin", table_size=2)
    entries = list(cup.entries.order_by("pk"))
    for entry in entries[1:]:
        services.take_out(cup, entry)
    for table in cup.tables.filter(round=1):
        wakeups.play_out(table.match_id)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED and not cup.tables.filter(round__gt=1).exists()
    later = Score.objects.filter(tournament=cup, entry=entries[0], round__gt=1)
    assert sorted(later.values_list("round", "points")) == [(2, 1.0), (3, 1.0)], "won by forfeit"
    assert standings(cup)[0]["entry"] == entries[0]
    assert cup.early_finish == "", "its rounds were won, not skipped"


def test_a_swiss_player_who_made_no_move_of_their_own_loses_even_where_the_clock_won(olga, alice):
    """She opened her table and left the clock to move for her to the end: the same fact the rating
    leaves the game out for. Had the clock's moves won, the bot who played still gets the point."""
    cup = tournament(olga, "dudo", ["heuristic"], [alice], rounds=2, no_show_minutes=0, options={"dice": 1})
    table = cup.tables.get(round=1)
    # A deal whose game ends before the clock's third move in a row, which would count her out
    # (a random deal went that way in about 1 game of 80: the test below covers that way).
    Match.objects.filter(pk=table.match_id).update(seed=1)
    seat = table.seating.index(cup.entries.get(user=alice).pk)
    presence.connected(table.match_id, seat, "socket-alice", True)
    match = wakeups.play_out(table.match_id)
    assert match.result["idle"] == [seat] and not match.result["absent"] and not match.result["forfeited"]
    assert match.result["ranking"][-1] == [seat], "the match itself ranks her last: its pages agree with the event"
    scores = {s.entry.user.username: (s.points, s.kind) for s in Score.objects.filter(table=table)}
    assert scores["alice"] == (0.0, scoring.FORFEITED)
    assert scores["HeuristicBot"][0] == 1.0
    match.result["ranking"] = [[seat], [1 - seat]]  # the clock's moves won it
    match.save(update_fields=["result"])
    got = running.table_points(cup, match, table.seating)
    assert got[table.seating[seat]] == (0.0, scoring.FORFEITED) and got[table.seating[1 - seat]][0] == 1.0
    words = lines(Tournament.objects.get(pk=cup.pk), 1)[1][0].result
    said = "HeuristicBot won · alice made no move of their own: counted as a forfeit"
    assert words.startswith(said)


@pytest.mark.parametrize(
    "seed,counted_out",
    [
        (1, [False, False]),  # the game ends first: four of the clock's moves, two a seat
        (28, [True, False]),  # the clock's third move in a row for seat 0 counts it out, leaving seat 1 alone
    ],
)
def test_two_swiss_players_who_made_no_move_of_their_own_both_score_nothing(olga, alice, bob, seed, counted_out):
    """Either way the clock's moves go (a random deal took the second way in about 1 game of 80),
    nobody won: the event scores a double forfeit and the match names no winner."""
    cup = tournament(olga, "dudo", [], [alice, bob], rounds=1, no_show_minutes=0, options={"dice": 1})
    table = cup.tables.get(round=1)
    Match.objects.filter(pk=table.match_id).update(seed=seed)  # the deal, fixed before any move is dealt from it
    for seat in (0, 1):
        presence.connected(table.match_id, seat, f"socket-{seat}", True)
    match = wakeups.play_out(table.match_id)  # the clock plays both seats to the end
    assert [seat.counted_out for seat in match.seats.order_by("number")] == counted_out, "the deal's way"
    assert sorted(match.result["idle"]) == [0, 1]
    assert set(Score.objects.filter(table=table).values_list("points", "kind")) == {(0.0, scoring.FORFEITED)}
    assert match.result["ranking"] == [[0, 1]], "the match names no winner either"


def test_a_game_nobody_came_to_names_no_winner_on_its_page_or_the_profiles(client, olga, alice, bob):
    """An arbiter read "Result: p04 won" and "Won, did not come" for a Swiss game neither player came
    to, which the event scored as a double forfeit: where none of the players still in played, they tie."""
    cup = tournament(olga, "dudo", [], [alice, bob], rounds=1, no_show_minutes=5)
    table = cup.tables.get(round=1)
    with transaction.atomic():
        match = lifecycle.locked(table.match_id)
        seats = list(match.seats.select_related("user"))
        lifecycle.finish_match(match, match.load_state(), seats, timezone.now(), ranking=[[0], [1]])
    match.refresh_from_db()
    assert sorted(match.result["absent"]) == [0, 1] and match.result["ranking"] == [[0, 1]]
    for name in ("alice", "bob"):
        assert "Won" not in client.get(reverse("profile", args=[name])).content.decode()


def test_a_no_show_whose_clock_moves_won_is_ranked_last_by_the_match_itself(client, olga, alice):
    """An arbiter read "Result: alice won" on the game's page and "Won, did not come" on her profile
    while the tournament counted her forfeit: the match ranks a seat nobody came to last, as it does
    a seat whose player never moved, so every page agrees."""
    cup = tournament(olga, "dudo", ["heuristic"], [alice], rounds=2, no_show_minutes=5)
    table = cup.tables.get(round=1)
    seat = table.seating.index(cup.entries.get(user=alice).pk)
    with transaction.atomic():
        match = lifecycle.locked(table.match_id)
        seats = list(match.seats.select_related("user"))
        lifecycle.finish_match(match, match.load_state(), seats, timezone.now(), ranking=[[seat], [1 - seat]])
    match.refresh_from_db()
    assert match.result["absent"] == [seat] and match.result["ranking"] == [[1 - seat], [seat]]
    assert "Lost, did not come" in client.get(reverse("profile", args=["alice"])).content.decode()
    scores = {s.entry.user.username: (s.points, s.kind) for s in Score.objects.filter(table=table)}
    assert scores == {"alice": (0.0, scoring.FORFEITED), "HeuristicBot": (1.0, scoring.WALKOVER)}
