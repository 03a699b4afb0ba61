"""Run a command in a network namespace of its own with only the loopback interface up (root only).

    python -m tools.evaluator.netns -- ncu ... python -m tools.evaluator.runner ...

A runner leaves the network by unsharing its namespace (tools/evaluator/confine.py), which leaves it no
loopback either. Under ncu that hung the profile stage (H200, 2026-12-02): ncu's frontend and the
process it profiles talk over TCP on localhost. So the profiler and the runner share one namespace
made here, which reaches nothing beyond its own loopback, and the runner does not unshare again.
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import socket
import struct
import sys

from tools.evaluator.confine import CLONE_NEWNET

SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def loopback_up() -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH", b"lo", 0)
        flags = struct.unpack("16sH", fcntl.ioctl(s, SIOCGIFFLAGS, request)[:18])[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH", b"lo", flags | IFF_UP))


def main(argv: list[str]) -> int:
    if not argv or argv[0] != "--" or len(argv) < 2:
        print("usage: python -m tools.evaluator.netns -- COMMAND [ARGS...]", file=sys.stderr)
        return 2
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(CLONE_NEWNET) != 0:
        print(f"netns: unshare failed: {os.strerror(ctypes.get_errno())}", file=sys.stderr)
        return 1
    loopback_up()
    os.execvp(argv[1], argv[1:])
    return 1  # not reached


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
