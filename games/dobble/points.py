"""Tournament points for one mini-game, and who picks the next one in a series.

`points(mini_game, result)` is pure and reads only `GAME.result(state)`. A Dobble series
calls it (tournaments/formats/dobble_series.py `points_by_seat`) when a table is scored, in the
Celery task games.matches.tasks.settle_match (or a beat tick's retry). The points:

- towering-inferno: +1 per card won (result["scores"]) and +5 to the winner;
- the-well: +10 to the first seat out, -20 to the last one holding cards;
- poisoned-gift: +20 to the winner (fewest cards), +10 to the runner-up;
- hot-potato: -5 per round lost (result["details"]["rounds_lost"]);
- gotta-catch-them-all: +1 per card won.

Places come from result["ranking"], where the engine has already settled every
tie by a duel, so "the most cards" goes to the duel's winner. A ranking that
still has shared groups (one not made by the engine) counts places as in
sports: seats tied for first all get the first-place bonus and the next group
is third, so nobody gets the runner-up bonus after a tie for first.
"""

from __future__ import annotations

SERIES_OPENER = "towering-inferno"


def points(mini_game: str, result: dict) -> dict[str, int]:
    """Each seat's tournament points (string keys, like result["scores"])."""
    seats = [seat for group in result["ranking"] for seat in group]
    total = {str(seat): 0 for seat in sorted(seats)}
    places = _places(result["ranking"])
    if mini_game in ("towering-inferno", "gotta-catch-them-all"):
        for seat, cards in result["scores"].items():
            total[seat] += cards
    if mini_game == "towering-inferno":
        _bonus(total, places, {1: 5})
    elif mini_game == "the-well":
        _bonus(total, places, {1: 10, places[str(result["ranking"][-1][0])]: -20})
    elif mini_game == "poisoned-gift":
        _bonus(total, places, {1: 20, 2: 10})
    elif mini_game == "hot-potato":
        for seat, lost in result["details"]["rounds_lost"].items():
            total[seat] -= 5 * lost
    elif mini_game != "gotta-catch-them-all":
        raise ValueError(f"There is no Dobble mini-game called {mini_game!r}.")
    return total


def next_chooser(result: dict) -> int:
    """The seat that chooses the next mini-game of the series: this one's loser (last place)."""
    return result["ranking"][-1][0]


def _places(ranking: list[list[int]]) -> dict[str, int]:
    places, ahead = {}, 0
    for group in ranking:
        for seat in group:
            places[str(seat)] = ahead + 1
        ahead += len(group)
    return places


def _bonus(total: dict[str, int], places: dict[str, int], by_place: dict[int, int]) -> None:
    for seat, place in places.items():
        total[seat] += by_place.get(place, 0)
