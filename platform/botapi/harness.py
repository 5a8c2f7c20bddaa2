"""Runs inside the sandbox (standard library only): one request in on stdin, one action out.

The bot's source defines `choose(view, legal)` returning one of the legal actions (or any
action: the server's engine judges it). Whatever the bot prints goes to stderr, so stdout
carries only the answer.
"""

import json
import sys


def main() -> None:
    request = json.loads(sys.stdin.readline())
    answer = sys.stdout
    sys.stdout = sys.stderr
    namespace = {"__name__": "bot"}
    with open("bot.py", encoding="utf-8") as source:
        exec(compile(source.read(), "bot.py", "exec"), namespace)
    choose = namespace.get("choose")
    if not callable(choose):
        raise SystemExit("bot.py must define choose(view, legal)")
    action = choose(request["view"], request["legal"])
    answer.write(json.dumps(action))
    answer.flush()


main()
