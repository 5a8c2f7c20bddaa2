"""The tournament pages: standings, rounds with links to every match, the chooser's form."""

import re
from datetime import timedelta

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from games.lobby.consumers import opening_notices
from games.matches import broadcast, wakeups
from games.matches.models import Seat
from tournaments import organizing, running, services
from tournaments.models import Tournament
from tournaments.standings import standings

pytestmark = pytest.mark.django_db(transaction=True)  # finished matches are handed on after commit


def make(olga, game, bots, **fields):
    cup = Tournament.objects.create(name=f"{game} cup", game=game, organizer=olga, starts_at=timezone.now(), **fields)
    for bot in bots:
        services.enter_house_bot(cup.pk, bot)
    return cup


def test_a_finished_swiss_shows_the_standings_and_every_round_with_replays(client, olga):
    cup = make(olga, "dudo", ["heuristic", "random", "heuristic"], rounds=2)
    running.start(cup.pk)
    running.play_out(cup.pk)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert 'id="standings"' in page and "Finished" in page
    assert "Round 2" in page and "Round 1" in page
    for table in cup.tables.all():
        assert f"/match/{table.match_id}/replay/" in page
    assert "HeuristicBot2" in page and "a bye is worth" in page
    cup.refresh_from_db()
    if cup.started_at.date() == cup.finished_at.date():  # a day's event names its day once
        assert f"to {cup.finished_at:%H:%M} UTC" in page and page.count(f"{cup.finished_at:%Y}") == 1


def test_the_loser_of_a_dobble_mini_game_chooses_the_next_one_on_the_page(client, olga, alice):
    cup = make(olga, "dobble", ["hard"], format="dobble-series", rounds=2)
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    wakeups.play_out(cup.tables.get(round=1).match_id)
    client.force_login(alice)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert 'id="choose-mini-game"' in page and 'value="hot-potato">Hot Potato<' in page
    response = client.post(f"/tournaments/{cup.pk}/choose/", {"mini_game": "hot-potato"}, follow=True)
    assert "the next mini-game starts now" in response.content.decode()
    assert cup.tables.get(round=2).match.options["mini_game"] == "hot-potato"
    again = client.post(f"/tournaments/{cup.pk}/choose/", {"mini_game": "the-well"}, follow=True)
    assert "no mini-game for you to choose" in again.content.decode()


def test_the_list_shows_running_tournaments(client, olga):
    cup = make(olga, "dudo", ["heuristic", "random"], rounds=1)
    running.start(cup.pk)
    assert 'id="running"' in client.get("/tournaments/").content.decode()


def test_a_running_arena_in_the_list_says_until_when_and_whether_the_visitor_is_in_it(client, olga, alice):
    arena = make(olga, "dudo", ["random"], format="arena", time_control="3+2", duration_minutes=55)
    services.enter(arena.pk, alice)
    running.start(arena.pk)
    ends = timezone.localtime(Tournament.objects.get(pk=arena.pk).ends_at).strftime("%H:%M")
    client.force_login(alice)
    line = re.search(r'<ul id="running">(.*?)</ul>', client.get("/tournaments/").content.decode()).group(1)
    assert f"Arena, until {ends}" in line and "you are in" in line
    client.force_login(olga)
    assert "you are in" not in client.get("/tournaments/").content.decode()


@pytest.mark.parametrize(
    "fields, field",
    [
        ({"game": "dudo", "format": "dobble-series"}, "format"),
        ({"game": "dudo", "format": "rounds-total"}, "format"),
        ({"game": "dudo", "format": "round-robin", "table_size": 3}, "format"),
        ({"game": "doubt-it", "table_size": 2}, "table_size"),
        ({"game": "dobble", "table_size": 9}, "table_size"),
    ],
)
def test_formats_that_do_not_fit_the_game_are_refused(olga, fields, field):
    cup = Tournament(name="x", organizer=olga, starts_at=timezone.now() + timedelta(days=1), **fields)
    with pytest.raises(ValidationError) as refused:
        cup.clean()
    assert field in refused.value.message_dict


def late_night(olga, alice) -> Tournament:
    """Two rounds of Dudo, alice against a house bot, round 1 seated."""
    cup = Tournament.objects.create(
        name="Late night", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=2
    )
    services.enter_house_bot(cup.pk, "heuristic")
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    return cup


def test_a_player_in_a_running_round_finds_their_game_at_the_top_of_the_page(client, olga, alice, bob):
    cup = late_night(olga, alice)
    table = cup.tables.get(round=1, match__isnull=False)
    client.force_login(alice)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Round 1: your game is on." in page and f'href="/match/{table.match_id}/">Play your game' in page
    game = client.get(f"/match/{table.match_id}/").content.decode()
    assert "Round 1 of Late night" in game and "The tournament seats your next game when this round ends." in game
    client.force_login(bob)  # not entered: nothing to play
    assert "your game is on" not in client.get(f"/tournaments/{cup.pk}/").content.decode()


