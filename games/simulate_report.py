"""Win rates and speed of many bot games: what `manage.py simulate` prints."""

from __future__ import annotations

import time
from collections import Counter

from games.engine import get_game
from games.registry import get_bot
from games.simulate import play


def simulate(slug: str, bot_names: list[str], games: int, seed: int, options: dict | None = None) -> dict:
    """Play `games` games; seats rotate so no bot always sits first."""
    game = get_game(slug)
    players = len(bot_names)
    wins: Counter[str] = Counter()
    shared: Counter[str] = Counter()
    actions = 0
    game_ms = 0
    started = time.perf_counter()
    for number in range(games):
        order = [bot_names[(i + number) % players] for i in range(players)]
        playout = play(game, [get_bot(slug, name) for name in order], seed + number, options)
        actions += len(playout.log)
        game_ms += playout.end_ms
        winners = game.result(playout.state)["ranking"][0]
        for seat in winners:
            if len(winners) == 1:
                wins[order[seat]] += 1
            else:
                shared[order[seat]] += 1
    seconds = time.perf_counter() - started
    seats_per_bot = Counter(bot_names)
    return {
        "game": slug,
        "players": players,
        "games": games,
        "bots": bot_names,
        "win_rate": {name: wins[name] / (games * seats_per_bot[name]) for name in seats_per_bot},
        "shared_win_rate": {name: shared[name] / (games * seats_per_bot[name]) for name in seats_per_bot},
        "average_actions": actions / games,
        "average_game_seconds": game_ms / games / 1000,
        "games_per_second": games / seconds,
        "actions_per_second": actions / seconds,
        "seconds": seconds,
    }
