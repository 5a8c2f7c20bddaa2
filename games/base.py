"""The contract every rule engine implements (see docs/engine.md).

Engines are pure Python: no Django, no clock, no I/O. Chance comes only from the
`random.Random` that `new_game` seeds and keeps inside the state, so a match
replays exactly from its seed and action log.
"""

from __future__ import annotations

import base64
import copy
import random
import struct
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Action = dict[str, Any]

# The match service stores and loads a state whose history holds only its last KEPT_HISTORY
# entries (the whole history lives in the action log), so a move costs the same at move 300 as
# at move 3. An engine's `apply` and `still_current` may therefore read no further back than
# that, and change no entry written by an earlier action (docs/engine.md, "History").
KEPT_HISTORY = 32


class IllegalAction(Exception):
    """An action the rules refuse; the message is shown to the player as it is."""


@dataclass(frozen=True)
class Option:
    """One table option: its default, the values allowed, a short label and a line of help.

    `label` is what a player reads next to the field ("Ones wild in one-die rounds"); each
    value of `choices` may have a label in `choice_labels` (same order), else it shows as is.
    """

    default: Any
    help: str
    choices: tuple[Any, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    label: str = field(default="", kw_only=True)
    choice_labels: tuple[str, ...] = field(default=(), kw_only=True)
    # False for an option the server sets itself (the seat that won a series' last mini-game):
    # forms never show it, and its default holds unless a tournament sets it.
    players_choose: bool = field(default=True, kw_only=True)
    # When the option matters, from the table size and the options: a table's header names only
    # those (Dudab Buba's 4-player columns at 4 players). None: always.
    matters: Callable[[int, dict], bool] | None = field(default=None, kw_only=True)

    def __post_init__(self):
        if not self.label:
            raise ValueError("Every option needs a label a player can read.")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError("choice_labels needs one label per choice.")

    def matters_at(self, players: int, options: dict) -> bool:
        return self.matters is None or self.matters(players, options)

    def named_choices(self) -> list[tuple[Any, str]]:
        """Each allowed value with the words a player reads for it."""
        labels = self.choice_labels or tuple(str(choice) for choice in self.choices)
        return list(zip(self.choices, labels, strict=True))

    def describe_value(self, value: Any) -> str:
        """A chosen value in words: the choice's label, "yes"/"no", or the number."""
        if self.choices:
            return dict(self.named_choices()).get(value, str(value))
        if isinstance(self.default, bool):
            return "yes" if value else "no"
        return str(value)

    def clean(self, name: str, value: Any) -> Any:
        if self.choices and value not in self.choices:
            raise IllegalAction(f"Option {name} must be one of {list(self.choices)}.")
        if isinstance(self.default, bool):
            if not isinstance(value, bool):
                raise IllegalAction(f"Option {name} must be true or false.")
        elif isinstance(self.default, int):
            if isinstance(value, bool) or not isinstance(value, int):
                raise IllegalAction(f"Option {name} must be a whole number.")
            if self.minimum is not None and value < self.minimum:
                raise IllegalAction(f"Option {name} must be at least {self.minimum}.")
            if self.maximum is not None and value > self.maximum:
                raise IllegalAction(f"Option {name} must be at most {self.maximum}.")
        return value


@dataclass
class Game:
    """Fixed facts about a game plus the functions that play it.

    Subclasses implement the methods that raise NotImplementedError. `apply`
    validates the whole action before it changes anything, then changes the
    state in place and returns it: after an IllegalAction the state is exactly
    as it was. Callers that need the old state keep `clone(state)`.
    """

    slug: str
    name: str
    min_players: int
    max_players: int
    realtime: bool = False
    # Does a seat hold something the others may not see (cards, dice)? Then the seed and the raw
    # action log of a match would show every hand, and only the site's staff get them.
    hidden_information: bool = True
    options: dict[str, Option] = field(default_factory=dict)
    # Every key any of this game's actions may carry: the match service refuses others.
    action_keys: frozenset[str] = frozenset({"type"})

    @property
    def smallest_table(self) -> int:
        """The fewest seats of a table among players: Dubito's one-player game is a solitaire,
        never a match between people."""
        return max(2, self.min_players)

    def describe(self) -> dict:
        """JSON-safe metadata for the lobby, the API and docs."""
        return {
            "slug": self.slug,
            "name": self.name,
            "min_players": self.min_players,
            "max_players": self.max_players,
            "realtime": self.realtime,
            "options": {
                name: {
                    "label": opt.label,
                    "default": opt.default,
                    "help": opt.help,
                    "choices": list(opt.choices),
                    "minimum": opt.minimum,
                    "maximum": opt.maximum,
                }
                for name, opt in self.options.items()
            },
        }

    def clean_options(self, players: int, options: dict | None) -> dict:
        """Defaults filled in, unknown names and bad values refused."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise IllegalAction("The number of players must be a whole number.")
        if not self.min_players <= players <= self.max_players:
            raise IllegalAction(f"{self.name} takes {self.min_players} to {self.max_players} players, not {players}.")
        options = dict(options or {})
        unknown = sorted(set(options) - set(self.options))
        if unknown:
            raise IllegalAction(f"{self.name} has no option {', '.join(unknown)}.")
        return {name: opt.clean(name, options.get(name, opt.default)) for name, opt in self.options.items()}

    # The game's functions --------------------------------------------------

    def new_game(self, players: int, seed: int, options: dict | None = None) -> Any:
        raise NotImplementedError

    def to_act(self, state: Any) -> list[int]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        raise NotImplementedError

    def check(self, state: Any, seat: int, action: Action) -> Any:
        """Raise IllegalAction when `apply` would refuse the action; never changes the state.

        The default tries the action on a copy. Engines override it with a cheaper check
        and may return what they found, for `apply` to reuse.
        """
        self.apply(self.clone(state), seat, action)

    def is_legal(self, state: Any, seat: int, action: Action) -> bool:
        """True when `apply` would accept the action; never changes the state."""
        try:
            self.check(state, seat, action)
        except IllegalAction:
            return False
        return True

    def apply(self, state: Any, seat: int, action: Action) -> Any:
        raise NotImplementedError

    def view(self, state: Any, seat: int | None) -> dict:
        raise NotImplementedError

    def is_over(self, state: Any) -> bool:
        raise NotImplementedError

    def result(self, state: Any) -> dict:
        raise NotImplementedError

    def default_action(self, state: Any, seat: int) -> Action | None:
        """What the server plays for a seat whose clock ran out; None forfeits it."""
        raise NotImplementedError

    def answer_window_ms(self, state: Any) -> int | None:
        """How long the seats answering one event at once (a doubt window) may take, whatever
        the table's clock; None when only the clock limits them. The server plays the default
        action for a seat still silent at the end."""
        return None

    def countdown_view(self, view: dict) -> dict:
        """What a view shows during a real-time game's get-ready countdown, before "go": the
        server sends this instead of `view(...)` until then, so nobody may study the cards before
        the race starts. Turn-based games have no countdown: the view itself."""
        return view

    def still_current(self, state: Any, moves_since: int) -> bool:
        """May an action chosen `moves_since` actions ago still be played? In a turn-based game
        every action changes what the next one is about, so never; a real-time game answers
        whether what the action was about is unchanged."""
        return False

    def dump(self, state: Any) -> dict:
        raise NotImplementedError

    def load(self, data: dict) -> Any:
        raise NotImplementedError

    def clone(self, state: Any) -> Any:
        return copy.deepcopy(state)


def new_rng(seed: int) -> random.Random:
    return random.Random(seed)


def rng_dump(rng: random.Random) -> list:
    """The generator's state as JSON: version, its 625 words packed as base64 (about 3.3 KB
    instead of 7.3 KB as a list of ints; every match stores one), gauss cache. A generator
    loaded and not drawn from since is written back as it was read (once packed)."""
    if isinstance(rng, StoredRandom) and rng.stored is not None and isinstance(rng.stored[1], str):
        return rng.stored
    version, internal, gauss = rng.getstate()
    packed = struct.pack(f"<{len(internal)}I", *internal)  # 32-bit words, little-endian everywhere
    return [version, base64.b64encode(packed).decode("ascii"), gauss]


def rng_load(data: list) -> random.Random:
    """Reads both forms rng_dump has written: packed words, or (older matches) a list of ints."""
    return StoredRandom(data)


class StoredRandom(random.Random):
    """A generator read from a snapshot, unpacked when first drawn from. Most moves draw nothing
    (a bid, a doubt), and unpacking its 625 words and packing them again was most of what loading
    and dumping a state cost. Every draw goes through `random` or `getrandbits`, so it draws
    exactly what `random.Random` in the same state draws."""

    def __init__(self, stored: list | None = None):
        if stored is None:
            super().__init__(0)
        else:  # not seeded: the stored state replaces the generator's before anything reads it
            self.gauss_next = stored[2]  # `gauss` reads it before drawing
        self.stored = stored

    def unpack(self) -> None:
        if self.stored is not None:
            data, self.stored = self.stored, None
            words = data[1]
            if isinstance(words, str):
                packed = base64.b64decode(words)
                words = struct.unpack(f"<{len(packed) // 4}I", packed)
            super().setstate((data[0], tuple(words), data[2]))

    def random(self) -> float:
        self.unpack()
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.unpack()
        return super().getrandbits(k)

    def getstate(self):
        self.unpack()
        return super().getstate()

    def setstate(self, state) -> None:
        self.stored = None
        super().setstate(state)

    def seed(self, *args, **kwargs) -> None:
        self.stored = None
        super().seed(*args, **kwargs)


def require(condition: bool, message: str) -> None:
    """Refuse an action with a message a player understands."""
    if not condition:
        raise IllegalAction(message)


def action_type(action: Any, allowed: tuple[str, ...]) -> str:
    """The action's "type" after checking the action is a JSON object with a known type."""
    if not isinstance(action, dict):
        raise IllegalAction('An action must be a JSON object with a "type".')
    kind = action.get("type")
    if kind not in allowed:
        raise IllegalAction(f"Unknown action type {kind!r}; expected one of {', '.join(allowed)}.")
    return kind


def check_seat(seat: Any, players: int) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
        raise IllegalAction(f"There is no seat {seat!r} at this table.")
