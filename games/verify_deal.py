"""Checks that a Dubium match was dealt fairly, with nothing but Python and the rule engines.

When a match starts the site publishes a commitment: the SHA-256 of its seed and a secret
salt. The seed decides every card dealt and every die rolled; the salt keeps anyone from
trying seeds against the commitment while the game runs. At the end both are revealed, and
this file checks, from the match's record (`/api/matches/<id>/replay/`):

1. the seed and salt hash to the commitment (the seed was fixed before the first move);
2. replaying seed + options + action log gives, action after action, exactly the history
   entries the players were shown (every chance event: dice at a doubt, cards drawn);
3. the replay reaches the recorded result.

Run it from a checkout (`python games/verify_deal.py record.json`) or as the single file the
site serves (`python dubium-verifier.pyz record.json`): docs/fair-play.md.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

if not __package__:  # run as a file: the engines are the package this file sits in
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine import IllegalAction, get_game  # noqa: E402

COMMITMENT_FORMAT = "dubium-deal-1"


def commitment(seed: int, salt: str) -> str:
    """What a match publishes when it starts: SHA-256 of "dubium-deal-1:<seed>:<salt>", in hex."""
    return hashlib.sha256(f"{COMMITMENT_FORMAT}:{seed}:{salt}".encode()).hexdigest()


@dataclass
class Verdict:
    commitment_ok: bool | None = None  # None: the record has no commitment (a match from before them)
    events_ok: bool | None = None  # None: the record carries no recorded events to compare
    result_ok: bool = False
    problems: list[str] = field(default_factory=list)
    result: dict = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.commitment_ok is not False and self.events_ok is not False and self.result_ok


def result_agrees(game, state, recorded: dict | None) -> tuple[bool, dict]:
    """Does the replayed end reach the recorded ranking? A forfeit ends a match the engine would
    have gone on with: then the log replaying at all is the check."""
    recorded = recorded or {}
    if recorded.get("forfeited"):
        return True, {"note": "a seat forfeited: the log replays, the ranking comes from the forfeit"}
    if not game.is_over(state):
        return False, {"error": "the log does not reach the end of the game"}
    result = game.result(state)
    if recorded.get("idle") or recorded.get("absent"):
        # The match ranks seats whose player never came or never moved after those who played, or
        # ties them where nobody did (the clock's moves win nothing): the same seats, in its order.
        same_seats = sorted(sum(result["ranking"], [])) == sorted(sum(recorded.get("ranking", []), []))
        return same_seats, {**result, "note": "seats that never came or never moved are ranked by that rule"}
    return result["ranking"] == recorded.get("ranking"), result


def verify(record: dict) -> Verdict:
    """Check one match record (the replay export) on all three counts."""
    verdict = Verdict()
    if record.get("commitment"):
        verdict.commitment_ok = commitment(record["seed"], record.get("salt", "")) == record["commitment"]
        if not verdict.commitment_ok:
            verdict.problems.append("the seed and salt do not hash to the commitment published at the start")
    game = get_game(record["game"])
    try:
        state = game.new_game(record["players"], record["seed"], record["options"])
        recorded_events = all("events" in action for action in record["actions"])
        verdict.events_ok = True if recorded_events else None
        for action in record["actions"]:
            before = len(state.history)
            state = game.apply(state, action["seat"], action["action"])
            if recorded_events and as_json(state.history[before:]) != action["events"]:
                verdict.events_ok = False
                verdict.problems.append(f"move {action['seq']}: the seed gives other events than the table showed")
    except IllegalAction as error:
        verdict.problems.append(f"the log does not replay: {error}")
        return verdict
    verdict.result_ok, verdict.result = result_agrees(game, state, record.get("result"))
    if not verdict.result_ok:
        verdict.problems.append("the replay does not reach the recorded result")
    return verdict


def as_json(value):
    """The value as a JSON record holds it (tuples read back as lists)."""
    return json.loads(json.dumps(value))


def report(record: dict, verdict: Verdict) -> str:
    """The verdict in words, one line a check."""
    name = f"{record['game']} match {record.get('match')}"
    lines = [f"{name}: {'FAIR' if verdict.ok else 'NOT VERIFIED'}"]
    lines.append(
        {True: "  commitment: the seed and salt hash to it", False: "  commitment: DOES NOT MATCH",
         None: "  commitment: none was published (an older match)"}[verdict.commitment_ok]
    )  # fmt: skip
    lines.append(
        {True: "  chance events: every one follows from the seed", False: "  chance events: SOME DIFFER",
         None: "  chance events: the record does not list them"}[verdict.events_ok]
    )  # fmt: skip
    lines.append(f"  result: {'the replay reaches it' if verdict.result_ok else 'NOT REACHED'}")
    lines += [f"  - {problem}" for problem in verdict.problems]
    return "\n".join(lines)


def main(paths: list[str]) -> int:
    if not paths:
        print("usage: python verify_deal.py RECORD.json [...]  (records from /api/matches/<id>/replay/)")
        return 2
    failures = 0
    for path in paths:
        record = json.loads(Path(path).read_text())
        verdict = verify(record)
        failures += not verdict.ok
        print(report(record, verdict))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
