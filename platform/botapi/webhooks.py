"""Webhook bots: the platform POSTs to the bot's endpoint and plays its answer.

No Django models here: this module takes a URL and a JSON body and gives back the parsed
answer or a WebhookError saying what went wrong, in words the bot's author can act on.

The platform must not become a way into the networks behind it, so every request
resolves the host once, refuses it unless every address is public (no private, loopback,
link-local, multicast, reserved or cloud-metadata address), and then connects to that
vetted address itself, so a second DNS answer cannot swap it for an internal one.
Redirects are refused, not followed. `allow_private` (the local-testing admin setting)
allows private and loopback addresses and plain HTTP; a link-local address (169.254.169.254,
the cloud's metadata service) stays refused.

An answer has one wall-clock deadline, from the name lookup to its last byte: every read of
the status line, the headers and the body waits only for what is left of it, so an endpoint
that trickles its headers is cut off like one that trickles its body. Every request is signed
with the bot's secret (`signature_headers`), so an endpoint can tell it came from here.
"""

import hashlib
import hmac
import http.client
import io
import ipaddress
import json
import socket
import ssl
import time
from urllib.parse import urlsplit

MAX_ANSWER_BYTES = 65536
USER_AGENT = "Dubium-bot-webhook/1"
TIMESTAMP_HEADER = "Dubium-Timestamp"
SIGNATURE_HEADER = "Dubium-Signature"


class WebhookError(Exception):
    """The endpoint gave no usable answer; the message is for the bot's author."""


def check_url(url: str, allow_private: bool) -> tuple[str, str, int, str]:
    """(scheme, host, port, path) of an acceptable endpoint URL, without touching the network."""
    parts = urlsplit(url)
    allowed = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in allowed:
        raise WebhookError("The endpoint must be an https:// URL.")
    if not parts.hostname or parts.username or parts.password:
        raise WebhookError("The endpoint needs a host name and no user name or password.")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise WebhookError("The endpoint's port is not a number from 1 to 65535.") from None
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port, path


def public_address(host: str, port: int, allow_private: bool) -> str:
    """The address to connect to: every address the name resolves to must be public.

    A name that does not resolve and one at a private address get the same answer, without the
    address: the check must not tell anyone which internal names this server resolves, or how."""
    refused = WebhookError(f"The endpoint's host {host!r} does not resolve to a public address.")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise refused from None
    addresses = [info[4][0] for info in infos]
    ips = [ipaddress.ip_address(address.split("%")[0]) for address in addresses]
    if any(ip.is_link_local for ip in ips):  # the cloud's metadata service, even for local testing
        raise refused
    if not allow_private and not all(is_public(ip) for ip in ips):
        raise refused
    return addresses[0]


def is_public(ip) -> bool:
    """A global unicast address; an IPv6 one that carries an IPv4 address (mapped, or 6to4's
    2002::/16) is as public as that address, and the old site-local fec0::/10 is not public."""
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None or ip.sixtofour is not None:
            return is_public(ip.ipv4_mapped or ip.sixtofour)
        if ip.is_site_local:
            return False
    return ip.is_global and not ip.is_multicast and not ip.is_reserved


class DeadlineReader(io.RawIOBase):
    """The connection's socket file, read so that no read waits past the deadline (headers included)."""

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, deadline: float):
        self.raw, self.sock, self.deadline = raw, sock, deadline

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        self.sock.settimeout(left)
        return self.raw.readinto(buffer)

    def close(self) -> None:
        self.raw.close()  # the socket itself closes once the connection has closed it too
        super().close()


class PinnedConnection:
    """Connects to a vetted address while the Host header keeps the endpoint's name; the response
    is read within the deadline."""

    deadline = 0.0

    def connect(self) -> None:
        self.timeout = max(0.001, self.deadline - time.monotonic())
        self.sock = self.dial(socket.create_connection((self.address, self.port), self.timeout))
        self.sock.settimeout(max(0.001, self.deadline - time.monotonic()))  # the request's sending

    def dial(self, raw: socket.socket) -> socket.socket:
        return raw

    def response_class(self, sock, *args, **kwargs) -> http.client.HTTPResponse:
        response = http.client.HTTPResponse(sock, *args, **kwargs)
        response.fp = io.BufferedReader(DeadlineReader(response.fp.detach(), sock, self.deadline))
        return response


class PinnedHTTPConnection(PinnedConnection, http.client.HTTPConnection):
    def __init__(self, host: str, port: int, address: str, deadline: float):
        super().__init__(host, port)
        self.address, self.deadline = address, deadline


class PinnedHTTPSConnection(PinnedConnection, http.client.HTTPSConnection):
    """As above over TLS; the certificate is checked against the endpoint's name (the handshake
    is one timed operation)."""

    def __init__(self, host: str, port: int, address: str, deadline: float):
        super().__init__(host, port, context=ssl.create_default_context())
        self.address, self.deadline = address, deadline

    def dial(self, raw: socket.socket) -> socket.socket:
        return self._context.wrap_socket(raw, server_hostname=self.host)


def signature_headers(secret: str, payload: bytes, now: float | None = None) -> dict[str, str]:
    """HMAC-SHA256 of "<timestamp>.<body>" with the bot's secret: the endpoint checks it and that
    the timestamp is recent, so nobody else can send it moves, or send ours again later
    (docs/bots.md shows the check)."""
    stamp = str(int(now if now is not None else time.time()))
    digest = hmac.new(secret.encode(), stamp.encode() + b"." + payload, hashlib.sha256).hexdigest()
    return {TIMESTAMP_HEADER: stamp, SIGNATURE_HEADER: f"sha256={digest}"}


def post(url: str, body: dict, seconds: float, secret: str, allow_private: bool = False) -> object:
    """POST `body` as JSON, signed with `secret`, and return the JSON answer, which must be
    complete within `seconds` of the call."""
    deadline = time.monotonic() + seconds
    late = WebhookError(f"The endpoint took longer than {seconds:g} s to answer.")
    scheme, host, port, path = check_url(url, allow_private)
    address = public_address(host, port, allow_private)
    if time.monotonic() >= deadline:
        raise late  # the name's lookup took it all
    connection_class = PinnedHTTPSConnection if scheme == "https" else PinnedHTTPConnection
    connection = connection_class(host, port, address, deadline)
    payload = json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "User-Agent": USER_AGENT, **signature_headers(secret, payload)}
    try:
        connection.request("POST", path, body=payload, headers=headers)
        response = connection.getresponse()
        if 300 <= response.status < 400:
            raise WebhookError(f"The endpoint answered a redirect ({response.status}); redirects are not followed.")
        if response.status != 200:
            raise WebhookError(f"The endpoint answered HTTP {response.status}.")
        data = read_answer(response)
    except TimeoutError:
        raise late from None
    except (OSError, http.client.HTTPException) as error:
        raise WebhookError(f"The endpoint could not be reached: {error.__class__.__name__}: {error}"[:300]) from None
    finally:
        connection.close()
    if len(data) > MAX_ANSWER_BYTES:
        raise WebhookError(f"The endpoint's answer is longer than {MAX_ANSWER_BYTES} bytes.")
    try:
        return json.loads(data)
    except ValueError:
        raise WebhookError("The endpoint's answer is not JSON.") from None


def read_answer(response) -> bytes:
    """The body, at most one byte past the limit (each read bounded by the deadline)."""
    data = b""
    while len(data) <= MAX_ANSWER_BYTES:
        piece = response.read1(MAX_ANSWER_BYTES + 1 - len(data))
        if not piece:
            break
        data += piece
    return data
