"""The arena's pure rules (tournaments/arena.py): seating each wave, and what a game is worth."""

from itertools import combinations

from hypothesis import given
from hypothesis import strategies as st

from tournaments import arena
from tournaments.arena import SeatBefore, Waiting


@st.composite
def pools(draw, most=9):
    """Free players: scores, waits, house bots, and last tables among themselves."""
    count = draw(st.integers(0, most))
    entries = list(range(1, count + 1))
    players = []
    for entry in entries:
        last = draw(st.sets(st.sampled_from(entries), max_size=2)) if entries else set()
        players.append(
            Waiting(
                entry=entry,
                score=draw(st.integers(0, 12)),
                since=draw(st.integers(0, 60)),
                last_table=frozenset(last - {entry}),
                house_bot=draw(st.booleans()),
            )
        )
    return players


def allowed_pairs(people, now, anyone_playing):
    return [(a, b) for a, b in combinations(people, 2) if arena.may_meet(a, b, now, anyone_playing)]


def best_pairings(people, now, anyone_playing):
    """Every set of disjoint allowed pairs, by brute force: (most pairs, smallest score gap)."""
    pairs = allowed_pairs(people, now, anyone_playing)
    best = (0, 0)

    def extend(start, used, count, gap):
        nonlocal best
        best = max(best, (count, -gap))
        for index in range(start, len(pairs)):
            one, other = pairs[index]
            if one.entry not in used and other.entry not in used:
                extend(index + 1, used | {one.entry, other.entry}, count + 1, gap + abs(one.score - other.score))

    extend(0, frozenset(), 0, 0)
    return best


@given(pools(), st.booleans())
def test_two_seat_waves_pair_as_many_people_as_allowed_as_near_in_score_as_possible(players, anyone_playing):
    now = 60
    tables = arena.seat(players, table_size=2, smallest=2, now=now, anyone_playing=anyone_playing)
    by_entry = {player.entry: player for player in players}
    seated = [entry for table in tables for entry in table]
    assert len(seated) == len(set(seated)), "nobody sits twice"
    assert all(len(table) == 2 for table in tables)
    for one, other in (map(by_entry.get, table) for table in tables):
        assert arena.may_meet(one, other, now, anyone_playing), "no immediate rematch while avoidable"
        assert not (one.house_bot and other.house_bot), "house bots only fill a person's table"
    people = [p for p in players if not p.house_bot]
    people_pairs = [t for t in tables if not any(by_entry[e].house_bot for e in t)]
    gap = sum(abs(by_entry[a].score - by_entry[b].score) for a, b in people_pairs)
    assert (len(people_pairs), -gap) == best_pairings(people, now, anyone_playing)
    left = [p for p in people if p.entry not in seated]
    free_bots = [p for p in players if p.house_bot and p.entry not in seated]
    assert not any(arena.may_meet(person, bot, now, anyone_playing) for person in left for bot in free_bots), (
        "a person waits only when no free house bot may sit with them"
    )


def test_the_last_opponent_is_met_again_only_when_nobody_else_can_come_free_or_after_a_wait():
    ann = Waiting(1, score=4, since=50, last_table=frozenset({2}))
    bob = Waiting(2, score=4, since=50, last_table=frozenset({1}))
    cat = Waiting(3, score=0, since=50)
    assert arena.seat([ann, bob, cat], table_size=2, smallest=2, now=55, anyone_playing=True) == [[1, 3]]
    assert arena.seat([ann, bob], table_size=2, smallest=2, now=55, anyone_playing=True) == []
    assert arena.seat([ann, bob], table_size=2, smallest=2, now=55, anyone_playing=False) == [[1, 2]]
    later = 50 + arena.REMATCH_AFTER_SECONDS
    assert arena.seat([ann, bob], table_size=2, smallest=2, now=later, anyone_playing=True) == [[1, 2]]


def test_near_scores_meet_and_the_longest_waiting_sits_first():
    players = [Waiting(1, 10, since=5), Waiting(2, 0, since=1), Waiting(3, 9, since=9), Waiting(4, 1, since=9)]
    assert arena.seat(players, table_size=2, smallest=2, now=20, anyone_playing=True) == [[2, 4], [1, 3]]
    three = [Waiting(1, 5, since=9), Waiting(2, 5, since=1), Waiting(3, 5, since=5)]
    assert arena.seat(three, table_size=2, smallest=2, now=20, anyone_playing=True) == [[2, 3]]


def test_a_person_left_over_gets_the_house_bot_nearest_in_score_and_bots_never_play_each_other():
    players = [
        Waiting(1, 6, since=0),
        Waiting(7, 0, since=0, house_bot=True),
        Waiting(8, 5, since=0, house_bot=True),
        Waiting(9, 9, since=0, house_bot=True),
    ]
    assert arena.seat(players, table_size=2, smallest=2, now=1, anyone_playing=True) == [[1, 8]]


