"""Replays: a finished match is its seed, options and action log; everything else follows.

The record also carries the deal's commitment and its salt, and each action's history
entries as the table showed them, so that games/verify_deal.py can check the deal."""

from games import verify_deal
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
        "salt": match.salt,
        "commitment": match.commitment,
        "actions": [
            {"seq": seq, "seat": seat, "action": action, "events": events}
            for seq, seat, action, events in match.actions.values_list("seq", "seat", "action", "events")
        ],
        "result": match.result,
    }


def verify(data: dict) -> tuple[bool, dict]:
    """Replay an export; True when the engine reaches the recorded result (forfeits aside)."""
    game = get_game(data["game"])
    state = replay(
        game, data["players"], data["seed"], data["options"], [(a["seat"], a["action"]) for a in data["actions"]]
    )
    return verify_deal.result_agrees(game, state, data.get("result"))


def seats_shown_to(match, user) -> list[int]:
    """The seats whose private view a replay may show this viewer: their own, and their bots'
    (a bot's owner reads what it saw, to see why it played as it did), nobody else's.

    What the rules reveal to the table (dice at a doubt, challenged cards) is in everyone's
    view; a hand that was never shown at the table stays unseen, even after the end
    (docs/rules/*.md, "Replays").
    """
    if not user.is_authenticated:
        return []
    return [
        seat.number
        for seat in sorted(match.seats.all(), key=lambda seat: seat.number)
        if seat.user_id == user.pk or seat.user.bot_owner_id == user.pk
    ]


def may_export_everything(match, user) -> bool:
    """The full record of a game with hidden cards or dice shows every hand: superusers, and once the
    match has ended its own players and the owners of its bots (to see why their bot played as it
    did). Being staff, or organizing the event, is no reason (docs/security.md, "Fair play")."""
    if not match.engine.hidden_information or user.is_superuser:
        return True
    return match.status == match.Status.FINISHED and bool(seats_shown_to(match, user))


def deal_check(match) -> dict | None:
    """The site's own check of a finished match's deal, for its replay page: the commitment,
    and whether the seed and salt hash to it and every chance event follows from the seed."""
    if not match.commitment or match.status != match.Status.FINISHED:
        return None
    verdict = verify_deal.verify(export(match))
    return {"fair": verdict.ok, "problems": verdict.problems}


def frame(match, step: int, seat: int | None) -> dict:
    """The view after `step` actions, and the players out of the game by then; IndexError past
    the end, ValueError for a bad seat."""
    rows = list(match.actions.values_list("seat", "action", "events"))
    if not 0 <= step <= len(rows):
        raise IndexError(step)
    if seat is not None and not 0 <= seat < match.players:
        raise ValueError(seat)
    game = get_game(match.game)
    log = [(number, action) for number, action, _ in rows[:step]]
    view = game.view(replay(game, match.players, match.seed, match.options, log), seat)
    # Where this step's own entries start in the history: what it shows happening (a doubt's reveal).
    new_from = len(match.opening_history) + sum(len(events) for _, _, events in rows[: max(0, step - 1)])
    return {
        "match": match.pk,
        "step": step,
        "steps": len(rows),
        "seat": seat,
        "view": view,
        "new_from": new_from if step else 0,
        "gone": gone(match, view),
    }


def gone(match, view: dict) -> list[dict]:
    """Who had resigned or left by this view's step, in words (Seat.why_gone, and the history's
    line Seat.gone_words), with where it came in the history (Seat.gone_at), as the table's
    history says it: shown once the history reaches that place (after an I Doubt It pass, which
    adds no entry, that may be a step early)."""
    seats = sorted(match.seats.exclude(gone_at=None), key=lambda seat: seat.gone_at)
    return [
        {
            "seat": seat.number,
            "why": seat.why_gone(match.result),
            "words": seat.gone_words(match.result),
            "at": seat.gone_at,
        }
        for seat in seats
        if seat.gone_at <= len(view["history"])
    ]
