# Dubium: `make run` serves the site with embedded defaults, `make test` runs every test.
# Both set themselves up from nothing but Python 3.11, pip and make.

PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8000
# The real stack's services: the environment's DATABASE_URL and REDIS_URL when set, else the local ones.
DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/dubium
REDIS_URL ?= redis://127.0.0.1:6379/0
REAL_STACK_ENV := DATABASE_URL=$(DATABASE_URL) REDIS_URL=$(REDIS_URL)
# `make stack` runs as production does (DEBUG off, a secret key: SECRET_KEY, or one generated once
# and kept in var/stack-secret-key), except for what needs HTTPS, which a local plain-HTTP stack
# has not: secure-only cookies, the redirect to https and HSTS are switched off here, and only here.
STACK_KEY_FILE := var/stack-secret-key
STACK_ENV := $(REAL_STACK_ENV) DEBUG=false SECRET_KEY="$${SECRET_KEY:-$$(cat $(STACK_KEY_FILE))}" \
	SECURE_SSL_REDIRECT=false SESSION_COOKIE_SECURE=false CSRF_COOKIE_SECURE=false SECURE_HSTS_SECONDS=0

.PHONY: setup run test test-real stack stack-key services sandbox browser lint bench

$(INSTALLED): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(INSTALLED)

setup: $(INSTALLED)

## run: migrate, load the demo data from seeds/ (new accounts' random passwords are printed once), serve HTTP and websockets on 127.0.0.1:8000
run: setup sandbox
	$(PY) manage.py migrate --noinput
	$(PY) manage.py collectstatic --noinput --verbosity 0
	$(PY) manage.py load_demo
	DB_CONN_MAX_AGE=$${DB_CONN_MAX_AGE:-60} WEB_CPU=$${WEB_CPU-0} $(VENV)/bin/uvicorn dubium.asgi:application --host $(HOST) --port $(PORT) --app-dir platform --no-proxy-headers --ws-max-size 65536

# Processes the embedded pass runs its tests in (pytest-xdist, a file to each in turn; 0: one process).
# One until two are measured faster on a quiet two-core machine (README, "Tests"), and until the schema
# fuzzing runs whole in two: its 80 cases share two test ids, which a file's scheduling keeps once each.
TEST_WORKERS ?= 0
# Processes of the real-stack pass. REAL_TEST_WORKERS=2 gives each a Redis database of its own, REDIS_URL's
# and the next (settings.py), since tests empty theirs, and pytest-django each its own test database; its
# tests mostly wait, so two took 338-420 s where one took 511 s on a shared two-core machine, but two of
# four runs there lost a browser test (a rematch notice not seen in 15 s, a page that would not close):
# one until two runs clean repeatedly.
REAL_TEST_WORKERS ?= 0

## test: the whole suite on the embedded defaults, browser tests included (README, "Tests")
test: setup sandbox browser
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n $(TEST_WORKERS) --dist loadfile

## test-real: the suite against the local PostgreSQL and Redis, less what runs once, in `make test`
test-real: services
	$(REAL_STACK_ENV) DUBIUM_REQUIRE_SERVICES=1 $(MAKE) test TEST_WORKERS=$(REAL_TEST_WORKERS)

## stack: the production shape natively: 2 ASGI servers, a Celery worker and beat on PostgreSQL and Redis.
## It creates no account: make the first one with `manage.py createsuperuser` (README).
stack: setup sandbox services stack-key
	@$(STACK_ENV) $(PY) manage.py migrate --noinput
	@$(STACK_ENV) $(PY) manage.py collectstatic --noinput --verbosity 0
	@$(STACK_ENV) DB_CONN_MAX_AGE=$${DB_CONN_MAX_AGE:-60} $(PY) -m dubium.stack --web 2 --port $(PORT)

## stack-key: the stack's secret key, unless SECRET_KEY is set: generated once into var/stack-secret-key,
## whose folder a fresh clone has not (it held only the embedded SQLite file, made by `make run`)
stack-key:
	@test -n "$$SECRET_KEY" || test -s $(STACK_KEY_FILE) || (mkdir -p $(dir $(STACK_KEY_FILE)) && umask 077 \
		&& $(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))' > $(STACK_KEY_FILE))

## services: start the local PostgreSQL and Redis if they are down, fail loudly if they stay down
services:
	DATABASE_URL=$(DATABASE_URL) bash docker/local-services.sh

# $(call apt_if_missing,FILE,PACKAGE,WHAT FAILS WITHOUT IT): Debian packages the project uses.
define apt_if_missing
@test -e $(1) || { [ "$$(id -u)" = 0 ] && apt-get update -qq && apt-get install -y -qq $(2) >/dev/null; } \
	|| echo "$(2) is missing: $(3)"
endef

## sandbox: bubblewrap and libseccomp, the walls around uploaded bots (platform/botapi/sandbox.py)
sandbox:
	$(call apt_if_missing,/usr/bin/bwrap,bubblewrap,uploaded bots cannot play)
	$(call apt_if_missing,/usr/lib/x86_64-linux-gnu/libseccomp.so.2,libseccomp2,uploaded bots cannot play without their seccomp filter)

## browser: Debian's chromium for the Playwright tests
browser:
	$(call apt_if_missing,/usr/bin/chromium,chromium,browser tests will fail)

lint: setup
	$(VENV)/bin/ruff check .

## bench: engine speed next to OpenSpiel (figures go to docs/performance.md with ARGS=--write)
bench: setup
	$(PY) -m pip install --quiet -e '.[dev,bench]'
	$(PY) bench/engines.py $(ARGS)
