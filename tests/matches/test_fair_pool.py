"""The bot threads' turns between owners (games/matches/asking.FairPool), without bots or a site:
one owner's calls that think until released hold at most their share, and another owner's
calls are answered meanwhile (issue 32's starvation: 2 moves in 30 s instead of 20 in 10 s)."""

import threading
import time

from games.matches.asking import FairPool


def test_one_owner_s_thinking_calls_hold_their_share_and_another_owner_is_served_meanwhile():
    pool, released, answered = FairPool(threads=3, per_party=2), threading.Event(), []
    running = {"mallory": 0, "most": 0}
    lock = threading.Lock()

    def think(number):
        with lock:
            running["mallory"] += 1
            running["most"] = max(running["most"], running["mallory"])
        released.wait(30)
        with lock:
            running["mallory"] -= 1

    for number in range(40):
        assert pool.submit("mallory", think, number)
    for number in range(10):
        pool.submit("alice", answered.append, number)
    deadline = time.monotonic() + 30
    while len(answered) < 10:  # a condition, not a timing: mallory's calls think until released
        assert time.monotonic() < deadline, f"alice was answered {len(answered)} times"
        time.sleep(0.01)
    assert not released.is_set() and running["most"] == 2
    assert sorted(answered) == list(range(10))
    released.set()


def test_the_same_call_asked_again_while_it_waits_runs_once():
    pool, released = FairPool(threads=1, per_party=1), threading.Event()
    assert pool.submit("bob", released.wait, 5)
    assert not pool.submit("bob", released.wait, 5)
    released.set()
