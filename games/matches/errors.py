"""Why the match service refused something; `code` is what clients switch on."""


class MatchError(Exception):
    """`field`: the request's field at fault, when one is (the API names it in `fields`)."""

    def __init__(self, code: str, message: str, field: str = ""):
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field

    def as_message(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message}


def error_body(code: str, message: str, fields: dict | None = None) -> dict:
    """The one shape of every API error (docs/protocol.md): `fields` maps each bad field of the
    request to its messages, empty when the refusal is not about one field."""
    return {"type": "error", "code": code, "message": message, "fields": fields or {}}
