"""Whole Swiss events simulated on the pure modules (pairing, table sizes, byes, points,
tiebreaks) with byes, forfeits, withdrawals and odd table sizes, checked round by round as an
arbiter checks them by hand: everyone still in is seated once or has the bye, nobody twice,
nobody withdrawn; the bye never goes twice while someone else could take it; no rematch while a
round without one exists (two seats); each round hands out the points it should; and the
tiebreaks follow FIDE's unplayed-round rules (tournaments/tiebreaks.py)."""

import random
from collections import Counter

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments import pairing, swiss_pairing, tiebreaks
from tournaments.scoring import share_points
from tournaments.seating import choose_byes


def rematch_free_round_exists(order, met, had_bye) -> bool:
    graph = nx.Graph()
    graph.add_nodes_from(order)
    graph.add_edges_from((a, b) for i, a in enumerate(order) for b in order[i + 1 :] if not met[frozenset((a, b))])
    if len(order) % 2:
        graph.add_edges_from(("bye", p) for p in order if p not in had_bye)
    return len(nx.max_weight_matching(graph, maxcardinality=True)) == (len(order) + 1) // 2


def play_event(entrants: int, seats: int, rounds: int, seed: int):
    """Yields each round's tables, byes and points handed out, after checking its seating; leaves
    the games, points and withdrawals for the tiebreaks in play_event.result at the end."""
    rng = random.Random(seed)
    active = list(range(entrants))
    score, met, had_bye = Counter(), Counter(), set()
    colours, first_seats = {p: "" for p in active}, Counter()
    games = {p: [] for p in active}
    withdrawn_after = {}
    for round_number in range(1, rounds + 1):
        order = sorted(active, key=lambda p: (-score[p], p))
        field = swiss_pairing.Field(
            order, {p: float(score[p]) for p in active}, met.copy(), set(had_bye), first_seats=dict(first_seats),
            colours=dict(colours), numbers={p: p + 1 for p in active}, played=round_number - 1,
            final_round=round_number == rounds,
        )  # fmt: skip
        sizes, bye_count = pairing.table_sizes(len(order), seats, 2 if seats == 2 else 3)
        if seats == 2:
            tables, byes = swiss_pairing.pair_round(field)
        else:
            byes = choose_byes(order, bye_count, had_bye)
            field.order = [p for p in order if p not in byes]
            tables = swiss_pairing.seat_tables(field, sizes)
        seated = [p for table in tables for p in table] + list(byes)
        assert sorted(seated) == sorted(active), "everyone still in sits once or has the bye"
        assert len(byes) == bye_count and sorted(len(t) for t in tables) == sorted(sizes)
        if any(p in had_bye for p in byes):
            assert all(p in had_bye for p in active if p not in byes) or seats == 2 and len(byes) == 1, byes
        if seats == 2:
            avoidable = rematch_free_round_exists(order, met, had_bye)
            assert not (avoidable and any(met[frozenset(t)] for t in tables)), "a rematch that was avoidable"
            assert not (avoidable and set(byes) & had_bye), "a second bye that was avoidable"
        handed = 0.0
        for table in tables:
            first_seats[table[0]] += 1
            for i, a in enumerate(table):
                for b in table[i + 1 :]:
                    met[frozenset((a, b))] += 1
            if seats == 2:
                colours[table[0]] += "w"
                colours[table[1]] += "b"
            if rng.random() < 0.15:  # one player forfeits: last, and nobody played them
                gone = rng.choice(table)
                stay = [p for p in table if p != gone]
                ranked = [*stay, gone]
                seats_ranking = [[seat] for seat in rng.sample(range(len(stay)), len(stay))] + [[len(stay)]]
                ranking = [[ranked[seat] for seat in group] for group in seats_ranking]
                for seat, earned in share_points(seats_ranking).items():
                    player = ranked[seat]
                    score[player] += earned
                    handed += earned
                    alone = len(stay) == 1
                    if player == gone:
                        kind, others = tiebreaks.FORFEIT_LOSS, tuple(stay)
                        games[player].append(tiebreaks.Game(round_number, earned, False, kind=kind, scheduled=others))
                    elif alone:
                        kind = tiebreaks.FORFEIT_WIN
                        games[player].append(tiebreaks.Game(round_number, earned, False, kind=kind, scheduled=(gone,)))
                    else:
                        games[player].append(tiebreaks.game_at(round_number, earned, ranking, player))
                continue
            order_at_table = rng.sample(table, len(table))
            ranking = [[p] for p in order_at_table]
            for seat, earned in share_points([[i] for i in range(len(table))]).items():
                player = order_at_table[seat]
                score[player] += earned
                handed += earned
                games[player].append(tiebreaks.game_at(round_number, earned, ranking, player))
        for p in byes:
            score[p] += 1
            handed += 1
            had_bye.add(p)
            games[p].append(tiebreaks.Game(round_number, 1.0, False, kind=tiebreaks.BYE))
        yield tables, byes, handed
        if round_number < rounds and len(active) > 4 and rng.random() < 0.3:  # someone withdraws
            gone = rng.choice(active)
            active.remove(gone)
            withdrawn_after[gone] = round_number
    for player, after in withdrawn_after.items():
        games[player] += [tiebreaks.Game(r, 0.0, False, kind=tiebreaks.MISSED) for r in range(after + 1, rounds + 1)]
    play_event.result = games, {p: float(score[p]) for p in games}, withdrawn_after


@pytest.mark.once  # pure simulation
@settings(max_examples=40, deadline=None)
@given(st.integers(5, 26), st.sampled_from([2, 2, 3, 4, 5, 6]), st.integers(3, 6), st.integers(0, 10**6))
def test_an_event_with_byes_forfeits_and_withdrawals_checks_by_hand_round_by_round(entrants, seats, rounds, seed):
    for tables, byes, handed in play_event(entrants, seats, rounds, seed):
        expected = sum(len(t) / 2 for t in tables) + len(byes)  # a table hands out half its seats; a bye 1
        assert handed == pytest.approx(expected), "a forfeit takes the last place and nothing else"
    games, score, withdrawn_after = play_event.result
    adjusted = tiebreaks.adjusted_scores(games, score)
    for player in score:
        after = withdrawn_after.get(player)
        missed = rounds - after if after else 0
        assert adjusted[player] == score[player] + 0.5 * missed, "only the rounds after withdrawing count as draws"
    buchholz = tiebreaks.compute(tiebreaks.BUCHHOLZ, games, score, rounds=rounds)
    cut = tiebreaks.compute(tiebreaks.BUCHHOLZ_CUT_1, games, score, rounds=rounds)
    median = tiebreaks.compute(tiebreaks.MEDIAN_BUCHHOLZ, games, score, rounds=rounds)
    for player, own in games.items():
        by_hand = 0.0
        for game in own:
            if game.played:
                by_hand += sum(adjusted[opponent] for opponent in game.against)
                continue
            limit = 0.5 * rounds
            if game.kind in (tiebreaks.FORFEIT_WIN, tiebreaks.FORFEIT_LOSS):
                limit = max(adjusted[o] for o in game.scheduled)
            by_hand += min(score[player], limit)
        assert buchholz[player] == pytest.approx(by_hand)
        assert median[player] <= cut[player] <= buchholz[player]
