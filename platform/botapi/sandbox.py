"""Uploaded bots run here: one short-lived process per move, walled in by bubblewrap.

No Django import: this module takes source text and a request and gives back an action
or a SandboxError saying what went wrong, in words the bot's author can act on.

The walls (docs/sandbox.md): Debian's own python3 with the standard library only; a root
file system of /usr (read-only) and an empty /tmp, so the site, its settings and its
database are not there to read; no network (a namespace of its own); nobody's user id;
a fresh session; limits on CPU time, memory, file size and processes; a wall-clock
deadline after which the process group is killed; at most 64 KB of answer.
"""

import json
import os
import resource
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

HARNESS = Path(__file__).with_name("harness.py")
MAX_ANSWER_BYTES = 65536


class SandboxError(Exception):
    """The bot gave no usable answer; the message is for its author."""


@dataclass(frozen=True)
class Limits:
    seconds: float = 2.0
    memory_mb: int = 256
    python: str = "/usr/bin/python3"


def available(limits: Limits = Limits()) -> bool:
    return shutil.which("bwrap") is not None and Path(limits.python).exists()


def run(source: str, request: dict, limits: Limits = Limits()) -> object:
    """The bot's answer to one request ({"view", "legal", ...}), parsed from JSON."""
    if not available(limits):
        raise SandboxError("The bot sandbox is not installed on this server (bubblewrap and python3 are needed).")
    with tempfile.TemporaryDirectory(prefix="dubium-bot-") as folder:
        Path(folder, "bot.py").write_text(source, encoding="utf-8")
        shutil.copy(HARNESS, Path(folder, "harness.py"))
        os.chmod(folder, 0o755)
        try:
            finished = subprocess.run(
                command(folder, limits),
                input=json.dumps(request) + "\n",
                capture_output=True,
                text=True,
                timeout=limits.seconds,
                preexec_fn=lambda: apply_limits(limits),
                env={"PATH": "/usr/bin", "LANG": "C.UTF-8"},
            )
        except subprocess.TimeoutExpired:
            raise SandboxError(f"The bot took longer than {limits.seconds:g} s to answer.") from None
    if finished.returncode != 0:
        raise SandboxError(f"The bot crashed: {last_line(finished.stderr) or f'exit status {finished.returncode}'}")
    if len(finished.stdout) > MAX_ANSWER_BYTES:
        raise SandboxError(f"The bot's answer is longer than {MAX_ANSWER_BYTES} bytes.")
    try:
        return json.loads(finished.stdout)
    except ValueError:
        raise SandboxError("The bot's answer is not JSON: return a dict from choose().") from None


def command(folder: str, limits: Limits) -> list[str]:
    return [
        "bwrap",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib",
        "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin",
        "--ro-bind", folder, "/bot",
        "--tmpfs", "/tmp",
        "--proc", "/proc",
        "--dev", "/dev",
        "--chdir", "/bot",
        "--unshare-all",
        "--uid", "65534",
        "--gid", "65534",
        "--die-with-parent",
        "--new-session",
        limits.python, "-I", "-S", "-B", "harness.py",
    ]  # fmt: skip


def apply_limits(limits: Limits) -> None:
    """In the child before bwrap starts: limits that the bot inherits and cannot raise."""
    cpu = int(limits.seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    memory = limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""
