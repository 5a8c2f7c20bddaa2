"""The stall attack (issue 32, docs/security.md) from outside, against a running server.

    BOT_WEBHOOK_ALLOW_PRIVATE=true REGISTRATION_RATE=100/hour make run PORT=8100
    .venv/bin/python bench/stall.py --port 8100

Through the API, as an attacker would: four webhook bots whose endpoint (a bot server on
127.0.0.1 that sends its status line, then a header line every 0.2 s for a minute) plays matches
against house bots, and a bot that sleeps 0.9 s of every move in 40 matches. Then a person plays
tables against a house bot and the script prints how long the house bot took to answer each
move (its thinking time is 0.5 to 1.5 x HOUSE_BOT_THINK_MS). Each run needs fresh names (--tag).
"""

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.botapi.webhook_server import BotServer  # noqa: E402
from tests.stack.client import call, next_state, register, socket_for, table_with_house_bot  # noqa: E402

SLEEPER = "import time\n\ndef choose(view, legal):\n    time.sleep(0.9)\n    return legal[0]\n"


def attack(port: int, tag: str, server: BotServer) -> None:
    mallory = register(port, f"mallory{tag}")
    for number in range(4):
        name = f"trickle{tag}{number}"
        call(port, "POST", "/api/bots/", {"name": name}, mallory)
        call(port, "POST", f"/api/bots/{name}/webhook/", {"endpoint": server.url}, mallory)
        call(port, "POST", f"/api/bots/{name}/matches/", {"game": "dudo", "opponents": ["house:random"]}, mallory)
    sleeper = f"sleeper{tag}"
    call(port, "POST", "/api/bots/", {"name": sleeper}, mallory)
    call(port, "POST", f"/api/bots/{sleeper}/code/", {"game": "dudo", "source": SLEEPER}, mallory)
    for _ in range(40):
        call(port, "POST", f"/api/bots/{sleeper}/matches/", {"game": "dudo", "opponents": ["house:random"]}, mallory)
    deadline = time.monotonic() + 30
    while server.types().count("move") < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    print("trickling calls sent:", len(server.types()) - server.types().count("verify"), flush=True)


def house_bot_answer(port: int, token: str) -> float | None:
    """Seconds from a person's move (or the start) to the house bot's answer; None after a minute."""
    match = table_with_house_bot(port, token)
    call(port, "POST", f"/api/matches/{match['id']}/start/", {}, token)
    with socket_for(port, match["id"], token) as ws:
        state = next_state(ws, 0)
        if state["to_act"] == [state["seat"]]:
            ws.send(json.dumps({"type": "action", "action": state["legal"][0], "seq": state["seq"]}))
            state = next_state(ws, state["seq"] + 1)
        asked = time.monotonic()
        try:
            next_state(ws, state["seq"] + 1, timeout=60)
        except TimeoutError:
            return None
        return time.monotonic() - asked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--tag", default=str(int(time.time()) % 100000), help="suffix of the accounts' names")
    args = parser.parse_args()
    server = BotServer()
    server.mode = "slow_headers"
    try:
        attack(args.port, args.tag, server)
        person = register(args.port, f"carol{args.tag}")
        answers = [house_bot_answer(args.port, person) for _ in range(3)]
        print("house bot answered after:", ", ".join("over 60 s" if a is None else f"{a:.2f} s" for a in answers))
    finally:
        server.close()


if __name__ == "__main__":
    main()
