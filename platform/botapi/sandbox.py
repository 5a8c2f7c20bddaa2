"""Uploaded bots run here: one short-lived process per move, walled in by bubblewrap.

No Django import: this module takes source text and a request and gives back an action
or a SandboxError saying what went wrong, in words the bot's author can act on.

The walls (docs/sandbox.md, docs/security.md): Debian's own python3 with the standard library
only; a root file system of /usr (read-only) and a small empty /tmp, so the site, its
settings and its database are not there to read; no network (a namespace of its own);
nobody's user id; a fresh session; a seccomp filter that refuses new processes and the
kernel's more dangerous corners, so the bot is one process and its memory limit (address
space) bounds the whole bot, threads included; at most MAX_THREADS threads; limits on CPU time,
file size and open files; a low CPU priority on every core, whatever core the server's process
is pinned to; a wall-clock deadline after which the process group is killed. Its output is read
as it comes: at most 64 KB of answer and a short tail of what it prints, and a bot that
writes more is killed at once, so a chatty bot cannot grow the server's memory.
"""

import errno
import json
import os
import resource
import selectors
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

try:
    import pyseccomp as seccomp
except (RuntimeError, OSError):  # Debian's libseccomp2 is missing: no bot runs without its filter
    seccomp = None

HARNESS = Path(__file__).with_name("harness.py")
MAX_ANSWER_BYTES = 65536
MAX_PRINTED_BYTES = 262144  # what a bot may print (to stderr) in one move before it is killed
KEPT_PRINTED_BYTES = 4096  # the tail of it kept for the crash message
TMP_BYTES = 8 * 1024 * 1024
MAX_THREADS = 32  # the main one included
NICENESS = 10  # below the site's processes: a busy bot slows other bots, not moves and clocks
# A server running as root runs each bot as a user id of its own (this base plus the id of the
# server's thread, unique on the machine while it runs): the kernel does not enforce the thread
# limit on root's processes, and a shared id would count one bot's threads against another's.
BOT_UID_BASE = 2_000_000_000
CLONE_THREAD = 0x00010000
# Syscalls a bot never needs; each would widen the kernel surface it can reach.
REFUSED_SYSCALLS = (
    "fork", "vfork", "ptrace", "process_vm_readv", "process_vm_writev", "unshare", "setns", "mount",
    "umount2", "pivot_root", "chroot", "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key",
    "request_key", "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "kexec_load", "init_module", "finit_module", "delete_module", "syslog",
    "personality", "acct", "swapon", "swapoff", "reboot", "quotactl", "mknod", "mknodat",
)  # fmt: skip


class SandboxError(Exception):
    """The bot gave no usable answer; the message is for its author, with where its code broke
    (`traceback`, bot.py's frames only) and the last lines it printed (`printed`) when known."""

    def __init__(self, message: str, traceback: str = "", printed: str = ""):
        super().__init__(message)
        self.traceback = traceback
        self.printed = printed


@dataclass(frozen=True)
class Limits:
    seconds: float = 2.0
    memory_mb: int = 256
    python: str = "/usr/bin/python3"


def available(limits: Limits = Limits()) -> bool:
    tools = (shutil.which("bwrap"), "/usr/bin/prlimit", limits.python)
    return seccomp is not None and all(tool and Path(tool).exists() for tool in tools)


@cache
def seccomp_program() -> bytes:
    """The compiled BPF filter bubblewrap installs on the bot before python starts.

    Processes: fork and vfork fail, clone works only for threads (CLONE_THREAD), and clone3
    answers "not implemented" so the C library falls back to clone for its threads.
    Syscalls of another architecture (x32, i386) kill the bot: libseccomp's default.
    """
    rules = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in REFUSED_SYSCALLS:
        rules.add_rule(seccomp.ERRNO(errno.EPERM), name)
    rules.add_rule(seccomp.ERRNO(errno.EPERM), "clone", seccomp.Arg(0, seccomp.MASKED_EQ, CLONE_THREAD, 0))
    rules.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    with tempfile.TemporaryFile() as program:
        rules.export_bpf(program)
        program.seek(0)
        return program.read()


def run(source: str, request: dict, limits: Limits = Limits()) -> object:
    """The bot's answer to one request ({"view", "legal", ...}), parsed from JSON."""
    if not available(limits):
        raise SandboxError(
            "The bot sandbox is not installed on this server (bubblewrap, libseccomp, prlimit and python3 are needed)."
        )
    with tempfile.TemporaryDirectory(prefix="dubium-bot-") as folder:
        Path(folder, "bot.py").write_text(source, encoding="utf-8")
        shutil.copy(HARNESS, Path(folder, "harness.py"))
        for path in Path(folder).iterdir():
            path.chmod(0o644)  # readable by the bot's user id
        os.chmod(folder, 0o755)
        bot_uid = BOT_UID_BASE + threading.get_native_id()
        filter_fd = os.memfd_create("dubium-bot-seccomp")
        try:
            os.write(filter_fd, seccomp_program())
            os.lseek(filter_fd, 0, os.SEEK_SET)
            process = subprocess.Popen(
                command(folder, limits, filter_fd),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                pass_fds=(filter_fd,),
                start_new_session=True,
                preexec_fn=lambda: apply_limits(limits, bot_uid),
                env={"PATH": "/usr/bin", "LANG": "C.UTF-8"},
            )
        finally:
            os.close(filter_fd)
        try:
            answer, printed = exchange(process, (json.dumps(request) + "\n").encode(), limits.seconds)
        finally:
            stop(process)
    if process.returncode != 0:
        trace = crash_traceback(answer)
        said = last_line(trace) + where_in_bot(trace) if trace else last_line(printed)
        raise SandboxError(
            f"The bot crashed: {said or f'exit status {process.returncode}'}", trace, last_lines(printed)
        )
    try:
        return json.loads(answer)
    except (ValueError, RecursionError):
        raise SandboxError("The bot's answer is not JSON: return a dict from choose().") from None


