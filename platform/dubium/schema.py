"""The OpenAPI schema documents the errors every operation can answer, not only its successes.

Any endpoint may refuse a request: bad input (400), no or a wrong credential (401/403), an
unknown object (404), a method it does not have (405), a move the match has passed (409), too
many requests or failed logins (429, with `Retry-After` and the limits in force), a web process
that runs late and sheds requests (503, with `Retry-After`; dubium/inflight.py). Each answers one
shape (games/matches/errors.error_body): `type` "error", a `code` to branch on, a `message` for
people and `fields`, each bad field of the request with its messages. Added once here instead of
on every view.
"""

from django.conf import settings
from rest_framework.settings import api_settings

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
}
RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before the next request.", "schema": {"type": "integer"}}
}


def too_many() -> str:
    """The 429's description, with the rates in force (REST_FRAMEWORK, docs/security.md "API limits")."""
    rates = api_settings.DEFAULT_THROTTLE_RATES
    return (
        "Too many requests or failed logins: wait the seconds of Retry-After, then retry. Every operation"
        f" allows each account (token or session) {rates['account_burst']} and {rates['account_sustained']},"
        f" and each client address {rates['address_burst']} and {rates['address_sustained']}; token logins"
        f" {rates['token']} and new accounts {rates['register']} per address, bot uploads {rates['upload']};"
        f" and at most {settings.HTTP_IN_FLIGHT_PER_CLIENT} requests of one account and"
        f" {settings.HTTP_IN_FLIGHT_PER_ADDRESS} of one address being answered at once."
    )


BUSY = (
    "The site is running late and sheds requests before doing any work: wait the seconds of Retry-After,"
    " then retry. Meanwhile each account may have half as many requests being answered at once."
)


def document_errors(result, generator, request, public):
    """drf-spectacular postprocessing hook (SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"])."""
    for methods in result.get("paths", {}).values():
        for operation in methods.values():
            responses = operation.setdefault("responses", {})
            for status, description in ERRORS.items():
                responses.setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": ERROR}}}
                )
            for status, description in (("429", too_many()), ("503", BUSY)):
                refusal = responses.setdefault(
                    status, {"description": description, "content": {"application/json": {"schema": ERROR}}}
                )
                refusal.setdefault("headers", RETRY_AFTER)  # a view's own 429 too
    return result
