"""Farming a ladder's top place with sock puppets, replayed from outside (docs/fair-play.md, "Rings").

    REGISTRATION_RATE=100/hour make run PORT=8180
    .venv/bin/python bench/ring_attack.py http://127.0.0.1:8180 --puppets 14 --games 5

As a tester did after issue 30: fresh accounts register through the API; a winner plays each
puppet the pair limit's 5 ranked Dudo games a day, the puppet bidding once and then resigning.
Prints the time taken, the winner's Dudo rating as `GET /api/ratings/<name>/` gives it (rating,
rated games, provisional, place on the ladder) and the ladder's top three. With --staff NAME:PASSWORD
it also signs in and counts the open fair-play flags naming the winner.
"""

import argparse
import re
import secrets
import time

import requests

GAME = {"game": "dudo", "players": 2, "ranked": True, "clock": "turn", "clock_initial_ms": 30000}


def register(base: str, name: str) -> requests.Session:
    session = requests.Session()
    password = secrets.token_urlsafe(16)
    account = {"username": name, "email": f"{name}@example.com", "password": password}
    answer = session.post(f"{base}/api/accounts/register/", json=account)
    assert answer.status_code in (200, 201), answer.text
    token = session.post(f"{base}/api/accounts/token/", json={"username": name, "password": password}).json()
    session.headers["Authorization"] = f"Token {token['token']}"
    return session


def lost_after_a_bid(base: str, winner: requests.Session, loser: requests.Session) -> None:
    """One ranked game: both bid once (so it is not aborted), then the loser resigns."""
    match = winner.post(f"{base}/api/matches/", json=GAME).json()["id"]
    assert loser.post(f"{base}/api/matches/{match}/join/").status_code == 200
    assert winner.post(f"{base}/api/matches/{match}/start/").status_code == 200
    for seq in range(2):
        mine = next(m for m in winner.get(f"{base}/api/matches/?mine=1").json() if m["id"] == match)
        mover = winner if mine["your_turn"] else loser
        bid = {"action": {"type": "bid", "quantity": seq + 1, "face": 2}, "seq": seq}
        answer = mover.post(f"{base}/api/matches/{match}/actions/", json=bid)
        assert answer.status_code == 200, answer.text
    assert loser.post(f"{base}/api/matches/{match}/leave/").status_code == 200
    for _ in range(200):  # the scoring task runs after the end
        if winner.get(f"{base}/api/matches/{match}/").json()["status"] == "finished":
            return
        time.sleep(0.05)


def open_flags(base: str, staff: str, name: str) -> list[str]:
    """The open fair-play flags on the staff page that name the account, as the page heads them."""
    username, password = staff.split(":", 1)
    session = requests.Session()
    page = session.get(f"{base}/accounts/login/")
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page.text).group(1)
    session.post(
        f"{base}/accounts/login/",
        data={"username": username, "password": password, "csrfmiddlewaretoken": token},
        headers={"Referer": f"{base}/accounts/login/"},
    )
    review = session.get(f"{base}/staff/fair-play/").text
    return re.findall(rf"<h2>{name}[^<]*: ([^<]+)</h2>\s*<p class=\"muted\">([^<]+)</p>", review)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base")
    parser.add_argument("--puppets", type=int, default=14)
    parser.add_argument("--games", type=int, default=5, help="games against each puppet")
    parser.add_argument("--staff", help="NAME:PASSWORD of a staff account, to count the flags")
    args = parser.parse_args()
    tag = secrets.token_hex(3)
    name = f"ringw{tag}"
    winner = register(args.base, name)
    puppets = [register(args.base, f"ring{tag}p{n}") for n in range(args.puppets)]
    started = time.monotonic()
    for puppet in puppets:
        for _ in range(args.games):
            lost_after_a_bid(args.base, winner, puppet)
    elapsed = time.monotonic() - started
    time.sleep(2)  # the last rating and the fair-play review run after the end
    ratings = requests.get(f"{args.base}/api/ratings/{name}/").json()["results"]
    dudo = next((r for r in ratings if r["game"] == "dudo"), None)
    board = requests.get(f"{args.base}/api/leaderboards/dudo/").json()
    top3 = [row["player"] for row in board["results"][:3]]
    games = args.puppets * args.games
    print(f"{args.puppets} puppets x {args.games} games = {games} in {elapsed:.1f} s; winner {name}")
    fields = ("elo", "games", "provisional", "place", "unranked_because")
    print("winner's Dudo rating:", dudo and {key: dudo.get(key) for key in fields})
    print("ladder:", board["count"], "ranked; top 3:", top3, "; winner in top 3:", name in top3)
    if args.staff:
        print("open fair-play flags naming the winner:", open_flags(args.base, args.staff, name) or "none")


if __name__ == "__main__":
    main()
