"""Dubium's ASGI application plus the two floors of bench/relays.py (the bare relay and the
stored relay), served by the same processes (bench/load.py runs the same client against all
three, so what the machine's other load does to one it does to the others).

    uvicorn relay_server:application --app-dir bench
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "platform")]

# Dubium's ASGI module sets Django up, which the relays' models need first.
from dubium.asgi import application as dubium_application  # noqa: E402, I001
from relays import RelayConsumer, StoredRelayConsumer  # noqa: E402

if os.environ.get("BENCH_COUNT"):  # bench/load.py --count: what the process does, counted (bench/counting.py)
    import counting  # noqa: E402

    counting.install()
else:
    counting = None

relay_application = RelayConsumer.as_asgi()
stored_application = StoredRelayConsumer.as_asgi()


async def application(scope, receive, send):
    if counting is not None and scope["type"] == "http" and scope["path"] == "/bench/counts":
        return await counting.endpoint(scope, receive, send)
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/relay/"):
        return await relay_application(scope, receive, send)
    if scope["type"] == "websocket" and scope["path"].startswith("/ws/stored/"):
        return await stored_application(scope, receive, send)
    return await dubium_application(scope, receive, send)