def exchange(process: subprocess.Popen, request: bytes, seconds: float) -> tuple[bytes, str]:
    """Sends the request and reads the answer and the printed tail, never more than the limits."""
    deadline = time.monotonic() + seconds
    answer, printed, printed_total = bytearray(), b"", 0
    outputs = {process.stdout, process.stderr}
    os.set_blocking(process.stdin.fileno(), False)
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdin, selectors.EVENT_WRITE)
        for pipe in outputs:
            selector.register(pipe, selectors.EVENT_READ)
        while outputs:
            left = deadline - time.monotonic()
            if left <= 0:
                tail = last_lines(printed.decode("utf-8", "replace"))
                raise SandboxError(f"The bot took longer than {seconds:g} s to answer.", printed=tail)
            for key, _ in selector.select(left):
                if key.fileobj is process.stdin:
                    request = send(process, request)
                    if not request:
                        selector.unregister(process.stdin)
                        process.stdin.close()
                    continue
                chunk = os.read(key.fileobj.fileno(), 65536)
                if not chunk:
                    selector.unregister(key.fileobj)
                    outputs.discard(key.fileobj)
                elif key.fileobj is process.stdout:
                    answer += chunk
                    if len(answer) > MAX_ANSWER_BYTES:
                        raise SandboxError(f"The bot's answer is longer than {MAX_ANSWER_BYTES} bytes.")
                else:
                    printed_total += len(chunk)
                    printed = (printed + chunk)[-KEPT_PRINTED_BYTES:]
                    if printed_total > MAX_PRINTED_BYTES:
                        raise SandboxError(f"The bot printed more than {MAX_PRINTED_BYTES // 1024} KB in one move.")
    try:
        process.wait(max(0.0, deadline - time.monotonic()))
    except subprocess.TimeoutExpired:
        raise SandboxError(f"The bot took longer than {seconds:g} s to answer.") from None
    return bytes(answer), printed.decode("utf-8", "replace")


def send(process: subprocess.Popen, request: bytes) -> bytes:
    """Writes what the pipe takes now; what is left to send. A bot that stops reading has it all."""
    try:
        return request[os.write(process.stdin.fileno(), request) :]
    except BlockingIOError:
        return request
    except BrokenPipeError:
        return b""


def stop(process: subprocess.Popen) -> None:
    """Kills what is left of the bot (its pid namespace dies with bubblewrap) and closes the pipes."""
    if process.poll() is None:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
    for pipe in (process.stdin, process.stdout, process.stderr):
        if not pipe.closed:
            pipe.close()


def command(folder: str, limits: Limits, filter_fd: int) -> list[str]:
    return [
        "bwrap",
        "--ro-bind", "/usr", "/usr",
        "--symlink", "usr/lib", "/lib",
        "--symlink", "usr/lib64", "/lib64",
        "--symlink", "usr/bin", "/bin",
        "--ro-bind", folder, "/bot",
        "--size", str(TMP_BYTES), "--tmpfs", "/tmp",
        "--proc", "/proc",
        "--dev", "/dev",
        "--chdir", "/bot",
        "--unshare-all",
        "--uid", "65534",
        "--gid", "65534",
        "--die-with-parent",
        "--new-session",
        "--seccomp", str(filter_fd),
        # Threads count as processes for this limit, counted inside the bot's own namespaces.
        "/usr/bin/prlimit", f"--nproc={MAX_THREADS + 1}",  # + bubblewrap's init process
        limits.python, "-I", "-S", "-B", "harness.py",
    ]  # fmt: skip


def apply_limits(limits: Limits, bot_uid: int) -> None:
    """In the child before bwrap starts: limits that the bot inherits and cannot raise, every core
    (a web process pins itself to one, WEB_CPU), and, for a server running as root, the bot's own
    user id."""
    cpu = int(limits.seconds) + 1
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    memory = limits.memory_mb * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    resource.setrlimit(resource.RLIMIT_FSIZE, (1024 * 1024, 1024 * 1024))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    os.sched_setaffinity(0, range(os.cpu_count() or 1))  # the kernel keeps those it allows
    os.nice(NICENESS)
    if os.geteuid() == 0:
        os.setgroups([])
        os.setresgid(bot_uid, bot_uid, bot_uid)
        os.setresuid(bot_uid, bot_uid, bot_uid)


def crash_traceback(answer: bytes) -> str:
    """The harness's account of a crash (harness.py), if it could give one."""
    try:
        return str(json.loads(answer).get("traceback", ""))
    except (ValueError, AttributeError, RecursionError):
        return ""


def where_in_bot(trace: str) -> str:
    """ " (bot.py line 12)": the innermost line of the bot's own code in a traceback."""
    lines = [line for line in trace.splitlines() if line.strip().startswith('File "bot.py", line ')]
    return f" (bot.py line {lines[-1].split('line ')[1].split(',')[0]})" if lines else ""


def last_lines(text: str, count: int = 20) -> str:
    """The last lines the bot printed, what its author reads beside the error."""
    return "\n".join(text.rstrip().splitlines()[-count:])


def last_line(text: str) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""