def test_a_finished_table_opened_once_the_next_round_has_started_links_to_the_new_game(client, olga, alice):
    """A tester reloaded her finished round-1 table while round 2 was under way: it still said
    the tournament would seat her next game when the round ended."""
    cup = late_night(olga, alice)
    Tournament.objects.filter(pk=cup.pk).update(withdraw_no_shows=False)  # the clock's moves keep her paired
    first = cup.tables.get(round=1, match__isnull=False)
    Seat.objects.filter(match=first.match_id, user=alice).update(disconnected_at=timezone.now())  # she came
    wakeups.play_out(first.match_id)
    second = cup.tables.get(round=2, match__isnull=False)
    client.force_login(alice)
    game = client.get(f"/match/{first.match_id}/").content.decode()
    assert "Round 2 of Late night: your game has started," in game
    assert f'<a href="/match/{second.match_id}/">go to its table</a>' in game
    assert "seats your next game when this round ends" not in game


@pytest.mark.django_db(transaction=True)  # the notices go out once the round's seating is committed
def test_a_player_sitting_a_round_out_hears_it_and_her_last_table_says_so(client, olga, alice):
    """A tester's player sat out the last round and her finished table, even reloaded, said that
    the tournament would seat her next game; nothing had told her the round had begun."""
    cup = Tournament.objects.create(
        name="Three", game="dudo", organizer=olga, starts_at=timezone.now(), rounds=3, format="round-robin",
        withdraw_no_shows=False,  # the clock makes her moves: she stays paired all the same
    )
    services.enter_house_bot(cup.pk, "heuristic")
    services.enter(cup.pk, alice)  # number 2 of FIDE's Berger table for 3: she sits out round 3
    services.enter_house_bot(cup.pk, "random")
    running.start(cup.pk)
    for number in (1, 2):  # an odd field: everyone sits out a round, she the last
        for table in cup.tables.filter(round=number):
            Seat.objects.filter(match=table.match_id, user=alice).update(disconnected_at=timezone.now())  # she came
            wakeups.play_out(table.match_id)
    assert not cup.tables.filter(round=3, match__seats__user=alice).exists()
    told = [notice["text"] for notice in broadcast.recent_notices(alice.pk)]
    assert told == [
        "Round 3 of Three: you sit this round out (in an odd field everyone does, once). "
        "The final standings come when every table has finished. "
    ]
    client.force_login(alice)
    hers = cup.tables.get(round=2, match__seats__user=alice).match_id
    game = client.get(f"/match/{hers}/").content.decode()
    assert "You sit out round 3: the final standings come when every table has finished." in game
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Withdraw from the next rounds" not in page, "the last round is seated: there are none"


def test_a_page_that_opens_is_reminded_of_the_newest_event_game_last_so_that_it_stays_shown(olga, alice):
    """A tester's page reminded her of a cancelled tournament's game still being played out, not
    of her next tournament's game, whose clock ran: a page shows one reminder, the last."""
    late_night(olga, alice)
    later = Tournament.objects.create(
        name="Later", game="dudo", organizer=olga, starts_at=timezone.now() - timedelta(seconds=1), rounds=2
    )
    services.enter_house_bot(later.pk, "random")
    services.enter(later.pk, alice)
    running.start(later.pk, now=timezone.now() + timedelta(seconds=5))
    reminded = [message["about"] for message in opening_notices(alice) if message.get("reminder")]
    assert reminded == ["Round 1 of Late night", "Round 1 of Later"]


def test_before_the_start_the_page_says_in_words_how_ties_will_be_split_and_what_the_event_is(client, olga):
    cup = make(olga, "dudo", ["random"], rounds=4, tiebreaks=["sonneborn-berger", "buchholz"])
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Swiss, 4 rounds at tables of 2" in page
    assert "Ties will be split by Sonneborn-Berger, then Buchholz:" in page
    assert "the sum of your opponents&#x27; points" in page or "the sum of your opponents' points" in page
    assert "How Buchholz counts" in page and "counts as an opponent with your own points" in page, "FIDE's way, said"
    knockout = make(olga, "dubito", ["random"], format="knockout", best_of=3)
    bracket = client.get(f"/tournaments/{knockout.pk}/").content.decode()
    assert "Knockout, best of 3" in bracket and "a seeded bracket" in bracket and "tables dealt by seed" not in bracket
    tables = make(olga, "dobble", ["hard"], format="knockout", table_size=4)
    page = client.get(f"/tournaments/{tables.pk}/").content.decode()
    assert "the top 2 of each go through" in page and "tables dealt by seed" in page and "best-of" not in page
    winners = make(olga, "doubt-it", ["random"], format="knockout", table_size=3, advance=1)
    assert "the winner of each goes through" in client.get(f"/tournaments/{winners.pk}/").content.decode()


