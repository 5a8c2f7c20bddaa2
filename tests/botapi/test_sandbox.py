"""The sandbox's walls, tried from inside by hostile bots."""

import time

import pytest

from botapi import sandbox

pytestmark = pytest.mark.once  # the sandbox is the same on any stack
LIMITS = sandbox.Limits(seconds=1.5, memory_mb=128)
REQUEST = {"view": {"seat": 0}, "legal": [{"type": "doubt"}, {"type": "pass"}]}


@pytest.fixture(autouse=True)
def sandbox_installed():
    assert sandbox.available(LIMITS), "the sandbox needs bubblewrap and python3: make test installs them"


def run(source: str):
    return sandbox.run(source, REQUEST, LIMITS)


def test_a_bot_gets_the_view_and_legal_actions_and_its_answer_comes_back():
    answer = run("def choose(view, legal):\n    return {**legal[1], 'seat': view['seat']}\n")
    assert answer == {"type": "pass", "seat": 0}


def test_what_a_bot_prints_does_not_spoil_its_answer():
    assert run("def choose(view, legal):\n    print('thinking...')\n    return legal[0]\n") == {"type": "doubt"}


def test_an_endless_loop_is_cut_off_at_the_deadline():
    started = time.monotonic()
    with pytest.raises(sandbox.SandboxError, match="longer than 1.5 s"):
        run("def choose(view, legal):\n    while True:\n        pass\n")
    assert time.monotonic() - started < 6, "killed at the deadline, not left to run"


def test_a_memory_hog_crashes_alone():
    with pytest.raises(sandbox.SandboxError, match="MemoryError"):
        run("def choose(view, legal):\n    hog = bytearray(1024 ** 3)\n    return legal[0]\n")


def test_the_bot_sees_no_project_files_no_secrets_and_is_nobody():
    seen = run(
        "import os\n"
        "def choose(view, legal):\n"
        "    return {'root': sorted(os.listdir('/')), 'uid': os.getuid(), 'env': sorted(os.environ),\n"
        "            'etc': os.path.exists('/etc/passwd'), 'home': os.path.exists('/root')}\n"
    )
    assert seen["root"] == ["bin", "bot", "dev", "lib", "lib64", "proc", "tmp", "usr"]
    assert seen["uid"] == 65534 and not seen["etc"] and not seen["home"]
    assert all(not name.endswith(("KEY", "URL", "PASSWORD")) for name in seen["env"])


def test_the_bot_has_no_network():
    with pytest.raises(sandbox.SandboxError, match="Connection refused|Network is unreachable|OSError"):
        run(
            "import socket\n"
            "def choose(view, legal):\n"
            "    socket.create_connection(('127.0.0.1', 5432), timeout=1)\n"
        )


def test_the_bot_cannot_write_its_own_code_or_the_system():
    answer = run(
        "def choose(view, legal):\n"
        "    results = {}\n"
        "    for path in ('/bot/bot.py', '/usr/evil', '/tmp/scratch'):\n"
        "        try:\n"
        "            open(path, 'w').write('x')\n"
        "            results[path] = 'written'\n"
        "        except OSError as error:\n"
        "            results[path] = type(error).__name__\n"
        "    return results\n"
    )
    assert answer["/bot/bot.py"] != "written" and answer["/usr/evil"] != "written"
    assert answer["/tmp/scratch"] == "written", "scratch space is allowed, and thrown away"


@pytest.mark.parametrize(
    "source, message",
    [
        ("x = ", "crashed"),
        ("def choose(view, legal):\n    raise ValueError('no idea')\n", "ValueError: no idea"),
        ("def decide(view, legal):\n    return legal[0]\n", "must define choose"),
        ("def choose(view, legal):\n    return {1, 2}\n", "crashed"),
        ("import sys\ndef choose(view, legal):\n    sys.__stdout__.write('not json')\n    sys.exit(0)\n", "not JSON"),
        ("def choose(view, legal):\n    return 'x' * 100000\n", "longer than"),
    ],
)
def test_a_broken_bot_gets_a_message_its_author_can_act_on(source, message):
    with pytest.raises(sandbox.SandboxError, match=message):
        run(source)
