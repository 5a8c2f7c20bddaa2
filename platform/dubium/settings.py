"""All settings, read from environment variables (README "Configuration").

With no variables set Dubium runs embedded: SQLite, the in-memory channel
layer and Celery tasks run eagerly in the web process. DATABASE_URL and
REDIS_URL switch to PostgreSQL and Redis with separate worker processes.
"""

import hashlib
import json
import os
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from django.core.checks.security.base import (
    SECRET_KEY_INSECURE_PREFIX,
    SECRET_KEY_MIN_LENGTH,
    SECRET_KEY_MIN_UNIQUE_CHARACTERS,
)
from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parents[2]
(BASE_DIR / "var" / "static").mkdir(parents=True, exist_ok=True)  # SQLite and static files of the embedded setup


def env_bool(name: str, default: bool) -> bool:
    return os.environ.get(name, str(default)).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


DEBUG = env_bool("DEBUG", True)
# Known to everyone who reads this file: with it anyone can forge sessions and reset links.
DEVELOPMENT_SECRET_KEY = "dubium-embedded-development-key-change-me-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY", "").strip() or DEVELOPMENT_SECRET_KEY
if not DEBUG and SECRET_KEY == DEVELOPMENT_SECRET_KEY:
    # Production refuses to start on it: the web servers, Celery and every manage.py command.
    raise ImproperlyConfigured(
        "DEBUG is off but SECRET_KEY is not set, so the site would run on the development key in "
        "settings.py. Set SECRET_KEY to a long random value, e.g. "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
# Earlier keys, comma-separated, still accepted for what they signed (sessions, password reset
# links) while SECRET_KEY changes: nobody is signed out by a key rotation.
SECRET_KEY_FALLBACKS = env_list("SECRET_KEY_FALLBACKS", "")


def weak_key(key: str) -> bool:
    """Django's own measure of a guessable key (its deploy check's warning W009): shorter than 50,
    fewer than 5 different characters, or the "django-insecure-" one startproject writes."""
    return (
        len(key) < SECRET_KEY_MIN_LENGTH
        or len(set(key)) < SECRET_KEY_MIN_UNIQUE_CHARACTERS
        or key.startswith(SECRET_KEY_INSECURE_PREFIX)
    )


if not DEBUG and any(weak_key(key) for key in [SECRET_KEY, *SECRET_KEY_FALLBACKS]):
    # A warning nobody reads is not enough: a short key can be guessed offline from one signed cookie.
    raise ImproperlyConfigured(
        f"DEBUG is off but SECRET_KEY (or one of SECRET_KEY_FALLBACKS) is weak: it needs at least "
        f"{SECRET_KEY_MIN_LENGTH} characters, {SECRET_KEY_MIN_UNIQUE_CHARACTERS} of them different, and not the "
        f"{SECRET_KEY_INSECURE_PREFIX!r} prefix. Make one with "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'."
    )
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", "")
SITE_URL = os.environ.get("SITE_URL", "http://127.0.0.1:8000")

INSTALLED_APPS = [
    "daphne",
    "accounts.admin_config.DubiumAdminConfig",  # django.contrib.admin, which organizers reach too
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "ratings",
    "games.matches",
    "games.lobby",
    "tournaments",
    "botapi",
    "fairplay",
    "dubium",
    "axes",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "dubium.csp.ContentSecurityPolicyMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "dubium.timezones.TimeZoneMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",
    "fairplay.middleware.BrowserCookieMiddleware",
]

ROOT_URLCONF = "dubium.urls"
ASGI_APPLICATION = "dubium.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "games.lobby.context_processors.challenges",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'var' / 'dubium.sqlite3'}"),
        conn_max_age=int(os.environ.get("DB_CONN_MAX_AGE", "0")),
        # A kept connection that died (the database restarted) is replaced before use, not failed on.
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several threads (web, eager tasks, bots) write; wait for the lock instead of failing.
    # Write-ahead log: a commit appends to one file and syncs it once, where the default rollback
    # journal syncs three times; readers no longer wait for a writer. Still synchronous=FULL, so a
    # committed move survives a power cut (bench/load.py measured the difference: docs/performance.md).
    DATABASES["default"]["OPTIONS"] = {
        "timeout": 20,
        "transaction_mode": "IMMEDIATE",
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous={}".format(
            os.environ.get("SQLITE_SYNCHRONOUS", "FULL")
        ),
    }
    # A file, not SQLite's shared in-memory database: that one fails at once under concurrent
    # writers instead of waiting, and the browser tests run a server, bots and clocks in threads.
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-dubium-{os.getpid()}.sqlite3")}
else:
    # Django's backend less two round trips it makes for nothing: the health check's SELECT 1 on an
    # idle connection, and the release of each grouped move's savepoint (dubium/postgres/base.py).
    DATABASES["default"]["ENGINE"] = "dubium.postgres"
    # Two checkouts testing against one PostgreSQL server (a CI clone beside a working copy) must
    # not drop each other's test database.
    checkout = hashlib.sha1(str(BASE_DIR).encode()).hexdigest()[:8]
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{checkout}"}
    # A match row is locked for milliseconds per move. A wait of seconds means something is stuck:
    # fail that request or task (a retry or the sweep picks the match up again) instead of
    # queueing every later move behind it, and end sessions that sit inside a transaction.
    DATABASES["default"]["OPTIONS"] = {
        "options": "-c lock_timeout={} -c idle_in_transaction_session_timeout={}".format(
            os.environ.get("DB_LOCK_TIMEOUT_MS", "15000"), os.environ.get("DB_IDLE_IN_TRANSACTION_MS", "60000")
        ),
        # The move path's statements (games/matches/rows.py) bind their values on the server and
        # are prepared on a connection's second run of them: PostgreSQL no longer parses and plans
        # them per move. Django's own queries bind on the client and are never prepared.
        "prepare_threshold": 1,
    }
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# Failed logins (web form, admin, API token) are counted per client address and per account;
# past the limit that address or account is refused for the cool-off, right password or not.
AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["ip_address", "username"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "accounts.addresses.client_address"
AXES_USERNAME_CALLABLE = "accounts.addresses.login_username"
AXES_VERBOSE = False
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
# How many reverse proxies of ours stand in front and append to X-Forwarded-For (0: none, the
# header is ignored). Login lockouts and API throttles both count the address this rule gives.
NUM_PROXIES = int(os.environ.get("NUM_PROXIES", "0"))
LOGIN_URL = "login"
# Messages wait in the session, not in a cookie: one shows a bot's new API token, and a signed
# cookie is readable by anyone who sees the browser's cookies or a log of its headers.
MESSAGE_STORAGE = "django.contrib.messages.storage.session.SessionStorage"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "var" / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
# Files are served from STATIC_ROOT after collectstatic; the finders cover a checkout that has not run it (tests).
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = DEBUG
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))

EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Dubium <noreply@dubium.invalid>")


def redis_url_of_test_process(url: str) -> str:
    """The Redis database of this process: the one REDIS_URL names, or in a test run spread over
    pytest-xdist processes (PYTEST_XDIST_WORKER gw0, gw1, ...) that one plus the process's number,
    since tests empty their database (the cache's clear) and must not empty another process's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    if not (url and worker.startswith("gw")):
        return url
    parts = urlsplit(url)
    return urlunsplit(parts._replace(path=f"/{int(parts.path.strip('/') or 0) + int(worker[2:])}"))


REDIS_URL = redis_url_of_test_process(os.environ.get("REDIS_URL", ""))
if REDIS_URL:
    CHANNEL_LAYERS = {
        "default": {
            # The default is channels_redis's layer (messages kept in sorted sets, with expiry)
            # with a group send in one round trip; CHANNELS_BACKEND=core picks channels_redis's
            # own and pubsub its Pub/Sub layer, to measure them (docs/performance.md).
            "BACKEND": {
                "one-trip": "dubium.redis_layer.OneTripRedisChannelLayer",
                "core": "channels_redis.core.RedisChannelLayer",
                "pubsub": "channels_redis.pubsub.RedisPubSubChannelLayer",
            }[os.environ.get("CHANNELS_BACKEND", "one-trip")],
            # channels_redis blocks 5 s on each receive; redis-py's default socket timeout is also
            # 5 s, which can cut that read and drop the websocket: give the read more room.
            # redis-py 8 caps a pool at 100 connections and fails the next send at once ("Too many
            # connections"): hundreds of sockets opening or sending at once (bench/load.py at 400
            # sockets) need more, each only for the moment of its send.
            "CONFIG": {
                "hosts": [
                    {
                        "address": REDIS_URL,
                        "socket_timeout": 15,
                        "max_connections": int(os.environ.get("REDIS_MAX_CONNECTIONS", "1000")),
                    }
                ],
                "prefix": os.environ.get("CHANNELS_PREFIX", "dubium"),
            },
        }
    }
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL}}
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "dubium.memory_layer.MemoryChannelLayer"}}
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# Celery: Redis broker and result store on the real stack, eager in-process otherwise.
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_QUEUE", "celery")
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TIMEZONE = TIME_ZONE
# Celery's Django fixup closes a worker's database connections before and after every task
# unless told to reuse them for this many tasks: every scoring, wake-up and bot move opened a
# new PostgreSQL connection. Django's own rule decides instead (DB_CONN_MAX_AGE, health checks),
# applied around each task as around a request (dubium/celery.py).
CELERY_DB_REUSE_MAX = 1_000_000

# Matches: how due bot moves and timeouts are woken (games/matches/scheduling.py, wakeups.py):
# "celery" (ETA tasks + beat sweep), "thread" (a ticker in the web process), "manual" (tests).
MATCH_WAKEUPS = os.environ.get("MATCH_WAKEUPS", "celery" if REDIS_URL else "thread")
HOUSE_BOT_THINK_MS = int(os.environ.get("HOUSE_BOT_THINK_MS", "700"))
# Which rating pairs the ranked queue: "openskill" predicted held-out results better in
# bench/ratings.py (docs/ratings.md), "elo" is the alternative.
MATCHMAKING_RATING = os.environ.get("MATCHMAKING_RATING", "openskill")
# Uploaded bots (platform/botapi, docs/bots.md): per-move limits of the sandbox.
BOT_MOVE_SECONDS = float(os.environ.get("BOT_MOVE_SECONDS", "2"))
BOT_MEMORY_MB = int(os.environ.get("BOT_MEMORY_MB", "256"))
BOT_SANDBOX_PYTHON = os.environ.get("BOT_SANDBOX_PYTHON", "/usr/bin/python3")
# Bot calls (sandbox runs, webhook calls) run on threads of their own (games/matches/asking.py):
# in the web process embedded, in the bot worker (consuming BOT_QUEUE) on the real stack; this many
# at once per process, at most BOT_ASKS_PER_OWNER of them for one owner's bots.
BOT_ASK_THREADS = int(os.environ.get("BOT_ASK_THREADS", "8"))
BOT_ASKS_PER_OWNER = int(os.environ.get("BOT_ASKS_PER_OWNER", "2"))
BOT_QUEUE = os.environ.get("BOT_QUEUE", f"{CELERY_TASK_DEFAULT_QUEUE}-bots")
CELERY_TASK_ROUTES = {
    task: {"queue": BOT_QUEUE} for task in ("games.matches.tasks.ask_seat", "botapi.tasks.tell_the_end")
}
# Webhook bots (docs/bots.md): seconds per move, per game ({"default": 1, "dudo": 2}), as JSON.
BOT_WEBHOOK_MOVE_SECONDS = json.loads(os.environ.get("BOT_WEBHOOK_MOVE_SECONDS", '{"default": 1}'))
# Local testing only: let webhook endpoints be plain HTTP and private, loopback or link-local addresses.
BOT_WEBHOOK_ALLOW_PRIVATE = os.environ.get("BOT_WEBHOOK_ALLOW_PRIVATE", "false").lower() == "true"
# Failed moves in a row (crash, timeout, illegal answer, unreachable endpoint) that suspend a bot.
BOT_STRIKES_TO_SUSPEND = int(os.environ.get("BOT_STRIKES_TO_SUSPEND", "5"))
# Real-time races (Dobble): the most one-way network delay credited to a claim, and how long
# every claim is held open after it was made (games/matches/fairness.py).
REALTIME_LAG_CAP_MS = int(os.environ.get("REALTIME_LAG_CAP_MS", "150"))
# The get-ready countdown of a real-time match: game time 0 ("go") comes this long after the
# start, and claims before it are refused (docs/rules/dobble.md).
REALTIME_GET_READY_MS = int(os.environ.get("REALTIME_GET_READY_MS", "3000"))
# Rated real-time races: a claim made sooner than this after its cards were sent is a false
# start, judged wrong (games/matches/fairness.py; the human reaction times behind it: docs/security.md).
REALTIME_REACTION_FLOOR_MS = int(os.environ.get("REALTIME_REACTION_FLOOR_MS", "200"))
MATCH_DISCONNECT_GRACE_SECONDS = int(os.environ.get("MATCH_DISCONNECT_GRACE_SECONDS", "60"))
# A player away longer than the grace, for whom the computer has moved this many times since
# they left, forfeits at their next timeout: they have left the game (games/matches/clocks.py).
MATCH_AWAY_MOVES_BEFORE_FORFEIT = int(os.environ.get("MATCH_AWAY_MOVES_BEFORE_FORFEIT", "2"))
# A seat whose clock runs out this many times in a row, with no move of its own between, is
# counted out at that timeout, as if it had left, connected or not (games/matches/clocks.py).
MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT = int(os.environ.get("MATCH_TIMEOUTS_IN_A_ROW_TO_FORFEIT", "3"))
# How often a match socket tells the database it is alive; three missed beats and it is
# counted out (the sockets of a crashed web process). See games/matches/presence.py.
MATCH_SOCKET_HEARTBEAT_SECONDS = float(os.environ.get("MATCH_SOCKET_HEARTBEAT_SECONDS", "20"))
# Websockets one account may hold open in a web process, and open in a burst then each second;
# a visitor's address and a bot account have more room (dubium/socket_limits.py).
SOCKETS_OPEN_AT_ONCE = int(os.environ.get("SOCKETS_OPEN_AT_ONCE", "40"))
SOCKET_OPENS_BURST = int(os.environ.get("SOCKET_OPENS_BURST", "60"))
SOCKET_OPENS_PER_SECOND = float(os.environ.get("SOCKET_OPENS_PER_SECOND", "3"))
# How a web process writes moves (games/matches/writes.py): "auto" (or "group") groups them into
# shared commits on the database thread; "pool" (a pool of threads) and "thread" (one at a time on
# the database thread, as Channels does by default) are the other ways, to measure.
MATCH_WRITES = os.environ.get("MATCH_WRITES", "auto")
CELERY_BEAT_SCHEDULE = {
    "sweep-due-matches": {"task": "games.matches.tasks.sweep_matches", "schedule": 2.0},
    "matchmake": {"task": "games.lobby.tasks.matchmake_all", "schedule": 3.0},
    "tournaments": {"task": "tournaments.tasks.tournament_tick", "schedule": 5.0},
    "tournament-series": {"task": "tournaments.tasks.create_series_events", "schedule": 60.0},
    "settle-finished-matches": {"task": "games.matches.tasks.settle_forgotten_matches", "schedule": 10.0},
    "bot-ladder": {"task": "botapi.tasks.ladder_tick", "schedule": 60.0},
    "forget-dead-sockets": {
        "task": "games.matches.tasks.forget_dead_sockets",
        "schedule": MATCH_SOCKET_HEARTBEAT_SECONDS,
    },
}

# HTTP requests a client may have in flight at once on one web process, by its credential (token or
# session) and by its address; more are refused with 429 before Django (dubium/inflight.py).
HTTP_IN_FLIGHT_PER_CLIENT = int(os.environ.get("HTTP_IN_FLIGHT_PER_CLIENT", "4"))
HTTP_IN_FLIGHT_PER_ADDRESS = int(os.environ.get("HTTP_IN_FLIGHT_PER_ADDRESS", "24"))
# While the ticker's round or the event loop runs later than this, each client has half of that
# room and the rest are refused with 503 (dubium/lateness.py).
HTTP_SHED_WHEN_LATE_SECONDS = float(os.environ.get("HTTP_SHED_WHEN_LATE_SECONDS", "0.5"))

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "accounts.authentication.TokenOrBearerAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "games.matches.jsonlimits.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 50,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "games.matches.api.exception_handler",
    "NUM_PROXIES": NUM_PROXIES,
    # Every API operation: per account (token or session) and per client address, a burst and a
    # minute's rate each (accounts/throttles.py; the numbers and why: docs/security.md "API limits").
    "DEFAULT_THROTTLE_CLASSES": [
        "accounts.throttles.AccountBurstThrottle",
        "accounts.throttles.AccountSustainedThrottle",
        "accounts.throttles.AddressBurstThrottle",
        "accounts.throttles.AddressSustainedThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "account_burst": os.environ.get("API_ACCOUNT_BURST", "40/s"),
        "account_sustained": os.environ.get("API_ACCOUNT_RATE", "1200/min"),
        "address_burst": os.environ.get("API_ADDRESS_BURST", "80/s"),
        "address_sustained": os.environ.get("API_ADDRESS_RATE", "2400/min"),
        "token": os.environ.get("TOKEN_RATE", "20/min"),
        "register": os.environ.get("REGISTRATION_RATE", "10/hour"),
        "upload": os.environ.get("UPLOAD_RATE", "30/hour"),
        "reset_request": os.environ.get("RESET_REQUEST_RATE", "10/hour"),
        "reset_mail": os.environ.get("RESET_MAIL_RATE", "3/hour"),
    },
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Dubium API",
    "DESCRIPTION": "Accounts, games, matches, ratings and bots of the Dubium platform.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # The docs pages' scripts are served by the site itself, never from another host.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # A row id in a path (games/matches/ids.py): a longer number is a 404.
    "PATH_CONVERTER_OVERRIDES": {"id": {"type": "integer", "format": "int64", "minimum": 0, "maximum": 2**63 - 1}},
    "POSTPROCESSING_HOOKS": ["drf_spectacular.hooks.postprocess_schema_enums", "dubium.schema.document_errors"],
}

# Production hardening: on whenever DEBUG is off (`manage.py check --deploy` is clean).
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", True)
    CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", True)
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", "31536000"))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
CONTENT_SECURITY_POLICY = env_bool("CONTENT_SECURITY_POLICY", True)  # dubium/csp.py
X_FRAME_OPTIONS = "DENY"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django.db.backends": {"level": "WARNING"},
        # One "Task ... succeeded" line per finished match in embedded mode, where tasks run eagerly.
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
    },
}
