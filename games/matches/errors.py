"""Why the match service refused something; `code` is what clients switch on."""


class MatchError(Exception):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code
        self.message = message

    def as_message(self) -> dict:
        return {"type": "error", "code": self.code, "message": self.message}
