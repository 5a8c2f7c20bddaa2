"""The API limits tried from outside (docs/security.md, "API limits"), against a running server.

    python bench/api_limits.py flood --base http://127.0.0.1:8200 --token KEY
        1,000 GET /api/matches/?mine=1 from one token, 20 at a time: how many were served and
        refused (and the Retry-After given), and /healthz's median time before and during it.
    python bench/api_limits.py bot --base http://127.0.0.1:8200 --token KEY
        a fast HTTP bot plays Dobble against a house bot at the reference pace (it polls
        `?mine=1` every 200 ms and claims each new card 100 ms after it saw it): its statuses,
        and its busiest second.

Standard library only, so it runs from any Python.
"""

import argparse
import collections
import json
import statistics
import threading
import time
import urllib.error
import urllib.request


def call(base: str, method: str, path: str, token: str | None = None, body: dict | None = None):
    """(status, headers, JSON answer or None)."""
    request = urllib.request.Request(
        base + path,
        method=method,
        data=None if body is None else json.dumps(body).encode(),
        headers={"Content-Type": "application/json", **({"Authorization": f"Token {token}"} if token else {})},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, response.headers, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, error.headers, None


def healthz_ms(base: str, count: int) -> float:
    times = []
    for _ in range(count):
        started = time.perf_counter()
        try:
            urllib.request.urlopen(base + "/healthz", timeout=30).read()
        except urllib.error.HTTPError:
            pass  # an unhealthy answer (503) is timed too
        times.append((time.perf_counter() - started) * 1000)
        time.sleep(0.05)
    return statistics.median(times)


def flood(base: str, token: str, total: int, at_once: int) -> None:
    quiet = healthz_ms(base, 20)
    statuses, waits, lock = collections.Counter(), collections.Counter(), threading.Lock()
    left = iter(range(total))

    def worker():
        for _ in left:
            status, headers, _ = call(base, "GET", "/api/matches/?mine=1", token)
            with lock:
                statuses[status] += 1
                if status == 429:
                    waits[headers.get("Retry-After")] += 1

    started = time.perf_counter()
    threads = [threading.Thread(target=worker) for _ in range(at_once)]
    for thread in threads:
        thread.start()
    during = healthz_ms(base, 20)
    for thread in threads:
        thread.join()
    seconds = time.perf_counter() - started
    print(f"{total} requests in {seconds:.1f} s: {dict(statuses)}; Retry-After given: {dict(waits)}")
    print(f"/healthz median: {quiet:.1f} ms quiet, {during:.1f} ms during the flood")


def right_claim(view: dict) -> dict:
    """Towering inferno: the symbol on both the bot's top card and the pile's."""
    mine = set(view["seats"][view["seat"]]["top"]["symbols"])
    (symbol,) = mine & set(view["pile"]["top"]["symbols"])
    return {"type": "claim", "symbol": symbol, "target": "pile", "at_ms": view["now_ms"]}


def bot(base: str, token: str) -> None:
    _, _, table = call(base, "POST", "/api/matches/", token, {"game": "dobble", "players": 2})
    call(base, "POST", f"/api/matches/{table['id']}/bots/", token, {"bot": "heuristic"})
    call(base, "POST", f"/api/matches/{table['id']}/start/", token, {})
    statuses, per_second, claims = collections.Counter(), collections.Counter(), 0
    started, next_poll = time.monotonic(), 0.0

    def counted(status, headers, answer):
        statuses[status] += 1
        per_second[int(time.monotonic() - started)] += 1
        return status, answer

    while True:
        if time.monotonic() - started >= next_poll:
            next_poll += 0.2
            _, mine = counted(*call(base, "GET", "/api/matches/?mine=1", token))
            if not mine:
                break
        time.sleep(0.1)
        status, match = counted(*call(base, "GET", f"/api/matches/{table['id']}/", token))
        if status != 200 or match["status"] != "running" or not match["state"]["legal"]:
            continue
        state = match["state"]
        status, _ = counted(
            *call(
                base, "POST", f"/api/matches/{table['id']}/actions/", token,
                {"action": right_claim(state["view"]), "seq": state["seq"]},
            )
        )  # fmt: skip
        claims += status == 200
    _, _, final = call(base, "GET", f"/api/matches/{table['id']}/", token)
    print(f"match {table['id']}: {claims} claims in {time.monotonic() - started:.1f} s, result {final['result']}")
    print(f"statuses {dict(statuses)}; busiest second {max(per_second.values())} requests")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["flood", "bot"])
    parser.add_argument("--base", default="http://127.0.0.1:8000")
    parser.add_argument("--token", required=True)
    parser.add_argument("--requests", type=int, default=1000)
    parser.add_argument("--at-once", type=int, default=20)
    options = parser.parse_args()
    if options.what == "flood":
        flood(options.base, options.token, options.requests, options.at_once)
    else:
        bot(options.base, options.token)


if __name__ == "__main__":
    main()
