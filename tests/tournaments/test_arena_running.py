"""Arenas through the services (tournaments/formats/arena.py): waves of tables through the match
service, points with streaks and berserk, pause and rejoin, and the end."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.matches import lifecycle, presence, wakeups
from games.matches.errors import MatchError
from games.matches.models import Match
from ratings.services import rate_match, why_not_rated
from tournaments import running, services
from tournaments.arena_pages import leaderboard
from tournaments.formats import arena as arena_format
from tournaments.models import Entry, Score, Tournament


def make_arena(olga, game="dudo", bots=("random", "random"), **fields) -> Tournament:
    fields = {"table_size": 2, "time_control": "3+2", "duration_minutes": 30, "options": {"dice": 1}} | fields
    tournament = Tournament.objects.create(
        name="Quick Dudo Arena", game=game, format="arena", organizer=olga,
        starts_at=timezone.now() + timedelta(minutes=5), **fields,
    )  # fmt: skip
    for bot in bots:
        services.enter_house_bot(tournament.pk, bot)
    return tournament


def entry(tournament, user) -> Entry:
    return tournament.entries.get(user=user)


def game_of(tournament, user) -> Match | None:
    """The player's arena game under way."""
    return Match.objects.filter(
        tournament_table__tournament=tournament, status=Match.Status.RUNNING, seats__user=user
    ).first()


def at_table(tournament, user) -> Match:
    """The player's arena game under way, their table open (they came to it)."""
    match = game_of(tournament, user)
    presence.connected(match.pk, match.seats.get(user=user).number, f"socket-{match.pk}-{user.pk}", True)
    return match


def lose(match: Match, user, when=None) -> None:
    """`user` resigns, so the other seat wins; the tournament scores it (as the signal would)."""
    lifecycle.leave_match(match.pk, user, now=when)
    running.record_match(match.pk, now=when)


def opponent(match: Match, user):
    return next(seat.user for seat in match.seats.select_related("user") if seat.user_id != user.pk)


def points(tournament, user) -> list[float]:
    return list(Score.objects.filter(entry__tournament=tournament, entry__user=user).values_list("points", flat=True))


@pytest.fixture
def started(olga, alice):
    tournament = make_arena(olga)
    services.enter(tournament.pk, alice)
    return running.start(tournament.pk)


def test_it_starts_with_whoever_entered_and_a_person_plays_a_house_bot_while_bots_never_play_each_other(started, alice):
    assert started.status == Tournament.Status.RUNNING
    match = game_of(started, alice)
    assert match is not None and match.ranked and match.clock_label == "3+2"
    assert opponent(match, alice).is_bot
    assert started.tables.count() == 1, "the other house bot waits: it only fills a person's table"


def test_an_arena_with_only_house_bots_still_starts_and_waits_for_people(olga, bob, django_capture_on_commit_callbacks):
    tournament = running.start(make_arena(olga).pk)
    assert tournament.status == Tournament.Status.RUNNING and not tournament.tables.exists()
    with django_capture_on_commit_callbacks(execute=True):
        services.enter(tournament.pk, bob)
    assert game_of(tournament, bob) is not None, "joining while it runs seats the player at once"


def test_a_win_is_two_points_and_the_winner_and_loser_are_seated_again_against_someone_else(started, alice):
    first = at_table(started, alice)
    bot = opponent(first, alice)
    lose(first, bot)
    assert points(started, alice) == [2.0] and entry(started, alice).scores.get().streak == 1
    second = game_of(started, alice)
    assert second is not None and second.pk != first.pk
    assert opponent(second, alice) != bot, "not the last opponent while another is free"


def test_three_wins_in_a_row_count_2_2_4_and_a_loss_ends_the_streak(started, alice):
    for _ in range(3):
        match = at_table(started, alice)
        lose(match, opponent(match, alice))
    lose(at_table(started, alice), alice)
    assert points(started, alice) == [2.0, 2.0, 4.0, 0.0]
    assert list(entry(started, alice).scores.values_list("streak", flat=True)) == [1, 2, 3, 0]


def test_berserk_halves_the_players_clock_and_a_win_earns_a_point_more(started, alice):
    match = at_table(started, alice)
    table = arena_format.go_berserk(started.pk, alice)
    assert table.berserk == [entry(started, alice).pk]
    assert match.seats.get(user=alice).clock_ms == 90_000
    assert match.seats.exclude(user=alice).get().clock_ms == 180_000
    with pytest.raises(MatchError, match="already"):
        arena_format.go_berserk(started.pk, alice)
    lose(match, opponent(match, alice))
    assert points(started, alice) == [3.0]


def test_berserk_is_refused_without_a_clock_per_game(olga, alice):
    tournament = make_arena(olga, time_control="", turn_seconds=30)
    services.enter(tournament.pk, alice)
    running.start(tournament.pk)
    with pytest.raises(MatchError, match="no berserk"):
        arena_format.go_berserk(tournament.pk, alice)


def test_a_paused_player_finishes_their_game_and_is_seated_again_only_after_rejoining(started, alice):
    arena_format.pause_player(started.pk, alice)
    match = at_table(started, alice)
    lose(match, alice)
    assert game_of(started, alice) is None and entry(started, alice).paused
    arena_format.rejoin(started.pk, alice)
    arena_format.seat_now(started.pk)
    assert game_of(started, alice) is not None


def test_a_player_who_never_came_earns_nothing_is_paused_and_the_opponent_had_no_game(started, alice):
    match = game_of(started, alice)
    bot = opponent(match, alice)
    wakeups.play_out(match.pk)  # the clock plays alice's seat to the end: she never opened it
    running.record_match(match.pk)
    assert Score.objects.get(entry=entry(started, alice)).kind == "forfeited"
    assert points(started, alice) == [0.0] and entry(started, alice).paused
    assert Score.objects.get(entry__user=bot).kind == "unplayed" and points(started, bot) == [0.0]
    assert game_of(started, alice) is None


