"""tools/evaluator/netns.py: a namespace of one's own where loopback works and nothing else is reachable."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tools.evaluator import confine

pytestmark = pytest.mark.skipif(not confine.is_root(), reason="a network namespace needs root")

PROBE = """
import socket
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen()
socket.create_connection(server.getsockname(), timeout=2).close()
print("loopback ok")
try:
    socket.create_connection(("192.0.2.1", 80), timeout=2)
    print("outside reached")
except OSError as err:
    print("outside unreachable:", err.errno)
"""


def test_loopback_works_and_nothing_else_is_reachable():
    done = subprocess.run(
        [sys.executable, "-m", "tools.evaluator.netns", "--", sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert "loopback ok" in done.stdout and "outside unreachable" in done.stdout, done.stdout


def test_a_missing_command_is_a_usage_error():
    done = subprocess.run([sys.executable, "-m", "tools.evaluator.netns"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "usage" in done.stderr
