"""A bot server on 127.0.0.1 for the webhook tests: it answers as its `mode` says and keeps what it was sent."""

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class BotServer:
    def __init__(self):
        self.mode = "play"  # play | slow | fail | illegal | redirect | wrong_token
        self.received: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.received.append(body)
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

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/bot"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def types(self) -> list[str]:
        return [body["type"] for body in self.received]

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
