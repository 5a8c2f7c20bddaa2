"""`make stack`: the production process layout, natively, on local PostgreSQL and Redis.

Starts N uvicorn ASGI servers (ports PORT, PORT+1, ...), one Celery worker, one for
bot calls and Celery beat, streams their output, starts again any that dies (as a container's restart
policy does: a Celery worker exits when its Redis connection drops while it holds ETA
tasks) and stops them all on Ctrl-C. docker/compose.yaml runs the same processes in containers.
"""

import argparse
import os
import signal
import subprocess
import sys
import time

RESTART_PAUSE_SECONDS = 1


def commands(web: int, port: int) -> list[tuple[str, list[str]]]:
    python = sys.executable
    processes = [
        (
            f"web{i}",
            ["env", f"WEB_CPU={i}", python, "-m", "uvicorn", "dubium.asgi:application", "--host", "127.0.0.1",
             "--port", str(port + i), "--no-proxy-headers", "--timeout-graceful-shutdown", "10",
             "--ws-max-size", "65536"],
        )
        for i in range(web)
    ]
    queue = os.environ.get("CELERY_QUEUE", "celery")
    bot_queue = os.environ.get("BOT_QUEUE", f"{queue}-bots")  # as settings.py names them
    worker = [python, "-m", "celery", "-A", "dubium", "worker", "--loglevel", "INFO"]
    processes.append(("worker", [*worker, "--queues", queue, "--concurrency", "2"]))
    # Bot calls on a worker of their own: its tasks hand each call to its bot threads (asking.py).
    processes.append(("bots", [*worker, "--queues", bot_queue, "--pool", "solo", "--hostname", "bots@%h"]))
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
    specs = dict(commands(args.web, args.port))
    running = {name: subprocess.Popen(cmd) for name, cmd in specs.items()}
    print("Dubium stack: " + ", ".join(f"{name} pid {proc.pid}" for name, proc in running.items()), flush=True)
    try:
        while True:
            for name, proc in running.items():
                if proc.poll() is not None:
                    print(f"Dubium stack: {name} exited with {proc.returncode}, starting it again", flush=True)
                    time.sleep(RESTART_PAUSE_SECONDS)
                    running[name] = subprocess.Popen(specs[name])
            time.sleep(0.5)
    except KeyboardInterrupt:
        pass
    for proc in running.values():
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
    for proc in running.values():
        proc.wait(timeout=20)
    return 0

if __name__ == "__main__":
    sys.exit(main())
