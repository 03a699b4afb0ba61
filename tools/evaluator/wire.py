"""The judge <-> runner protocol: length-prefixed JSON messages over a socket pair, fds alongside.

JSON both ways, never pickle: what a runner sends is data the judge parses with pydantic, so a
hostile runner can say wrong things (which the judge does not believe) but cannot run code in
the judge. File descriptors (shared buffers) travel with SCM_RIGHTS on the first byte of a message.
"""

from __future__ import annotations

import json
import socket
import struct
import time
from typing import Any

from pydantic import BaseModel, Field

HEADER = struct.Struct("!I")
# A runner's reply at most (generated kernel sources are the largest); more is a protocol error.
MAX_REPLY_BYTES = 32 * 2**20


class WireError(RuntimeError):
    """The peer hung up, sent something that is not a message, or did not answer in time."""


class Reply(BaseModel):
    """What a runner says back. `ok` False carries the candidate's error text (shown, never trusted)."""

    ok: bool
    error: str | None = None
    import_seconds: float | None = None
    facts: dict[str, Any] = Field(default_factory=dict)
    returned_out: bool | None = Field(default=None, description="the op returned the `out=` it was given")
    returned: str | None = Field(default=None, description="the type of what the last call returned")
    self_us: float | None = Field(default=None, description="the runner's own CUDA-event time per call")
    seconds: dict[str, float] = Field(default_factory=dict)
    sources: dict[str, str] = Field(default_factory=dict)
    language: str | None = None
    errors: dict[str, str] = Field(default_factory=dict)
    refused: dict[str, str] = Field(default_factory=dict, description="calls that refused strided views, and why")


def send(sock: socket.socket, message: dict, fds: list[int] | None = None) -> None:
    data = json.dumps(message).encode()
    payload = HEADER.pack(len(data)) + data
    if fds:
        socket.send_fds(sock, [payload[:1]], fds)
        payload = payload[1:]
    sock.sendall(payload)


def _read_exactly(sock: socket.socket, size: int, deadline: float | None) -> bytes:
    chunks, got = [], 0
    while got < size:
        if deadline is not None:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise TimeoutError
            sock.settimeout(remaining)
        try:
            chunk = sock.recv(min(size - got, 1 << 20))
        except TimeoutError:
            raise
        except OSError as err:
            raise WireError(f"the connection broke: {err}") from err
        if not chunk:
            raise WireError("the peer closed the connection")
        chunks.append(chunk)
        got += len(chunk)
    return b"".join(chunks)


def receive(
    sock: socket.socket, *, deadline: float | None = None, max_bytes: int = MAX_REPLY_BYTES, fds: int = 0
) -> tuple[dict, list[int]]:
    """One message (and up to `fds` descriptors). Raises TimeoutError past `deadline` (monotonic)."""
    received: list[int] = []
    first = b""
    if fds:
        if deadline is not None:
            sock.settimeout(max(deadline - time.monotonic(), 1e-3))
        first, received, _flags, _addr = socket.recv_fds(sock, 1, fds)
        if not first:
            raise WireError("the peer closed the connection")
    header = first + _read_exactly(sock, HEADER.size - len(first), deadline)
    (size,) = HEADER.unpack(header)
    if size > max_bytes:
        raise WireError(f"a message of {size} bytes is over the {max_bytes}-byte limit")
    body = _read_exactly(sock, size, deadline)
    try:
        message = json.loads(body)
    except ValueError as err:
        raise WireError(f"not a JSON message: {err}") from err
    if not isinstance(message, dict):
        raise WireError("a message must be a JSON object")
    return message, received
