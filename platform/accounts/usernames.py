"""The one form a username is compared in: at sign-up, at sign-in and in the login lockouts.

Usernames are stored as typed (3 to 30 of A-Z, a-z, 0-9, _ and -), but people and programs may
type them otherwise, and databases compare text in their own ways: PostgreSQL's case-insensitive
match takes a dotless `ı` for `i`, so `alıce` signed in as alice while the lockout counted it as
another account. Every comparison now goes through `username_key`: Unicode NFKC (full-width and
styled letters become plain ones), case folding, marks on letters dropped (`İ` folds to `i` and a
dot), then the characters that pass for one another folded together: `I`, `l`, `1` and `i`;
`O` and `0`; `rn` and `m`; `vv` and `w`; and the Cyrillic, Greek and Latin letters that look like
Latin ones. Two names with one key are one
person's as far as the site is concerned: the second may not sign up, and both count against
one lockout.
"""

import unicodedata

# After NFKC and case folding: each character that passes for another, and what it passes for.
LOOKALIKES = str.maketrans(
    {
        "i": "l", "1": "l", "ı": "l", "ɩ": "l", "і": "l", "ӏ": "l", "ι": "l", "|": "l",
        "0": "o", "о": "o", "ο": "o",
        "а": "a", "α": "a", "е": "e", "р": "p", "ρ": "p", "с": "c", "у": "y", "х": "x", "χ": "x",
        "ѕ": "s", "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "к": "k", "κ": "k",
        "ν": "v", "υ": "u", "ɡ": "g",
    }
)  # fmt: skip
# Pairs of letters that read as one.
SEQUENCES = (("rn", "m"), ("vv", "w"))


def username_key(name: str) -> str:
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name.strip()).casefold())
    folded = "".join(char for char in folded if not unicodedata.combining(char)).translate(LOOKALIKES)
    for pair, letter in SEQUENCES:
        folded = folded.replace(pair, letter)
    return folded