def test_a_profile_lists_the_players_tournaments_with_their_place(client, olga):
    finished = make(olga, "dudo", ["heuristic", "random", "heuristic"], rounds=2)
    running.start(finished.pk)
    running.play_out(finished.pk)
    soon = Tournament.objects.create(
        name="Next week's cup", game="dudo", organizer=olga, starts_at=timezone.now() + timedelta(days=1)
    )
    bot = finished.entries.get(user__username="HeuristicBot2").user
    places = [row["place"] for row in standings(finished)]
    place = next(row["place"] for row in standings(finished) if row["player"] == "HeuristicBot2")
    page = client.get(f"/accounts/u/{bot.username}/").content.decode()
    assert 'id="profile-tournaments"' in page and "dudo cup" in page
    ordinal = {1: "1st", 2: "2nd", 3: "3rd"}[place]
    shared = "=" if places.count(place) > 1 else ""  # a shared place, as clubs write it
    assert f"finished {shared}{ordinal} of 3" in page
    assert "Next week&#x27;s cup" not in page, "another player's entry"
    services.enter_house_bot(soon.pk, "heuristic")
    other = soon.entries.get().user
    later = client.get(f"/accounts/u/{other.username}/").content.decode()
    assert "Next week&#x27;s cup" in later and "starts " in later


def test_a_profile_marks_a_shared_place_and_a_knockout_player_still_in(client, olga):
    cup = make(olga, "dudo", ["heuristic", "random"] * 3, format="knockout")
    running.start(cup.pk)
    page = client.get("/accounts/u/HeuristicBot/").content.decode()
    assert "still in, 6 entered" in page, "no place before they are out"
    running.play_out(cup.pk)
    out_first = [row for row in standings(Tournament.objects.get(pk=cup.pk)) if row["reached"] == "Quarter-final"]
    assert len(out_first) == 2 and out_first[0]["place"] == out_first[1]["place"] == 5
    page = client.get(f"/accounts/u/{out_first[0]['player']}/").content.decode()
    assert "finished =5th of 6" in page


def test_a_profile_lists_events_under_way_first_then_the_latest_and_links_to_them_all(client, olga):
    """An outside tester found a bot's two wins missing from its profile of ten, and the list in
    no order: events under way come first, then the latest to start, then the ones to come."""
    bot = None
    for number in range(12):
        cup = make(olga, "dudo", ["heuristic", "random"], rounds=1)
        Tournament.objects.filter(pk=cup.pk).update(name=f"cup {number:02}")
        if number < 11:
            running.start(cup.pk, now=timezone.now() + timedelta(minutes=number))
        bot = bot or cup.entries.get(user__username="HeuristicBot").user
    page = client.get(f"/accounts/u/{bot.username}/").content.decode()
    listed = re.findall(r">cup (\d\d)</a>", page)
    assert listed[:2] == ["10", "09"] and len(listed) == 10, listed
    assert "All 12 tournaments" in page
    all_of_them = client.get(f"/accounts/u/{bot.username}/?tournaments=all").content.decode()
    everything = re.findall(r">cup (\d\d)</a>", all_of_them)
    assert len(everything) == 12 and everything[-1] == "11", "the one still to come last"


def test_an_accelerated_swiss_says_so_on_its_page(client, olga):
    cup = make(olga, "dudo", ["heuristic", "random"] * 4, rounds=3, accelerated_rounds=1)
    page = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "Swiss, 3 rounds at tables of 2, round 1 accelerated" in page
    assert "Accelerated: in round 1 the top half of the seeds are paired as if a point ahead" in page


def test_a_cancelled_tournament_shows_no_final_standings(client, olga, alice):
    """A tournament cancelled before its start showed "1 — alice" as if she had won it."""
    early = make(olga, "dudo", ["random"])
    services.enter(early.pk, alice)
    Tournament.objects.filter(pk=early.pk).update(status=Tournament.Status.CANCELLED)
    assert 'id="standings"' not in client.get(f"/tournaments/{early.pk}/").content.decode()
    stopped = make(olga, "dubito", ["heuristic", "random"], rounds=2)
    running.start(stopped.pk)
    Tournament.objects.filter(pk=stopped.pk).update(status=Tournament.Status.CANCELLED)
    page = client.get(f"/tournaments/{stopped.pk}/").content.decode()
    assert "<h2>Standings when it was cancelled</h2>" in page
    assert "not counted: the tournament was cancelled" in page and " · playing" not in page


def test_a_player_at_a_cancelled_tournaments_table_reads_that_it_no_longer_counts(client, olga, alice):
    cup = make(olga, "dudo", ["random"], rounds=2)
    services.enter(cup.pk, alice)
    running.start(cup.pk)
    organizing.cancel(olga, cup.pk)
    client.force_login(alice)
    said = client.get(f"/tournaments/{cup.pk}/").content.decode()
    assert "your game is on, and rated, but it no longer counts here: the tournament was cancelled." in said
    assert ", then cancelled: called off by its organizer" in said
