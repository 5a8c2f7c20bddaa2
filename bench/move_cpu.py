"""CPU of one move through the match service, in-process, without sockets: Dudo, and I Doubt It
early against late in a long game (does a move cost more as the history grows?).

    .venv/bin/python bench/move_cpu.py                      # SQLite, embedded
    .venv/bin/python bench/move_cpu.py --profile            # and cProfile's top functions
    DATABASE_URL=postgres://.../dubium_x .venv/bin/python bench/move_cpu.py   # a throwaway database

Times `submit_action` (lock, load, rules, log, snapshot, commit, the on-commit pushes into the
in-memory channel layer with nobody listening) with the process's CPU clock, so the file
syncs of a commit are not counted; `engine floor` is the same moves' `apply` alone on states
already in memory, measured in the same run, so compare the ratios on a busy machine.
"""

import argparse
import cProfile
import os
import pstats
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform"), str(ROOT / "bench")]


def play(tables, moves: int, rng) -> tuple[int, float]:
    """Random legal moves, round-robin over the matches; (moves made, CPU seconds in submit_action)."""
    from games.matches.actions import submit_action
    from games.matches.models import Match

    made, spent = 0, 0.0
    matches = {match_id: Match.objects.get(pk=match_id) for match_id, _ in tables}
    users = {
        match_id: {seat.number: seat.user for seat in match.seats.select_related("user")}
        for match_id, match in matches.items()
    }
    while made < moves:
        for match_id, match in list(matches.items()):
            if match.status != Match.Status.RUNNING:
                del matches[match_id]
                continue
            state = match.load_state()
            number = rng.choice(match.engine.to_act(state))
            action = rng.choice(match.engine.legal_actions(state, number))
            started = time.process_time()
            matches[match_id] = submit_action(match_id, users[match_id][number], action, match.seq)
            spent += time.process_time() - started
            made += 1
        if not matches:
            break
    return made, spent


def engine_floor(game: str, players: int, options: dict, moves: int, rng) -> float:
    """CPU seconds a move of `apply` alone takes, on a state in memory."""
    from games.engine import GAMES

    engine = GAMES[game]
    state = engine.new_game(players, 1, engine.clean_options(players, options))
    spent, made = 0.0, 0
    while made < moves:
        if engine.is_over(state):
            state = engine.new_game(players, made, engine.clean_options(players, options))
        number = rng.choice(engine.to_act(state))
        action = rng.choice(engine.legal_actions(state, number))
        started = time.process_time()
        engine.apply(state, number, action)
        spent += time.process_time() - started
        made += 1
    return spent / made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions of the Dudo moves")
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="dubium-move-cpu-")
    os.environ.setdefault("DATABASE_URL", f"sqlite:///{folder}/moves.sqlite3")
    os.environ.pop("REDIS_URL", None)
    os.environ.update({"DJANGO_SETTINGS_MODULE": "dubium.settings", "MATCH_WAKEUPS": "manual", "LOG_LEVEL": "ERROR"})
    os.environ.update({"DEBUG": "false", "SECURE_SSL_REDIRECT": "false", "DB_CONN_MAX_AGE": "60"})
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True)
    import django

    django.setup()
    from load import LONG_FROM, fast_forward, prepare

    rng = random.Random(3)
    doubt_it = {"max_plays": 5000, "doubt_window_s": 0}
    floor = engine_floor("dudo", 2, {}, args.moves, rng)
    made, spent = play(prepare("dudo", 20, {}, "dudo"), args.moves, rng)
    print(f"Dudo: {made} moves, {1000 * spent / made:.2f} ms CPU a move (engine floor {1000 * floor:.3f} ms)")
    early_made, early = play(prepare("doubt-it", 4, doubt_it, "early"), 40, rng)
    late = fast_forward(prepare("doubt-it", 8, doubt_it, "late"), LONG_FROM)[:4]
    late_made, late_spent = play(late, 40, rng)
    early_ms, late_ms = 1000 * early / early_made, 1000 * late_spent / late_made
    print(
        f"I Doubt It: moves 1-10 {early_ms:.2f} ms, moves {LONG_FROM}-{LONG_FROM + 10} {late_ms:.2f} ms CPU a move "
        f"({late_ms / early_ms:.2f}x)"
    )
    if args.profile:  # more Dudo moves, on the CPU clock, so that waiting for the disk is left out
        tables = prepare("dudo", 20, {}, "profiled")
        profile = cProfile.Profile(time.process_time)
        profile.runcall(play, tables, args.moves, rng)
        pstats.Stats(profile).sort_stats("cumulative").print_stats(45)


if __name__ == "__main__":
    main()
