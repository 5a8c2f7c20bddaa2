"""Dubito: play the first card the rules allow (docs/protocol/dubito.md lists every action)."""


def choose(view, legal):
    plays = [action for action in legal if action["type"] == "play"]
    return plays[0] if plays else legal[0]
