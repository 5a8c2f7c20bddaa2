"""Time controls in the words players use ("3+2", "1 minute per move", "no clock") and the presets offered.

A clock is stored as a mode ("none", "turn", "game": Match.Clock) and milliseconds; people
read it the way Lichess writes it: minutes of the bank + seconds added per move.
"""

from dataclasses import dataclass


def _amount(seconds: int) -> str:
    if seconds % 60 == 0:
        minutes = seconds // 60
        return f"{minutes} minute{'s' if minutes != 1 else ''}"
    return f"{seconds} second{'s' if seconds != 1 else ''}"


def clock_label(mode: str, initial_ms: int, increment_ms: int) -> str:
    """ "3+2" for a 3-minute bank with 2 seconds a move, "30 seconds per move", "no clock"."""
    if mode == "turn":
        return f"{_amount(initial_ms // 1000)} per move"
    if mode == "game":
        minutes = initial_ms / 60_000
        bank = {0.25: "¼", 0.5: "½", 0.75: "¾"}.get(minutes, f"{minutes:g}")
        return f"{bank}+{increment_ms / 1000:g}"
    return "no clock"


@dataclass(frozen=True)
class TimeControl:
    """A preset a player picks in one click; `ranked` says whether the quick pairing rates it."""

    key: str
    mode: str
    initial_ms: int
    increment_ms: int
    ranked: bool

    @property
    def label(self) -> str:
        return clock_label(self.mode, self.initial_ms, self.increment_ms)

    def as_table(self) -> dict:
        """The clock fields of lifecycle.create_match."""
        return {"clock": self.mode, "clock_initial_ms": self.initial_ms, "clock_increment_ms": self.increment_ms}


PRESETS = {
    preset.key: preset
    for preset in (
        TimeControl("3+2", "game", 180_000, 2_000, ranked=True),
        TimeControl("5+5", "game", 300_000, 5_000, ranked=True),
        TimeControl("10+0", "game", 600_000, 0, ranked=True),
        TimeControl("turn-60", "turn", 60_000, 0, ranked=False),
        TimeControl("none", "none", 0, 0, ranked=False),
    )
}
QUICK_PAIRING = ("3+2", "5+5", "none")  # ranked blitz, ranked rapid, casual without a clock
