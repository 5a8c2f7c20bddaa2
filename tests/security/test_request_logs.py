"""API tokens sent in a websocket's query string never reach the server's logs."""

import logging

from dubium.logs import RedactTokens, redact_server_logs


def uvicorn_record(name: str, message: str, *args) -> logging.LogRecord:
    return logging.LogRecord(name, logging.INFO, __file__, 1, message, args, None)


def test_the_access_log_line_keeps_the_path_but_not_the_token():
    record = uvicorn_record(
        "uvicorn.access", '%s - "%s %s HTTP/%s" %d', "10.0.0.1:5555", "GET",
        "/ws/matches/7/?seat=1&token=0123456789abcdef0123456789abcdef01234567", "1.1", 101,
    )  # fmt: skip
    assert RedactTokens().filter(record)
    assert record.getMessage() == '10.0.0.1:5555 - "GET /ws/matches/7/?seat=1&token=[redacted] HTTP/1.1" 101'


def test_the_websocket_open_line_is_redacted_too():
    record = uvicorn_record("uvicorn.error", '%s - "WebSocket %s" [accepted]', "10.0.0.1:5555", "/ws/lobby/?token=abc")
    RedactTokens().filter(record)
    assert "abc" not in record.getMessage() and "token=[redacted]" in record.getMessage()


def test_a_token_parameter_spelled_with_escapes_is_redacted_and_others_are_kept():
    """`?tok%65n=<key>` authenticated the socket (the server decodes the name) but was logged in clear."""
    record = uvicorn_record(
        "uvicorn.error", '%s - "WebSocket %s" [accepted]', "10.0.0.1:5555",
        "/ws/match/21/?tok%65n=c4254857&TOKEN=abc&seat=2&tokens=keep&x=token%3Dkeep",
    )  # fmt: skip
    RedactTokens().filter(record)
    assert record.getMessage() == (
        '10.0.0.1:5555 - "WebSocket /ws/match/21/?tok%65n=[redacted]&TOKEN=[redacted]&seat=2&tokens=keep'
        '&x=token%3Dkeep" [accepted]'
    )


def test_the_server_loggers_carry_the_filter(caplog):
    redact_server_logs()
    with caplog.at_level(logging.INFO, logger="uvicorn.access"):
        logging.getLogger("uvicorn.access").info('%s - "GET %s"', "x", "/?token=secret-key")
    assert "secret-key" not in caplog.text
