"""Runs inside the sandbox (standard library only): one request in on stdin, one action out.

The bot's source defines `choose(view, legal)` returning one of the legal actions (or any
action: the server's engine judges it). Whatever the bot prints goes to stderr, so stdout
carries only the answer. A crash answers {"traceback": ...} instead, with the frames of
bot.py only (file, line and code), and exits with status 1: its author needs where it broke,
not our harness.
"""

import json
import sys
import traceback


def main(answer) -> None:
    request = json.loads(sys.stdin.readline())
    namespace = {"__name__": "bot"}
    with open("bot.py", encoding="utf-8") as source:
        exec(compile(source.read(), "bot.py", "exec"), namespace)
    choose = namespace.get("choose")
    if not callable(choose):
        raise SystemExit("bot.py must define choose(view, legal)")
    action = choose(request["view"], request["legal"])
    answer.write(json.dumps(action))
    answer.flush()


def bot_traceback(error: BaseException) -> str:
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename == "bot.py"]
    lines = traceback.format_list(frames) + traceback.format_exception_only(type(error), error)
    return "Traceback (most recent call last):\n" + "".join(lines)


answer, sys.stdout = sys.stdout, sys.stderr
try:
    main(answer)
except SystemExit:
    raise
except BaseException as error:
    answer.write(json.dumps({"traceback": bot_traceback(error)}))
    answer.flush()
    sys.exit(1)
