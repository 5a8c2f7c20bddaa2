"""A TCP proxy that can cut the line: a database outage, as the processes behind it see one."""

import socket
import threading
import time


class Proxy:
    """Forwards 127.0.0.1:<port> to `target`; `cut(seconds)` drops every open connection and
    refuses new ones until the time is up, as a restarting server does."""

    def __init__(self, target: tuple[str, int], port: int = 0):
        self.target = target
        self.listener = socket.create_server(("127.0.0.1", port))
        self.port = self.listener.getsockname()[1]
        self.down_until = 0.0
        self.open: set[socket.socket] = set()
        self.lock = threading.Lock()
        threading.Thread(target=self.accept, daemon=True).start()

    def cut(self, seconds: float) -> None:
        with self.lock:
            self.down_until = time.monotonic() + seconds
            for sock in self.open:
                close(sock)
            self.open.clear()

    def accept(self) -> None:
        while True:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return  # closed
            if time.monotonic() < self.down_until:
                close(client)
                continue
            try:
                server = socket.create_connection(self.target, timeout=5)
            except OSError:
                close(client)
                continue
            server.settimeout(None)
            with self.lock:
                self.open.update((client, server))
            threading.Thread(target=self.pump, args=(client, server), daemon=True).start()
            threading.Thread(target=self.pump, args=(server, client), daemon=True).start()

    def pump(self, source: socket.socket, sink: socket.socket) -> None:
        try:
            while chunk := source.recv(65536):
                sink.sendall(chunk)
        except OSError:
            pass
        finally:
            with self.lock:
                self.open.discard(source)
                self.open.discard(sink)
            close(source)
            close(sink)

    def close(self) -> None:
        close(self.listener)
        self.cut(0)


def close(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
