#!/usr/bin/env bash
# Start this machine's PostgreSQL and Redis when they are down; fail loudly if they stay down.
set -u
# DATABASE_URL's database name when the URL names the local server (127.0.0.1 or localhost, port
# 5432 or none); empty for any other server, whose databases are not ours to create.
database=$(python3 -c '
import os, re, urllib.parse
url = urllib.parse.urlparse(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/dubium"))
local = url.scheme.startswith("postgres") and url.hostname in ("127.0.0.1", "localhost") and url.port in (None, 5432)
name = url.path.lstrip("/")
print(name if local and re.fullmatch(r"[A-Za-z0-9_]+", name) else "")
')
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start 2>/dev/null || true
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log 2>/dev/null || true
fi
for _ in $(seq 30); do
    if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        # The database DATABASE_URL names, when it is on this machine's server (tests make test_<name>
        # from it); the machine's others stay untouched.
        if [ -n "$database" ]; then
            psql -h 127.0.0.1 -U postgres -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = '$database'" \
                | grep -q 1 || createdb -h 127.0.0.1 -U postgres "$database"
        fi
        exit 0
    fi
    sleep 1
done
echo "PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) cannot be reached" >&2
exit 1
