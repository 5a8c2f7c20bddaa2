"""Secrets never reach the logs: API tokens sent as `?token=` are cut from logged request lines.

Uvicorn logs each request's path with its query string (the access log) and each websocket's
path when it opens (its error log); a bot that authenticates its socket with `?token=<key>`
would otherwise leave its key in every log file and log collector.
"""

import logging
import re
from urllib.parse import unquote_plus

QUERY_PARAMETER = re.compile(r"((?:^|[?&])([^=&?\s\"']+)=)[^&\s\"']+")
UVICORN_LOGGERS = ("uvicorn.access", "uvicorn.error")


def redact(text: str) -> str:
    """The value of every `token` parameter, however its name is spelled (`tok%65n` is `token`
    to the server that reads it)."""
    return QUERY_PARAMETER.sub(redacted_if_token, text)


def redacted_if_token(found: re.Match) -> str:
    return found.group(1) + "[redacted]" if unquote_plus(found.group(2)).lower() == "token" else found.group(0)


class RedactTokens(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.msg, str):
            record.msg = redact(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(redact(arg) if isinstance(arg, str) else arg for arg in record.args)
        return True


def redact_server_logs() -> None:
    for name in UVICORN_LOGGERS:
        logging.getLogger(name).addFilter(RedactTokens())
