"""Hostile uploads against the sandbox: the whole bot is held, not each of its processes."""

import os
import time
import tracemalloc

import pytest

from botapi import sandbox
from tests.botapi.test_sandbox import LIMITS, run, sandbox_installed  # noqa: F401 (the same fixture and limits)

pytestmark = pytest.mark.once  # the sandbox is the same on any stack


def test_a_fork_bomb_gets_no_second_process():
    answer = run(
        "import os, subprocess\n"
        "def choose(view, legal):\n"
        "    born = 0\n"
        "    for _ in range(50):\n"
        "        try:\n"
        "            if os.fork() == 0:\n"
        "                os._exit(0)\n"
        "            born += 1\n"
        "        except OSError:\n"
        "            pass\n"
        "    try:\n"
        "        subprocess.run(['/usr/bin/true'])\n"
        "        spawned = True\n"
        "    except OSError:\n"
        "        spawned = False\n"
        "    return {'born': born, 'spawned': spawned}\n"
    )
    assert answer == {"born": 0, "spawned": False}


def test_threads_still_work_and_share_one_memory_limit():
    answer = run(
        "import threading\n"
        "def choose(view, legal):\n"
        "    results = []\n"
        "    def hog():\n"
        "        try:\n"
        "            results.append(bytearray(100 * 1024 * 1024))\n"
        "        except MemoryError:\n"
        "            results.append(None)\n"
        "    started = []\n"
        "    for _ in range(6):\n"
        "        try:\n"
        "            started.append(threading.Thread(target=hog))\n"
        "            started[-1].start()\n"
        "        except RuntimeError:\n"
        "            started.pop()\n"
        "    for thread in started:\n"
        "        thread.join()\n"
        "    return {'threads': len(started), 'got': sum(1 for r in results if r is not None)}\n"
    )
    assert answer["threads"] >= 1 and answer["got"] <= 1, "six threads of 100 MB do not fit in one 128 MB bot"


def test_scratch_space_in_tmp_is_bounded():
    answer = run(
        "def choose(view, legal):\n"
        "    written = 0\n"
        "    try:\n"
        "        for i in range(64):\n"
        "            with open(f'/tmp/f{i}', 'wb') as f:\n"
        "                f.write(b'x' * 1024 * 1000)\n"
        "            written += 1\n"
        "    except OSError:\n"
        "        pass\n"
        "    return {'written': written}\n"
    )
    assert answer["written"] < 16


def test_a_bot_that_floods_stderr_is_killed_and_costs_the_server_no_memory():
    tracemalloc.start()
    started = time.monotonic()
    try:
        with pytest.raises(sandbox.SandboxError, match="printed more than"):
            run("import sys\ndef choose(view, legal):\n    while True:\n        sys.stderr.write('x' * 65536)\n")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.monotonic() - started < 1.4, "killed when it wrote past the limit, not at the deadline"
    assert peak < 2 * 1024 * 1024


def test_a_bot_that_floods_stdout_is_killed_at_the_answer_limit():
    with pytest.raises(sandbox.SandboxError, match="longer than 65536 bytes"):
        run("import sys\ndef choose(view, legal):\n    while True:\n        sys.__stdout__.write('x' * 65536)\n")


def test_a_crash_message_keeps_the_last_printed_line():
    with pytest.raises(sandbox.SandboxError, match="ValueError: last words"):
        run("def choose(view, legal):\n    print('noise\\n' * 10000)\n    raise ValueError('last words')\n")


def test_a_bot_that_never_reads_a_large_request_still_meets_the_deadline():
    big = {"view": {"pad": "x" * 300000}, "legal": [{"type": "pass"}]}
    with pytest.raises(sandbox.SandboxError, match="longer than 1.5 s"):
        sandbox.run("import time\ntime.sleep(10)\n", big, LIMITS)


def test_the_kernel_s_dangerous_corners_are_closed():
    answer = run(
        "import ctypes, os\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "def choose(view, legal):\n"
        "    refused = {}\n"
        "    for name, number in (('ptrace', 101), ('unshare', 272), ('bpf', 321), ('io_uring_setup', 425)):\n"
        "        libc.syscall(number, 0, 0, 0)\n"
        "        refused[name] = ctypes.get_errno() == 1\n"
        "    return refused\n"
    )
    assert answer == {"ptrace": True, "unshare": True, "bpf": True, "io_uring_setup": True}


def test_a_bot_starts_no_more_threads_than_its_limit():
    answer = run(
        "import threading\n"
        "def choose(view, legal):\n"
        "    threading.stack_size(32768)  # small stacks: the memory limit alone let 751 start\n"
        "    hold, started = threading.Event(), 0\n"
        "    try:\n"
        "        for _ in range(1000):\n"
        "            threading.Thread(target=hold.wait).start()\n"
        "            started += 1\n"
        "    except RuntimeError:\n"
        "        pass\n"
        "    hold.set()\n"
        "    return {'started': started}\n"
    )
    assert 1 <= answer["started"] < sandbox.MAX_THREADS


def test_a_bot_runs_on_every_core_below_the_site_s_priority_whatever_the_server_is_pinned_to():
    cores = os.sched_getaffinity(0)
    if len(cores) < 2:
        pytest.skip("one core: nothing to pin to")
    os.sched_setaffinity(0, {min(cores)})  # as WEB_CPU pins a web process
    try:
        answer = run("import os\ndef choose(view, legal):\n    return [len(os.sched_getaffinity(0)), os.nice(0)]\n")
    finally:
        os.sched_setaffinity(0, cores)
    assert answer == [len(cores), sandbox.NICENESS]
