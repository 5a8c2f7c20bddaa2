"""Leaderboards and profiles in chromium: established ratings only, a "?" on provisional ones, one rating;
the bluff figures and the rating chart of a profile, and a finished table's rating change."""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from games.engine import GAMES
from games.matches import lifecycle
from games.matches.actions import submit_action
from games.matches.models import Match, MatchAction, Seat
from games.registry import get_bot
from games.simulate import play
from ratings.bluffs import record_bluffs
from ratings.models import Rating
from tests.browser.conftest import in_thread, log_in, screenshot

pytestmark = pytest.mark.browser


def test_the_ladder_ranks_established_ratings_and_the_profile_marks_a_provisional_one(site, strict, make_user):
    """A bot with 4 provisional games topped the Dudo leaderboard, and the profile and ladder showed
    two rating systems ("OpenSkill μ ± σ", "skill 27.6, give or take 8.1")."""
    veteran = make_user("veteran")
    newcomer = make_user("newcomer")
    lucky = make_user("LuckyBot", is_bot=True)
    Rating.objects.create(
        user=veteran, game="dudo", elo=1620, peak=1650, games=64, wins=40, sigma=3.2, established_opponents=12
    )
    Rating.objects.create(user=newcomer, game="dudo", elo=1540, peak=1560, games=12, wins=8, sigma=6.1)
    Rating.objects.create(user=lucky, game="dudo", elo=1580, peak=1580, games=4, wins=4, is_bot=True)
    page = strict.page()
    log_in(page, site, "newcomer")
    page.goto(f"{site}/leaderboards/dudo/")
    rows = page.locator("table.leaderboard tbody tr")
    expect(rows).to_have_count(1)
    expect(rows.first).to_contain_text("veteran")
    expect(page.locator("table.leaderboard")).not_to_contain_text("LuckyBot")
    expect(page.locator("table.leaderboard thead")).to_have_text("#PlayerRatingPeakGamesWins")
    expect(page.locator(".my-place")).to_contain_text("Your rating: 1540?, provisional after 12 rated games")
    expect(page.locator(".ladder-established")).to_contain_text("at least 30 rated games")
    expect(page.locator("main")).not_to_contain_text("OpenSkill")
    screenshot(page, "leaderboard-established-only")
    page.goto(f"{site}/leaderboards/")
    expect(page.locator("main")).not_to_contain_text("LuckyBot")
    page.goto(f"{site}/accounts/u/newcomer/")
    card = page.locator(".rating-card")
    expect(card.locator("h3")).to_have_text("Dudo: 1540?")
    expect(card.locator("h3 abbr.provisional")).to_have_attribute(
        "title", "provisional: not yet established, so not on the leaderboard"
    )
    expect(card).to_contain_text("provisional: on the leaderboard once established (at least 30 rated games)")
    for jargon in ("skill", "give or take", "μ", "OpenSkill"):
        expect(card).not_to_contain_text(jargon)
    screenshot(page, "profile-provisional-rating")
    page.goto(f"{site}/accounts/u/veteran/")
    expect(page.locator(".rating-card h3")).to_have_text("Dudo: 1620")


def test_bluff_figures_leave_out_the_moves_the_clock_made(site, strict, alice):
    """Alice never moved: every move of her seat was her clock running out."""
    playout = play(GAMES["dudo"], [get_bot("dudo", "heuristic"), get_bot("dudo", "heuristic")], 5)
    match = Match.objects.create(game="dudo", players=2, seed=5, status=Match.Status.FINISHED, seq=len(playout.log))
    Seat.objects.create(match=match, number=0, user=alice)
    Seat.objects.create(match=match, number=1, user=lifecycle.house_bot_user("heuristic"), house_bot="heuristic")
    sources = {0: MatchAction.Source.TIMEOUT, 1: MatchAction.Source.HOUSE}
    MatchAction.objects.bulk_create(
        MatchAction(match=match, seq=seq, seat=seat, action=action, source=sources[seat])
        for seq, (seat, action) in enumerate(playout.log)
    )
    assert any(event["type"] == "doubt" and event["seat"] == 0 for event in playout.state.history)
    record_bluffs(match.pk)
    page = strict.page()
    page.goto(f"{site}/accounts/u/alice/")
    row = page.locator(".bluff-table tbody tr", has_text="Dudo")
    assert row.inner_text().split("\t")[2:] == ["–", "–", "–", "–"]  # nothing of hers to judge
    page.goto(f"{site}/accounts/u/HeuristicBot/")
    assert "chances" in page.locator(".bluff-table").inner_text()  # the bot's own moves count
    page.set_viewport_size({"width": 390, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the table scrolls in its box, not the page"
    box = page.locator(".profile-bluffs .scroll")
    assert box.evaluate("e => e.scrollWidth <= e.clientWidth"), "nor in its box: a hidden last column went unseen"
    named = page.locator(".bluff-table tbody tr", has_text="Dudo").locator("td").evaluate_all(
        "cells => cells.map(c => getComputedStyle(c, '::before').content)")
    assert named == ['"Matches: "', '"Bluffed: "', '"Bluffs caught: "', '"Doubted: "', '"Doubts right: "'], named


def ranked_one_die_duel_to_its_end(players: list, seed: int = 3) -> Match:
    def play_it():
        match = lifecycle.start_seated_match(
            game="dudo", seats=[{"user": user} for user in players], now=timezone.now(), options={"dice": 1},
            seed=seed, ranked=True,
        )  # fmt: skip
        for action in ({"type": "bid", "quantity": 1, "face": 2}, {"type": "doubt"}):
            seat = match.engine.to_act(match.load_state())[0]
            match = submit_action(match.pk, players[seat], action, match.seq)
        return match

    match = in_thread(play_it)
    assert match.status == Match.Status.FINISHED
    return match


def test_a_profile_with_a_rating_chart_keeps_to_the_pages_style_policy(site, strict, alice, bob):
    """The chart's sizing was an inline style, which the Content Security Policy refuses."""
    ranked_one_die_duel_to_its_end([alice, bob])
    page = strict.page()
    page.goto(f"{site}/accounts/u/alice/")
    chart = page.locator("svg.rating-chart")
    expect(chart).to_be_visible()
    assert chart.evaluate("svg => getComputedStyle(svg).maxWidth") == "100%"  # shrinks to a phone's width


def test_a_rating_change_on_the_table_adds_up(site, strict, alice, bob):
    """'1538 -> 1553 (+15.7)': the change was shown to a tenth beside ratings shown whole."""
    first = ranked_one_die_duel_to_its_end([alice, bob])
    second = ranked_one_die_duel_to_its_end([alice, bob], seed=4)  # 1500 against 1500 is +-20 exactly
    page = strict.page()
    for match in (first, second):
        page.goto(f"{site}/match/{match.pk}/")
        for text in page.locator(".rating-up, .rating-down").all_inner_texts():
            before, after, change = (float(n) for n in re.findall(r"[+-]?\d+(?:\.\d+)?", text))
            assert before + change == after, text
