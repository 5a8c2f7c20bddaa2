"""The OpenAPI schema documents the errors every operation can answer, not only its successes.

Any endpoint may refuse a request: bad input (400), no or a wrong credential (401/403), an
unknown object (404), a method it does not have (405), a move the match has passed (409), too
many requests or failed logins (429). Each answers one shape (games/matches/errors.error_body):
`type` "error", a `code` to branch on, a `message` for people and `fields`, each bad field of
the request with its messages. Added once here instead of on every view.
"""

ERROR = {
    "type": "object",
    "properties": {
        "type": {"type": "string", "enum": ["error"]},
        "code": {"type": "string", "example": "invalid"},
        "message": {"type": "string", "example": "seq: This field is required."},
        "fields": {
            "type": "object",
            "description": "Each bad field's messages; a list's or an object's field maps its items to theirs.",
            "additionalProperties": {"oneOf": [{"type": "array", "items": {"type": "string"}}, {"type": "object"}]},
            "example": {"seq": ["This field is required."]},
        },
    },
    "required": ["type", "code", "message", "fields"],
}
ERRORS = {
    "400": "The request is malformed or refused; the answer says why.",
    "401": "A credential was sent and is wrong.",
    "403": "Not signed in, or not allowed to do this.",
    "404": "No such object.",
    "405": "That method is not allowed here.",
    "409": "The match has moved on or the object changed meanwhile.",
    "415": "Send JSON.",
    "429": "Too many requests or failed logins: wait and retry.",
}


def document_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERRORS.items():
                responses.setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": ERROR}}}
                )
    return result
