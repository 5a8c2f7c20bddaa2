"""Random playouts through every engine, next to OpenSpiel's C++ liars_dice.

    .venv/bin/python bench/engines.py [--seconds 3] [--write]

Per game: games/s and microseconds per action for a tight random playout
(to_act, legal_actions, a uniform choice, apply; no views), then the same loop
with every seat's view built after each action, as the match service does.
--write puts the table into docs/performance.md between its engine markers.
"""

import argparse
import platform
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from games.engine import GAMES  # noqa: E402
from games.registry import REGISTRY  # noqa: E402


def playouts(slug: str, players: int, seconds: float, with_views: bool) -> tuple[int, int, float]:
    game = GAMES[slug]
    rng = random.Random(1)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_game(players, rng.getrandbits(32))
        now_ms = 0
        while not game.is_over(state):
            choices = [(seat, game.legal_actions(state, seat)) for seat in game.to_act(state)]
            seat, legal = rng.choice([choice for choice in choices if choice[1]])
            action = rng.choice(legal)
            if game.realtime:  # a locked-out seat's claims carry the earliest time they may be made
                now_ms = max(now_ms + 50, action.get("at_ms", 0))
                action = {**action, "at_ms": now_ms}
            state = game.apply(state, seat, action)
            actions += 1
            if with_views:
                for viewer in [None, *range(players)]:
                    game.view(state, viewer)
        games += 1
    return games, actions, time.perf_counter() - started


def openspiel(seconds: float) -> tuple[int, int, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("liars_dice")
    rng = random.Random(1)
    games = actions = 0
    started = time.perf_counter()
    while time.perf_counter() - started < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                actions += 1
        games += 1
    return games, actions, time.perf_counter() - started


def table(seconds: float) -> str:
    rows = ["| game | players | games/s | µs per action | µs per action with views |", "|---|---:|---:|---:|---:|"]
    reference = openspiel(seconds)
    for slug, registration in REGISTRY.items():
        players = registration.bench_players
        games, actions, spent = playouts(slug, players, seconds, with_views=False)
        _, view_actions, view_spent = playouts(slug, players, seconds, with_views=True)
        rows.append(
            f"| {slug} | {players} | {games / spent:,.0f} | {spent / actions * 1e6:.1f} | "
            f"{view_spent / view_actions * 1e6:.1f} |"
        )
        print(rows[-1], flush=True)
    if reference:
        games, actions, spent = reference
        rows.append(
            f"| OpenSpiel liars_dice (C++, via pyspiel; player moves only) | 2 | {games / spent:,.0f} | "
            f"{spent / actions * 1e6:.1f} | — |"
        )
    machine = f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    return "\n".join(rows) + f"\n\nMeasured with `bench/engines.py --seconds {seconds:g}` on {machine}.\n"


def write(section: str) -> None:
    path = ROOT / "docs" / "performance.md"
    text = path.read_text()
    start, end = "<!-- engines:start -->", "<!-- engines:end -->"
    before, rest = text.split(start)
    _, after = rest.split(end)
    path.write_text(f"{before}{start}\n{section}{end}{after}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--write", action="store_true")
    args = parser.parse_args()
    section = table(args.seconds)
    print(section)
    if args.write:
        write(section)
