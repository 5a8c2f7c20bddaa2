"""Retries and neighbours racing: the same match rated by two workers at once counts once, and
matches sharing players in opposite seat orders never deadlock (ratings lock in user id order)."""

import threading

import pytest
from django.db import connection

from ratings.models import Rating, RatingChange
from ratings.services import rate_match


def race(*match_ids: int) -> list[BaseException]:
    start, errors = threading.Barrier(len(match_ids)), []

    def work(match_id):
        try:
            start.wait()
            rate_match(match_id)
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=work, args=(match_id,)) for match_id in match_ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    return errors


@pytest.mark.django_db(transaction=True)
def test_two_workers_rating_the_same_match_at_once_rate_it_once(finished_match, alice, bob):
    match = finished_match("dudo", [alice, bob], [[0], [1]])
    assert race(match.pk, match.pk, match.pk) == []
    assert RatingChange.objects.filter(match=match).count() == 2
    assert list(Rating.objects.order_by("user__username").values_list("elo", "games")) == [(1520.0, 1), (1480.0, 1)]


@pytest.mark.django_db(transaction=True)
def test_matches_sharing_players_in_opposite_orders_are_both_rated(finished_match, alice, bob, carol):
    first = finished_match("dudo", [alice, bob, carol], [[0], [1], [2]])
    second = finished_match("dudo", [carol, bob, alice], [[0], [1], [2]])
    assert race(first.pk, second.pk) == []
    assert RatingChange.objects.count() == 6
    assert list(Rating.objects.values_list("games", flat=True)) == [2, 2, 2]