@given(pools(most=14), st.integers(3, 6), st.booleans(), st.integers(0, 40))
def test_larger_tables_seat_the_next_free_people_filled_with_house_bots(players, size, anyone_playing, now):
    smallest = 3
    tables = arena.seat(players, table_size=size, smallest=smallest, now=now, anyone_playing=anyone_playing)
    by_entry = {player.entry: player for player in players}
    seated = [entry for table in tables for entry in table]
    assert len(seated) == len(set(seated))
    assert all(smallest <= len(table) <= size for table in tables)
    assert all(any(not by_entry[e].house_bot for e in table) for table in tables), "a person at every table"
    people = arena.by_waiting([p for p in players if not p.house_bot])
    seated_people = [p for p in people if p.entry in seated]
    assert seated_people == people[: len(seated_people)], "the longest waiting people sit first"
    assert len(seated_people) >= len(people) // size * size, "every full table of people sits down"
    short = [table for table in tables if len(table) < size]
    assert len(short) <= 1
    if short:
        free_bots = [p for p in players if p.house_bot and p.entry not in seated]
        assert not free_bots, "a table short of its size has every free house bot"


def test_a_short_table_waits_for_more_players_while_someone_may_come_free():
    two = [Waiting(1, 0, since=0), Waiting(2, 0, since=0), Waiting(3, 0, since=0, house_bot=True)]
    assert arena.seat(two, table_size=4, smallest=3, now=5, anyone_playing=True) == []
    assert arena.seat(two, table_size=4, smallest=3, now=5, anyone_playing=False) == [[1, 2, 3]]
    assert arena.seat(two, table_size=4, smallest=3, now=arena.FILL_AFTER_SECONDS, anyone_playing=True) == [[1, 2, 3]]
    assert arena.seat(two[:2], table_size=4, smallest=3, now=99, anyone_playing=False) == []


def test_a_win_is_two_a_draw_one_and_two_wins_in_a_row_make_the_next_games_count_double():
    sheet, streak = [], 0
    for ranking in ([[0], [1]], [[0], [1]], [[0], [1]], [[0, 1]], [[0], [1]], [[1], [0]]):
        earned = arena.score_table(ranking, [SeatBefore(streak=streak), SeatBefore()])[0]
        sheet.append(earned.points)
        streak = earned.streak
    assert sheet == [2, 2, 4, 2, 2, 0], "the third win doubled, so was the draw after it, which ended the streak"


def test_berserk_adds_a_point_to_a_win_only():
    won, lost = arena.score_table([[0], [1]], [SeatBefore(berserk=True), SeatBefore(berserk=True)])
    assert (won.points, won.berserk_point, lost.points) == (3, True, 0)
    on_fire = arena.score_table([[0], [1]], [SeatBefore(streak=2, berserk=True), SeatBefore()])[0]
    assert (on_fire.points, on_fire.doubled) == (5, True), "doubled win, then the berserk point"


def test_a_player_who_never_came_earns_nothing_and_the_others_had_no_game_at_two_seats():
    present, absent = arena.score_table([[0], [1]], [SeatBefore(streak=3), SeatBefore(streak=2, absent=True)])
    assert (present.points, present.streak, present.outcome) == (0, 3, arena.NO_GAME)
    assert (absent.points, absent.streak, absent.outcome) == (0, 0, arena.ABSENT)


def test_at_larger_tables_places_count_among_those_who_came():
    seats = [SeatBefore(), SeatBefore(absent=True), SeatBefore(), SeatBefore()]
    earned = arena.score_table([[1], [2], [0], [3]], seats)
    assert [e.outcome for e in earned] == [arena.DREW, arena.ABSENT, arena.WON, arena.LOST]
    assert [e.points for e in earned] == [1, 0, 2, 0]


@given(st.integers(2, 8), st.data())
def test_a_table_gives_one_win_at_most_and_the_winner_the_most_points(players, data):
    order = data.draw(st.permutations(list(range(players))))
    cuts = sorted(data.draw(st.sets(st.integers(1, players - 1))))
    ranking = [list(order[a:b]) for a, b in zip([0, *cuts], [*cuts, players], strict=True)]
    streaks = data.draw(st.lists(st.integers(0, 4), min_size=players, max_size=players))
    earned = arena.score_table(ranking, [SeatBefore(streak=s) for s in streaks])
    winners = [number for number, e in enumerate(earned) if e.outcome == arena.WON]
    assert len(winners) <= 1 and (winners == ranking[0] if len(ranking[0]) == 1 else not winners)
    for number, e in enumerate(earned):
        base = {arena.WON: 2, arena.DREW: 1, arena.LOST: 0}[e.outcome]
        assert e.points == base * (2 if streaks[number] >= 2 else 1)
        assert e.streak == (streaks[number] + 1 if e.outcome == arena.WON else 0)
