"""Replays: a finished match is its seed, options and action log; everything else follows."""

from games.engine import get_game
from games.simulate import replay


def export(match) -> dict:
    """The JSON that `manage.py replay` verifies and anyone can replay with the engines."""
    return {
        "format": "dubium-replay-1",
        "match": match.pk,
        "game": match.game,
        "players": match.players,
        "options": match.options,
        "seed": match.seed,
        "actions": [
            {"seq": seq, "seat": seat, "action": action}
            for seq, seat, action in match.actions.values_list("seq", "seat", "action")
        ],
        "result": match.result,
    }


def verify(data: dict) -> tuple[bool, dict]:
    """Replay an export; True when the engine reaches the recorded result (forfeits aside)."""
    game = get_game(data["game"])
    state = replay(
        game, data["players"], data["seed"], data["options"], [(a["seat"], a["action"]) for a in data["actions"]]
    )
    recorded = data.get("result") or {}
    if recorded.get("forfeited"):
        return True, {"note": "a seat forfeited: the log replays, the ranking comes from the forfeit"}
    if not game.is_over(state):
        return False, {"error": "the log does not reach the end of the game"}
    result = game.result(state)
    return result["ranking"] == recorded.get("ranking"), result


def seats_shown_to(match, user) -> list[int]:
    """The seats whose private view a replay may show this viewer: their own, nobody else's.

    What the rules reveal to the table (dice at a doubt, challenged cards) is in everyone's
    view; a hand that was never shown at the table stays unseen, even after the end
    (docs/rules/*.md, "Replays").
    """
    seat = match.seat_of(user)
    return [] if seat is None else [seat.number]


def frame(match, step: int, seat: int | None) -> dict:
    """The view after `step` actions, and the players out of the game by then; IndexError past
    the end, ValueError for a bad seat."""
    rows = list(match.actions.values_list("seat", "action", "events", "created_at"))
    if not 0 <= step <= len(rows):
        raise IndexError(step)
    if seat is not None and not 0 <= seat < match.players:
        raise ValueError(seat)
    game = get_game(match.game)
    state = replay(game, match.players, match.seed, match.options, [(s, action) for s, action, _, _ in rows[:step]])
    return {
        "match": match.pk,
        "step": step,
        "steps": len(rows),
        "seat": seat,
        "view": game.view(state, seat),
        "gone": gone(match, rows, step),
    }


def gone(match, rows: list[tuple], step: int) -> list[dict]:
    """Who had resigned or left by `step` actions, in words (Seat.why_gone), with where it
    happened in the history: the index of the first entry after it. Neither is an action of the
    game, so the log holds only their time: they came after the actions logged before it."""
    first = len(match.opening_history())
    marks = []
    for seat in match.seats.all():
        if seat.forfeited_at is None:
            continue
        before = [row for row in rows if row[3] <= seat.forfeited_at]
        if len(before) <= step:
            at = first + sum(len(events) for _, _, events, _ in before)
            marks.append({"seat": seat.number, "why": seat.why_gone(match.result), "at": at})
    return sorted(marks, key=lambda mark: mark["at"])
