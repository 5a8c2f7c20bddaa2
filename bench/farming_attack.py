"""Issue 30's farming run, replayed from outside against a running site (docs/security.md, "Fair play").

    .venv/bin/python bench/farming_attack.py http://127.0.0.1:8400 at-once|after-a-bid

Two fresh accounts register through the API and play 20 ranked Dudo games, the loser resigning at
once, or once both have bid. Prints the time taken, the winner's Dudo rating, rated games, whether
it is provisional, its ladder place, and the ladder's top three.
"""

import secrets
import sys
import time

import requests

BASE = sys.argv[1]
MODE = sys.argv[2]  # "at-once" or "after-a-bid"


def register(name):
    s = requests.Session()
    pw = secrets.token_urlsafe(16)
    r = s.post(
        f"{BASE}/api/accounts/register/", json={"username": name, "email": f"{name}@example.com", "password": pw}
    )
    assert r.status_code in (200, 201), r.text
    tok = s.post(f"{BASE}/api/accounts/token/", json={"username": name, "password": pw}).json()["token"]
    s.headers["Authorization"] = f"Token {tok}"
    return s


tag = secrets.token_hex(3)
win, lose = register(f"farmw{tag}"), register(f"farml{tag}")
wname, lname = f"farmw{tag}", f"farml{tag}"
t0 = time.monotonic()
for _ in range(20):
    t = win.post(
        f"{BASE}/api/matches/",
        json={"game": "dudo", "players": 2, "ranked": True, "clock": "turn", "clock_initial_ms": 30000},
    ).json()
    mid = t["id"]
    assert lose.post(f"{BASE}/api/matches/{mid}/join/").status_code == 200
    assert win.post(f"{BASE}/api/matches/{mid}/start/").status_code == 200
    moved = set()
    seq = 0
    while MODE == "after-a-bid" and len(moved) < 2 or MODE == "at-once" and len(moved) < 1:
        mine = next(x for x in win.get(f"{BASE}/api/matches/?mine=1").json() if x["id"] == mid)
        who, sess = (wname, win) if mine["your_turn"] else (lname, lose)
        if MODE == "at-once" and who == lname:
            break
        r = sess.post(
            f"{BASE}/api/matches/{mid}/actions/",
            json={"action": {"type": "bid", "quantity": seq + 1, "face": 2}, "seq": seq},
        )
        assert r.status_code == 200, r.text
        seq += 1
        moved.add(who)
    assert lose.post(f"{BASE}/api/matches/{mid}/leave/").status_code == 200
    for _ in range(100):  # the scoring task runs after the end
        d = win.get(f"{BASE}/api/matches/{mid}/").json()
        if d["status"] == "finished":
            break
        time.sleep(0.05)
elapsed = time.monotonic() - t0
time.sleep(1)
r = requests.get(f"{BASE}/api/ratings/{wname}/").json()["results"]
dudo = next((x for x in r if x["game"] == "dudo"), None)
board = requests.get(f"{BASE}/api/leaderboards/dudo/").json()
top3 = [x["player"] for x in board["results"][:3]]
print(f"mode={MODE} games=20 elapsed={elapsed:.1f}s winner={wname}")
print("winner dudo rating:", None if dudo is None else {k: dudo[k] for k in ("elo", "games", "provisional", "place")})
print("ladder count:", board["count"], "top3:", top3, "winner in top3:", wname in top3)
