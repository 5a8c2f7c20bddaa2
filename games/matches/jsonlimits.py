"""Hostile JSON is refused before it is parsed: too many bytes, or nested too deep.

Python's json module recurses once per level, so a few kilobytes of `[[[[...` raise
RecursionError inside whatever parses them. No Dubium message nests deeper than a handful
of levels; `depth` counts the levels in one pass without parsing, strings skipped.
"""

import json

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

MAX_DEPTH = 16
MAX_REQUEST_BYTES = 262144


class TooLarge(ValueError):
    """The text is longer or deeper than allowed; the message says which, in words."""


def depth(text: str) -> int:
    deepest = level = 0
    in_string = escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            level += 1
            deepest = max(deepest, level)
        elif char in "]}":
            level -= 1
    return deepest


def loads(text: str, max_bytes: int, max_depth: int = MAX_DEPTH):
    """json.loads for text from outside: TooLarge or ValueError instead of a crash."""
    if len(text) > max_bytes:
        raise TooLarge(f"Send at most {max_bytes} bytes.")
    if depth(text) > max_depth:
        raise TooLarge(f"Nest at most {max_depth} levels of arrays and objects.")
    return json.loads(text)


class BoundedJSONParser(JSONParser):
    """REST_FRAMEWORK's JSON parser, with the same limits as the websockets (a 400, never a 500)."""

    def parse(self, stream, media_type=None, parser_context=None):
        encoding = (parser_context or {}).get("encoding", "utf-8")
        raw = stream.read(MAX_REQUEST_BYTES + 1) if stream is not None else b""
        try:
            return loads(raw.decode(encoding), MAX_REQUEST_BYTES)
        except ValueError as error:
            raise ParseError(f"JSON parse error: {error}") from None
