"""`make stack`: the production process layout, natively, on local PostgreSQL and Redis.

Starts N uvicorn ASGI servers (ports PORT, PORT+1, ...), one Celery worker and
Celery beat, streams their output and stops them all on Ctrl-C or when one dies.
docker/compose.yaml runs the same processes in containers.
"""

import argparse
import os
import signal
import subprocess
import sys
import time


def commands(web: int, port: int) -> list[tuple[str, list[str]]]:
    python = sys.executable
    processes = [
        (
            f"web{i}",
            [python, "-m", "uvicorn", "dubium.asgi:application", "--host", "127.0.0.1", "--port", str(port + i),
             "--timeout-graceful-shutdown", "10"],
        )
        for i in range(web)
    ]
    processes.append(
        ("worker", [python, "-m", "celery", "-A", "dubium", "worker", "--loglevel", "INFO", "--concurrency", "2"])
    )
    processes.append(
        (
            "beat",
            [
                python,
                "-m",
                "celery",
                "-A",
                "dubium",
                "beat",
                "--loglevel",
                "INFO",
                "--schedule",
                "var/celerybeat-schedule",
            ],
        )
    )
    return processes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--web", type=int, default=2)
    parser.add_argument("--port", type=int, default=8000)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL") or not os.environ.get("REDIS_URL"):
        parser.error("set DATABASE_URL and REDIS_URL (see README, Configuration)")
    os.makedirs("var", exist_ok=True)
    running = [(name, subprocess.Popen(cmd)) for name, cmd in commands(args.web, args.port)]
    print("Dubium stack: " + ", ".join(f"{name} pid {proc.pid}" for name, proc in running), flush=True)
    try:
        while all(proc.poll() is None for _, proc in running):
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    for _, proc in running:
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for _, proc in running:
        proc.wait(timeout=20)
    return max((proc.returncode or 0) for _, proc in running)


if __name__ == "__main__":
    sys.exit(main())
