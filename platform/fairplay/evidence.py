"""What one finished match says about its players, read from its public history alone.

Pure functions (no Django), so the Celery task that stores them and bench/fairplay.py's
simulated population measure exactly the same things. What only one game's history says (who
could doubt whom, a race's reaction times) its package registers (games/registration.py).
"""


def think_times(moves: list[tuple[int, float]]) -> dict[int, list[float]]:
    """Each seat's thinking time (seconds) per move, from (seat, seconds since the match's
    previous move or its start) in log order."""
    times: dict[int, list[float]] = {}
    for seat, seconds in moves:
        times.setdefault(seat, []).append(seconds)
    return times
