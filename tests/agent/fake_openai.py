"""A real HTTP server that speaks the OpenAI chat-completions API, for tests.

It listens on 127.0.0.1 (a free port) in a background thread, answers
`POST /v1/chat/completions` from a script of entries, in order, and records every
request body it received. Script entries:

- a `str` or `Reply`: a `chat.completion` whose message content is that text;
- `Status(code, headers)`: an HTTP error with an OpenAI-style error body
  (e.g. 429 with `Retry-After: 0`, or 500);
- `Stall(seconds)`: answers only after `seconds`, so a client with a shorter timeout gives up;
- `Hangup()`: starts a 200 reply, sends part of the body and closes the connection.

When the script runs out it answers 500 with `x-should-retry: false`, so a test that
asks more than it scripted fails at once instead of retrying.
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHAT_PATH = "/v1/chat/completions"


@dataclass
class Reply:
    content: str
    finish_reason: str = "stop"
    prompt_tokens: int = 100
    completion_tokens: int = 50


@dataclass
class Status:
    code: int
    headers: dict[str, str] = field(default_factory=dict)
    message: str = "scripted error"


@dataclass
class Stall:
    seconds: float


@dataclass
class Hangup:
    """Closes the connection halfway through a reply's body."""


Entry = str | Reply | Status | Stall | Hangup


class FakeOpenAI:
    """`with FakeOpenAI([...]) as server:` serves the script at `server.base_url` until the block ends."""

    def __init__(self, script: list[Entry] | None = None):
        self.script: list[Entry] = list(script or [])
        self.requests: list[dict] = []  # request bodies, in arrival order
        self.headers: list[dict[str, str]] = []  # their HTTP headers (names lower-cased)
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler_class())
        # Don't wait at close for a handler still stalling or holding a keep-alive connection.
        self._server.block_on_close = False
        # A short poll interval: shutdown() waits up to one interval, once per test.
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, name="fake-openai", daemon=True
        )
        self._created = 0

    @property
    def base_url(self) -> str:
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> FakeOpenAI:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def _next(self, body: dict, headers: dict[str, str]) -> tuple[Entry | None, int]:
        with self._lock:
            self.requests.append(body)
            self.headers.append(headers)
            self._created += 1
            return (self.script.pop(0) if self.script else None), self._created

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: object) -> None:  # keep pytest output clean
                pass

            def _send(self, code: int, payload: dict, headers: dict[str, str] | None = None) -> None:
                data = json.dumps(payload).encode()
                try:
                    self.send_response(code)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for name, value in (headers or {}).items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(data)
                except (BrokenPipeError, ConnectionResetError):  # the client gave up (timeout test)
                    self.close_connection = True

            def _error(self, code: int, message: str, headers: dict[str, str] | None = None) -> None:
                error = {"message": message, "type": "server_error", "param": None, "code": str(code)}
                self._send(code, {"error": error}, headers)

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", 0))
                raw = self.rfile.read(length)
                if self.path != CHAT_PATH:
                    self._error(404, f"no route {self.path}")
                    return
                body = json.loads(raw)
                entry, number = fake._next(body, {k.lower(): v for k, v in self.headers.items()})
                if isinstance(entry, Stall):
                    time.sleep(entry.seconds)
                    # By now the client has given up on this request; its retry takes the next entry.
                    self.close_connection = True
                    return
                if isinstance(entry, Hangup):
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", "4096")
                    self.end_headers()
                    self.wfile.write(b'{"id": "chatcmpl-cut", "object": "chat.compl')
                    self.wfile.flush()
                    self.close_connection = True
                    return
                if entry is None:
                    self._error(500, "the fake server's script is exhausted", {"x-should-retry": "false"})
                    return
                if isinstance(entry, Status):
                    self._error(entry.code, entry.message, entry.headers)
                    return
                reply = Reply(entry) if isinstance(entry, str) else entry
                usage = {
                    "prompt_tokens": reply.prompt_tokens,
                    "completion_tokens": reply.completion_tokens,
                    "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                }
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-fake-{number}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "unknown"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.content},
                                "finish_reason": reply.finish_reason,
                            }
                        ],
                        "usage": usage,
                    },
                )

        return Handler
