"""Dobble: claim the picture your card shares with the card you race for (answer fast: the
server stamps your claim when it arrives)."""


def choose(view, legal):
    mine = next(seat["top"] for seat in view["seats"] if seat["seat"] == view["seat"])
    cards = {"pile": view["pile"]["top"], "middle": view["middle"]["top"]}
    cards.update({seat["seat"]: seat["top"] for seat in view["seats"]})
    for action in legal:
        target = cards.get(action["target"])
        if target and mine and action["symbol"] in target["symbols"] and action["symbol"] in mine["symbols"]:
            return action
    return legal[0]


def choose_mini_game(choices):
    """In a Dobble series, the loser of a mini-game names the next one: this bot races best for
    the pile."""
    return "towering-inferno" if "towering-inferno" in choices else choices[0]
