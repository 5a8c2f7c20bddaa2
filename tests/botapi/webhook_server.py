"""A bot server on 127.0.0.1 for the webhook tests: it answers as its `mode` says and keeps what it was
sent. `slow_headers` is the stall attack: it answers the verify request, and any other with the status
line, then a header line every 0.2 s for a minute (or until the caller hangs up or the server closes);
`slow_verify` answers the verify request so."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class BotServer:
    def __init__(self):
        self.mode = "play"  # play | slow | slow_headers | slow_verify | fail | illegal | redirect | wrong_token
        self.received: list[dict] = []
        self.signatures: list[tuple[str, str, bytes]] = []  # (timestamp, signature, body) as sent
        self.closing = threading.Event()
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                raw = self.rfile.read(int(self.headers["Content-Length"]))
                body = json.loads(raw)
                server.received.append(body)
                server.signatures.append((self.headers["Dubium-Timestamp"], self.headers["Dubium-Signature"], raw))
                if server.mode == ("slow_verify" if body["type"] == "verify" else "slow_headers"):
                    self.trickle_headers()
                    return
                if server.mode == "redirect":
                    self.send_response(307)
                    self.send_header("Location", "http://169.254.169.254/latest/meta-data/")
                    self.end_headers()
                    return
                if server.mode == "fail" and body["type"] != "verify":
                    self.send_response(500)
                    self.end_headers()
                    return
                if server.mode == "slow" and body["type"] == "move":
                    time.sleep(1.0)
                answer = {}
                if body["type"] == "verify":
                    answer = {"challenge": "guess" if server.mode == "wrong_token" else body["challenge"]}
                elif body["type"] == "move":
                    illegal = {"type": "bid", "quantity": 999, "face": 9}
                    answer = illegal if server.mode == "illegal" else body["legal"][0]
                data = json.dumps(answer).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def trickle_headers(self):
                self.wfile.write(b"HTTP/1.1 200 OK\r\n")
                for _ in range(300):
                    if server.closing.wait(0.2):
                        return
                    try:
                        self.wfile.write(b"X-Thinking: yes\r\n")
                        self.wfile.flush()
                    except OSError:
                        return  # the caller hung up

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/bot"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def types(self) -> list[str]:
        return [body["type"] for body in self.received]

    def close(self) -> None:
        self.closing.set()
        self.httpd.shutdown()
        self.httpd.server_close()
