#!/usr/bin/env bash
# Start this machine's PostgreSQL and Redis when they are down; fail loudly if they stay down.
set -u
if ! pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start 2>/dev/null || true
fi
if ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
    redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir /var/lib/redis --logfile /var/log/redis/ci.log 2>/dev/null || true
fi
for _ in $(seq 30); do
    if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null && redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
        # Dubium's own database (tests make test_dubium from it); the machine's others stay untouched.
        psql -h 127.0.0.1 -U postgres -d postgres -Atc "SELECT 1 FROM pg_database WHERE datname = 'dubium'" | grep -q 1 \
            || createdb -h 127.0.0.1 -U postgres dubium
        exit 0
    fi
    sleep 1
done
echo "PostgreSQL (127.0.0.1:5432) or Redis (127.0.0.1:6379) cannot be reached" >&2
exit 1
