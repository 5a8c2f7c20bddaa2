"""Helpers for the Dobble tests: claims built from what a seat sees (the rules restated, not imported)."""

from games.dobble.rules import GAME


def claim(symbol, target, at_ms=0):
    return {"type": "claim", "symbol": symbol, "target": target, "at_ms": at_ms}


def shared(first: dict, second: dict) -> int:
    (symbol,) = set(first["symbols"]) & set(second["symbols"])
    return symbol


def compared_cards(view: dict, seat: int, target) -> tuple[dict, dict]:
    """The two face-up cards a claim by `seat` on `target` is about, by the rules page."""
    seats = view["seats"]
    if view["phase"] == "tiebreak" or view["mini_game"] == "hot-potato":
        return seats[seat]["top"], seats[target]["top"]
    if view["mini_game"] == "towering-inferno":
        return seats[seat]["top"], view["pile"]["top"]
    if view["mini_game"] == "the-well":
        return seats[seat]["top"], view["middle"]["top"]
    if view["mini_game"] == "poisoned-gift":
        return view["pile"]["top"], seats[target]["top"]
    return view["middle"]["top"], view["revealed"][target]


def right_claim(state, seat: int, target, at_ms=0) -> dict:
    return claim(shared(*compared_cards(GAME.view(state, seat), seat, target)), target, at_ms)


def wrong_claim(state, seat: int, target, at_ms=0) -> dict:
    first, second = compared_cards(GAME.view(state, seat), seat, target)
    right = shared(first, second)
    return claim(next(symbol for symbol in first["symbols"] if symbol != right), target, at_ms)


def play_right(state, seat: int, target, at_ms=0):
    return GAME.apply(state, seat, right_claim(state, seat, target, at_ms))


def all_cards(state) -> list[int]:
    """Every card of the dumped state, whatever its zone."""
    data = GAME.dump(state)
    cards = data["pile"] + data["middle"] + [card for card in data["revealed"] if card is not None]
    for zone in data["stacks"] + data["gained"]:
        cards += zone
    return sorted(cards)


def face_up_cards(state) -> set[int]:
    """The cards anyone may see now, from the dumped state: tops of stacks, the middle, the revealed cards."""
    data = GAME.dump(state)
    visible = {stack[-1] for stack in data["stacks"] if stack}
    visible |= {card for card in data["revealed"] if card is not None}
    if data["middle"]:
        visible.add(data["middle"][-1])
    if (
        data["phase"] == "play"
        and data["mini_game"] in ("towering-inferno", "poisoned-gift")
        and data["pile"]
    ):
        visible.add(data["pile"][-1])
    return visible


def cards_in(value) -> set[int]:
    """Every card id a view shows (cards appear as {"card": id, "symbols": [...]})."""
    found = set()
    if isinstance(value, dict):
        if "card" in value and "symbols" in value:
            found.add(value["card"])
        for inner in value.values():
            found |= cards_in(inner)
    elif isinstance(value, list):
        for inner in value:
            found |= cards_in(inner)
    return found