def test_a_person_playing_elsewhere_is_seated_once_that_game_ends(olga, alice, bob, django_capture_on_commit_callbacks):
    tournament = running.start(make_arena(olga).pk)
    elsewhere = lifecycle.create_match(game="dubito", players=2, host=alice)
    lifecycle.join_match(elsewhere.pk, bob)
    lifecycle.start_match(elsewhere.pk, alice)
    with django_capture_on_commit_callbacks(execute=True):
        services.enter(tournament.pk, alice)
    assert game_of(tournament, alice) is None
    lifecycle.leave_match(elsewhere.pk, alice)
    arena_format.seat_now(tournament.pk)
    assert game_of(tournament, alice) is not None


def test_no_game_starts_after_the_end_and_the_games_under_way_finish_and_count(started, alice):
    match = at_table(started, alice)
    late = started.ends_at + timedelta(seconds=5)
    arena_format.Arena.tick(late)
    started.refresh_from_db()
    assert started.status == Tournament.Status.RUNNING, "a game is under way: it is played out"
    lose(match, opponent(match, alice), when=late)
    started.refresh_from_db()
    assert points(started, alice) == [2.0], "the game under way at the end counts"
    assert started.status == Tournament.Status.FINISHED and game_of(started, alice) is None


def test_an_arena_nobody_played_in_is_cancelled_at_its_end(olga):
    tournament = running.start(make_arena(olga).pk)
    arena_format.Arena.tick(tournament.ends_at + timedelta(seconds=1))
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.CANCELLED and "nobody played" in tournament.cancelled_because


def test_at_larger_tables_a_person_sits_with_house_bots_up_to_the_table_size(olga, alice):
    tournament = make_arena(olga, game="doubt-it", bots=("random",) * 3, table_size=4, options={})
    services.enter(tournament.pk, alice)
    running.start(tournament.pk)
    match = game_of(tournament, alice)
    assert match.players == 4 and sum(seat.user.is_bot for seat in match.seats.all()) == 3


def two_people_at_their_table(olga, alice, bob) -> tuple[Tournament, Match]:
    """An arena of two people and no house bots, started, both come to their one table."""
    tournament = make_arena(olga, bots=())
    for person in (alice, bob):
        services.enter(tournament.pk, person)
    running.start(tournament.pk)
    match = at_table(tournament, alice)
    at_table(tournament, bob)
    return tournament, match


def test_a_game_given_up_before_the_first_move_is_a_win_in_the_arena_and_not_called_aborted(olga, alice, bob):
    """An arbiter read "not rated: aborted" under a game the arena scored as a full win: the event
    counts it, as Lichess gives the win over a player who never moved, and only the ladder does not."""
    tournament, match = two_people_at_their_table(olga, alice, bob)
    lose(match, bob)
    assert points(tournament, alice) == [2.0] and entry(tournament, alice).scores.get().streak == 1
    match.refresh_from_db()
    said = "bob left before every player had made a move (Quick Dudo Arena counts the game as played)"
    assert why_not_rated(match) == said
    assert rate_match(match.pk) == []


def won_by_the_clock(match: Match, user) -> Match:
    """Play the match out in simulated time, the clock making every move of `user`'s seat, and
    let those moves have won it (they can: a Dudo bid the clock makes may stand)."""
    wakeups.play_out(match.pk)
    match.refresh_from_db()
    seat = match.seats.get(user=user).number
    match.result["ranking"] = [[seat], [1 - seat]]
    match.save(update_fields=["result"])
    return match


def test_a_player_who_made_no_move_of_their_own_loses_with_no_berserk_point_and_the_opponent_wins(
    started, alice, settings
):
    """An arbiter saw 3 points (win and berserk) for a player who went berserk, closed the page and
    never moved while the clock's moves won, and 0 for the player who played: the arena now counts
    the game as lost by the one who made no move of their own, and says so."""
    # The clock's moves must be able to win: it does not count her out first, which it would after a
    # number of timeouts in a row that the deal (different each run) may or may not reach.
    settings.MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT = 10_000
    first = at_table(started, alice)
    lose(first, opponent(first, alice))  # alice wins one: on a streak of 1
    match = at_table(started, alice)
    bot = opponent(match, alice)
    arena_format.go_berserk(started.pk, alice)
    match = won_by_the_clock(match, alice)
    assert match.result["idle"] == [match.seats.get(user=alice).number], "the match service's own record"
    running.record_match(match.pk)
    mine = Score.objects.get(entry=entry(started, alice), table__match=match)
    assert (mine.points, mine.kind, mine.streak) == (0.0, "forfeited", 0), "no win, no berserk point, streak ended"
    theirs = Score.objects.get(entry__user=bot, table__match=match)
    assert (theirs.points, theirs.kind, theirs.streak) == (2.0, "played", 1), "the player who moved wins"
    assert entry(started, alice).paused, "not at their screen"
    said = "alice made no move of their own: counted as a forfeit"
    assert why_not_rated(match) == said
    row = next(row for row in leaderboard(started) if row.player == "alice")
    assert row.marks[-1].words == "made no move of their own, so lost: 0 points"


def test_when_neither_player_made_a_move_of_their_own_neither_scores(olga, alice, bob):
    tournament, match = two_people_at_their_table(olga, alice, bob)
    match = won_by_the_clock(match, alice)
    running.record_match(match.pk)
    found = set(Score.objects.filter(table__match=match).values_list("points", "kind", "streak"))
    assert found == {(0.0, "forfeited", 0)}
