"""The stall, starvation and flood attacks (issue 32, docs/security.md) from outside, against a running server.

    BOT_WEBHOOK_ALLOW_PRIVATE=true REGISTRATION_RATE=200/hour make run PORT=8182
    .venv/bin/python bench/stall.py --port 8182

    BOT_WEBHOOK_ALLOW_PRIVATE=true REGISTRATION_RATE=200/hour DATABASE_URL=... REDIS_URL=... make stack PORT=8184
    DATABASE_URL=... .venv/bin/python bench/stall.py --port 8184 --beat 5

First what the site does undisturbed, then the same under attack. The attack, through the API as an
attacker would: four webhook bots whose endpoint (a bot server on 127.0.0.1 that sends its status
line, then a header line every 0.2 s for a minute) play matches against house bots (the stall); one
owner's bot that sleeps 0.9 s of every move, asking for 40 matches (the starvation: one owner's bots
play 8 matches with a house bot at once, so it gets the 4 the webhooks left; the refusals, 429, are
counted and printed); and with --flood SECONDS,
one token's requests, 20 at a time from another process and address (the flood). Measured, each
from outside:

- house bot: how long a house bot takes to answer a person's move (it thinks 0.5 to 1.5 x HOUSE_BOT_THINK_MS);
- clock: how long after a 1 s clock runs out the server plays the timeout move (from the start's answer);
- queue: from the second player joining the ranked queue to their match;
- tournament: from a tournament's start time to its round 1 seated (the operator schedules it with
  manage.py shell, in this process's environment: the API has no tournament creation; --beat is how
  often the beat looks for due tournaments, 5 s on the real stack, which is not counted as delay);
- another owner's bot: how long an uploaded bot that answers at once takes to move after the house bot.

Prints each figure undisturbed and under attack, and the delay the attack added (the difference of the
medians, and of the worst). Each run needs fresh names (--tag).
"""

import argparse
import http.client
import json
import multiprocessing
import statistics
import subprocess
import sys
import threading
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.botapi.webhook_server import BotServer  # noqa: E402
from tests.stack.client import answer, call, next_state, register, socket_for, table_with_house_bot  # noqa: E402

SLEEPER = "import time\n\ndef choose(view, legal):\n    time.sleep(0.9)\n    return legal[0]\n"
QUICK = "def choose(view, legal):\n    return legal[0]\n"
CASUAL_AGAINST_HOUSE = {"game": "dudo", "opponents": ["house:random"], "ranked": False}
CUP = """
from datetime import timedelta
from django.contrib.auth import get_user_model
from django.utils import timezone
from tournaments import services
from tournaments.models import Tournament
olga = get_user_model().objects.create_user(username="stall-olga-{tag}", role="organizer")
cup = Tournament.objects.create(name="Stall cup {tag}", game="dudo", organizer=olga,
                                starts_at=timezone.now() + timedelta(seconds=2))
services.enter_house_bot(cup.pk, "random")
services.enter_house_bot(cup.pk, "heuristic")
print(cup.pk)
"""


def attack(port: int, tag: str, server: BotServer) -> None:
    mallory = register(port, f"mallory{tag}")
    for number in range(4):
        name = f"trickle{tag}{number}"
        call(port, "POST", "/api/bots/", {"name": name}, mallory)
        call(port, "POST", f"/api/bots/{name}/webhook/", {"endpoint": server.url}, mallory)
        call(port, "POST", f"/api/bots/{name}/matches/", CASUAL_AGAINST_HOUSE, mallory)
    sleeper = f"sleeper{tag}"
    call(port, "POST", "/api/bots/", {"name": sleeper}, mallory)
    call(port, "POST", f"/api/bots/{sleeper}/code/", {"game": "dudo", "source": SLEEPER}, mallory)
    asked = [answer(port, "POST", f"/api/bots/{sleeper}/matches/", CASUAL_AGAINST_HOUSE, mallory) for _ in range(40)]
    statuses = [status for status, _ in asked]
    print("sleeper's 40 matches: started", statuses.count(201), "refused", statuses.count(429), flush=True)
    deadline = time.monotonic() + 30
    while server.types().count("move") < 4 and time.monotonic() < deadline:
        time.sleep(0.1)
    print("trickling calls out:", len(server.types()) - server.types().count("verify"), flush=True)


