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
    """The view after `step` actions; IndexError past the end, ValueError for a bad seat."""
    log = [(s, a) for s, a in match.actions.values_list("seat", "action")]
    if not 0 <= step <= len(log):
        raise IndexError(step)
    if seat is not None and not 0 <= seat < match.players:
        raise ValueError(seat)
    game = get_game(match.game)
    state = replay(game, match.players, match.seed, match.options, log[:step])
    return {"match": match.pk, "step": step, "steps": len(log), "seat": seat, "view": game.view(state, seat)}
