"""One ASGI application for HTTP and websockets; several can run behind a proxy."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")
http_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs apps loaded)

from dubium.inflight import InFlightLimit  # noqa: E402
from dubium.logs import redact_server_logs  # noqa: E402
from dubium.origins import SameOriginValidator  # noqa: E402
from dubium.routing import websocket_urlpatterns  # noqa: E402
from dubium.socket_limits import SocketLimitMiddleware  # noqa: E402
from games.matches.socket_auth import SessionOrTokenAuthMiddleware  # noqa: E402

redact_server_logs()


def pin_to_one_core() -> None:
    """WEB_CPU (a position among the CPUs this process may use) keeps the whole process on one
    core. Its threads take turns on the interpreter's lock anyway; spread over two cores, that
    lock and every object they share moved between the cores, and a move cost more CPU and
    waited longer (docs/performance.md). Threads started from here on inherit the choice."""
    position = os.environ.get("WEB_CPU", "")
    if position.isdigit():
        allowed = sorted(os.sched_getaffinity(0))
        os.sched_setaffinity(0, {allowed[int(position) % len(allowed)]})


pin_to_one_core()
application = ProtocolTypeRouter(
    {
        "http": InFlightLimit(http_application, watch_event_loop=True),
        "websocket": SameOriginValidator(
            SessionOrTokenAuthMiddleware(SocketLimitMiddleware(URLRouter(websocket_urlpatterns)))
        ),
    }
)

from django.conf import settings  # noqa: E402

if settings.MATCH_WAKEUPS == "thread":
    # Embedded mode has no Celery worker or beat: a ticker thread runs the beat schedule.
    from dubium.ticker import start_ticker  # noqa: E402

    start_ticker()

# Celery builds its task registry on first use: in the web process that was the first finished
# match's scoring, 15-30 ms on the database thread while moves waited. Built now instead.
from dubium import celery_app  # noqa: E402

celery_app.finalize(auto=True)

# Everything loaded so far (Django, the apps, the URL conf) lives as long as the process: kept
# out of the garbage collector's full passes, which otherwise walked it all and held the
# process for 100 ms at a time under load (docs/performance.md).
gc.freeze()
# A move's objects are freed by their counts, not the collector; at its default (a young pass
# every 700 objects kept) the collector ran 150 times in 20 s of 400 players and its passes
# through the older objects held every move waiting behind them for up to 70 ms. A young pass
# every YOUNG_OBJECTS: about one an opening burst, none in most seconds of play.
YOUNG_OBJECTS = 50_000
gc.set_threshold(YOUNG_OBJECTS, 20, 100)