def flood(port: int, token: str, seconds: float, at_once: int, counts) -> None:
    """One token's GET /api/matches/?mine=1, `at_once` at a time for `seconds`, from another address
    (127.0.0.2, so the measurements keep their own address's limit); counts served, refused (429), shed
    (503: the process ran late, dubium/lateness.py), failed."""

    def run() -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=("127.0.0.2", 0))
        while time.monotonic() < deadline:
            try:
                connection.request("GET", "/api/matches/?mine=1", headers={"Authorization": f"Token {token}"})
                answer = connection.getresponse()
                answer.read()
                kind = {200: 0, 429: 1, 503: 2}.get(answer.status, 3)
            except OSError:
                kind = 3
                connection.close()
            with counts.get_lock():
                counts[kind] += 1

    deadline = time.monotonic() + seconds
    threads = [threading.Thread(target=run) for _ in range(at_once)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def house_bot_answer(port: int, token: str) -> float:
    """Seconds from a person's move (or the start) to the house bot's answer."""
    match = table_with_house_bot(port, token)
    call(port, "POST", f"/api/matches/{match['id']}/start/", {}, token)
    with socket_for(port, match["id"], token) as ws:
        state = next_state(ws, 0)
        if state["to_act"] == [state["seat"]]:
            ws.send(json.dumps({"type": "action", "action": state["legal"][0], "seq": state["seq"]}))
            state = next_state(ws, state["seq"] + 1)
        asked = time.monotonic()
        next_state(ws, state["seq"] + 1, timeout=60)
        return time.monotonic() - asked


def clock_late(port: int, one: str, other: str) -> float:
    """Seconds past a 1 s clock's end until the server played the timeout move (from the start's answer)."""
    table = {"game": "dudo", "players": 2, "clock": "turn", "clock_initial_ms": 1000}
    match = call(port, "POST", "/api/matches/", table, one)
    call(port, "POST", f"/api/matches/{match['id']}/join/", {}, other)
    with socket_for(port, match["id"], one) as ws:
        next_state(ws, 0)
        call(port, "POST", f"/api/matches/{match['id']}/start/", {}, one)
        started = time.monotonic()
        next_state(ws, 1, timeout=60)
        return time.monotonic() - started - 1.0


def queue_wait(port: int, one: str, other: str) -> float:
    """Seconds from the second player joining the ranked queue to their match."""
    ask = {"game": "dudo", "players": 2, "time_control": "3+2"}
    call(port, "POST", "/api/queue/", ask, one)
    before = {m["id"] for m in call(port, "GET", "/api/matches/?mine=1", None, other)}
    joined = time.monotonic()
    if call(port, "POST", "/api/queue/", ask, other).get("match"):
        return time.monotonic() - joined
    deadline = joined + 60
    while time.monotonic() < deadline:
        if {m["id"] for m in call(port, "GET", "/api/matches/?mine=1", None, other)} - before:
            return time.monotonic() - joined
        time.sleep(0.05)
    raise TimeoutError("not paired in a minute")


def tournament_late(port: int, tag: str, beat: float) -> float:
    """Seconds from the tournament's start time to round 1 seated, less the beat's period."""
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "--no-imports", "-c", CUP.format(tag=tag)],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    cup = int(made.stdout.split()[-1])
    starts_at = iso_seconds(call(port, "GET", f"/api/tournaments/{cup}/")["starts_at"])
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        tables = call(port, "GET", f"/api/tournaments/{cup}/")["tables"]
        if tables and tables[0]["match"]:
            seated = call(port, "GET", f"/api/matches/{tables[0]['match']}/")["started_at"]
            return iso_seconds(seated) - starts_at - beat
        time.sleep(0.1)
    raise TimeoutError("round 1 not seated in a minute")


def iso_seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def quick_bot_replies(port: int, owner: str, name: str, moves: int = 6) -> list[float]:
    """Seconds an uploaded bot that answers at once takes after the house bot moved, seen by a spectator."""
    match = call(port, "POST", f"/api/bots/{name}/matches/", CASUAL_AGAINST_HOUSE, owner)
    seat = next(s["seat"] for s in match["seats"] if s["player"] == name)
    replies = []
    with socket_for(port, match["id"], owner) as ws:
        state = next_state(ws, 0)
        while len(replies) < moves and state.get("status") == "running":
            seen = time.monotonic()
            following = next_state(ws, state["seq"] + 1, timeout=60)
            if state["to_act"] == [seat]:
                replies.append(time.monotonic() - seen)
            state = following
    return replies


def measure(port: int, tag: str, beat: float, rounds: int) -> dict[str, list[float]]:
    person, one, other = (register(port, f"{who}{tag}") for who in ("carol", "dave", "erin"))
    author = register(port, f"author{tag}")
    quick = f"quick{tag}"
    call(port, "POST", "/api/bots/", {"name": quick}, author)
    call(port, "POST", f"/api/bots/{quick}/code/", {"game": "dudo", "source": QUICK}, author)
    found: dict[str, list[float]] = {"house bot": [], "clock": [], "queue": [], "tournament": [], "quick bot": []}
    for number in range(rounds):
        found["house bot"].append(house_bot_answer(port, person))
        found["clock"].append(clock_late(port, one, other))
        found["queue"].append(queue_wait(port, one, other))
        found["tournament"].append(tournament_late(port, f"{tag}r{number}", beat))
    found["quick bot"] = quick_bot_replies(port, author, quick)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--tag", default=str(int(time.time()) % 100000), help="suffix of the accounts' names")
    parser.add_argument("--beat", type=float, default=5.0, help="the beat's period for tournaments, in seconds")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each kind, each way")
    parser.add_argument("--flood", type=float, default=0, help="seconds of one token's flood beside the attack")
    args = parser.parse_args()
    quiet = measure(args.port, f"{args.tag}q", args.beat, args.rounds)
    server = BotServer()
    server.mode = "slow_headers"
    flooding = None
    counts = multiprocessing.Array("i", 4)
    try:
        attack(args.port, args.tag, server)
        if args.flood:
            token = register(args.port, f"flood{args.tag}")
            flooding = multiprocessing.Process(target=flood, args=(args.port, token, args.flood, 20, counts))
            flooding.start()
        attacked = measure(args.port, f"{args.tag}a", args.beat, args.rounds)
    finally:
        server.close()
        if flooding:
            flooding.join()
            print("flood (served, refused with 429, shed with 503, failed):", list(counts))
    print(f"{'':12} {'undisturbed (s)':28} {'under attack (s)':28} delay added: median, worst")
    for kind in quiet:
        calm, hit = quiet[kind], attacked[kind]
        shown = [", ".join(f"{x:.2f}" for x in values) for values in (calm, hit)]
        median = statistics.median(hit) - statistics.median(calm)
        print(f"{kind:12} {shown[0]:28} {shown[1]:28} {median:+.2f}, {max(hit) - max(calm):+.2f}")


if __name__ == "__main__":
    main()
