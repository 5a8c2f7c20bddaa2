"""One ASGI application for HTTP and websockets; several can run behind a proxy."""

import gc
import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "dubium.settings")
http_application = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402  (needs apps loaded)

from dubium.logs import redact_server_logs  # noqa: E402
from dubium.origins import SameOriginValidator  # noqa: E402
from dubium.routing import websocket_urlpatterns  # noqa: E402
from games.matches.socket_auth import SessionOrTokenAuthMiddleware  # noqa: E402

redact_server_logs()
application = ProtocolTypeRouter(
    {
        "http": http_application,
        "websocket": SameOriginValidator(SessionOrTokenAuthMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

from django.conf import settings  # noqa: E402

if settings.MATCH_WAKEUPS == "thread":
    # Embedded mode has no Celery worker or beat: a ticker thread runs the beat schedule.
    from dubium.ticker import start_ticker  # noqa: E402

    start_ticker()

# Everything loaded so far (Django, the apps, the URL conf) lives as long as the process: kept
# out of the garbage collector's full passes, which otherwise walked it all and held the
# process for 100 ms at a time under load (docs/performance.md).
gc.freeze()
