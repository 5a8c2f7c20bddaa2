"""The `<id:...>` URL converter: a row id, a number that fits the id columns (64-bit signed).

Django's `<int:...>` takes any number of digits, and a number past 2**63 - 1 reached the
database: SQLite raised OverflowError (a 500) where no row can have that id. Such a number
matches no URL at all, so it is the same 404 as any other missing row (a websocket handshake
to it is refused like any unknown path).
"""

LARGEST_ID = 2**63 - 1


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > LARGEST_ID:
            raise ValueError("past the largest id")  # Django then tries the next pattern: none matches
        return number

    def to_url(self, value) -> str:
        return str(value)
