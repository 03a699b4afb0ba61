"""Run a child process with a timeout, and explain how it ended.

The child gets its own process group, so a timeout kills it and anything it
started. Its event log is read as it grows (for progress) and after it ends
(for the results), so a crash loses only the stage that was running.

This is process hygiene, not the trust boundary (that is tools/evaluator/sandbox.py): a child that imports
candidate code is started through tools/evaluator/confined.py (its own uid,
no network, an allow-listed environment), and its word decides nothing the
judge did not verify (tools/evaluator/judge.py).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel

from tools.paths import PROJECT_ROOT

POLL_SECONDS = 0.2


@dataclass
class ChildOutcome:
    events: list[dict]
    returncode: int | None
    timed_out: bool
    stderr_tail: str
    seconds: float
    stage_limit: tuple[str, float] | None = None
    """(stage, seconds) when the child was killed for running past that stage's limit."""

    @property
    def how_it_ended(self) -> str:
        if self.stage_limit is not None:
            stage, limit = self.stage_limit
            return f"ran past the {limit:g} s limit of its {stage} stage and was killed"
        if self.timed_out:
            return "timed out and was killed"
        code = self.returncode
        if code is None or code == 0:
            return "exited normally"
        return describe_exit(code) + (" before finishing" if code > 0 else "")


def describe_exit(code: int) -> str:
    """How a process with this return code ended: "exited", "exited with status 3", "was killed by SIGSEGV"."""
    if code == 0:
        return "exited"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"exited with status {code}"


def _read_events(path: Path, seen: int) -> tuple[list[dict], int]:
    if not path.exists():
        return [], seen
    with open(path) as f:
        f.seek(seen)
        chunk = f.read()
    complete = chunk[: chunk.rfind("\n") + 1]  # a line being written is read next time
    events = [json.loads(line) for line in complete.splitlines() if line.strip()]
    return events, seen + len(complete.encode())


def run_child(
    module: str,
    args: list[str],
    events_path: Path,
    timeout_s: float,
    on_event: Callable[[dict], None] | None = None,
    env: dict[str, str] | None = None,
    prefix: list[str] | None = None,
    stage_limits: dict[str, float] | None = None,
) -> ChildOutcome:
    """`python -m module args...` (optionally under `prefix`, e.g. a profiler) with a timeout.

    `stage_limits` caps single stages, timed from their `stage_start` event: a compile that takes
    minutes (TileLang once spent 278 s on one rms_norm configuration on the H200) is cut short
    instead of eating the whole evaluation timeout.
    """
    child_env = dict(os.environ if env is None else env)
    child_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(PROJECT_ROOT), child_env.get("PYTHONPATH")]))
    child_env.setdefault("PYTHONUNBUFFERED", "1")
    stderr_path = events_path.with_suffix(".stderr")
    start = time.monotonic()
    collected: list[dict] = []
    seen = 0
    with open(stderr_path, "w") as stderr:
        proc = subprocess.Popen(
            [*(prefix or []), sys.executable, "-m", module, *args],
            cwd=PROJECT_ROOT,
            env=child_env,
            stdout=stderr,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        timed_out = False
        stage_limit = None
        running: tuple[str, float] | None = None  # (stage, when it started here)
        while proc.poll() is None:
            now = time.monotonic()
            limit = (stage_limits or {}).get(running[0]) if running else None
            if now - start > timeout_s or (limit is not None and now - running[1] > limit):
                timed_out = True
                stage_limit = (running[0], limit) if now - start <= timeout_s else None
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
                break
            new, seen = _read_events(events_path, seen)
            for event in new:
                collected.append(event)
                if event.get("event") == "stage_start":
                    running = (event.get("stage"), time.monotonic())
                elif event.get("event") == "stage_end":
                    running = None
                if on_event:
                    on_event(event)
            time.sleep(POLL_SECONDS)
        else:
            _kill_leftovers(proc.pid)
    new, seen = _read_events(events_path, seen)
    for event in new:
        collected.append(event)
        if on_event:
            on_event(event)
    tail = stderr_path.read_text(errors="replace")[-4000:] if stderr_path.exists() else ""
    return ChildOutcome(collected, proc.returncode, timed_out, tail, time.monotonic() - start, stage_limit)


def run_request(module: str, request: BaseModel, timeout_s: float, **options) -> tuple[ChildOutcome, str]:
    """`python -m module REQUEST.json EVENTS.jsonl` in a temporary folder: the outcome and the child's whole output.

    `options` go to `run_child` (on_event, prefix, stage_limits, ...).
    """
    with tempfile.TemporaryDirectory(prefix=f"kw-{module.rsplit('.', 1)[-1]}-") as tmp:
        request_path = Path(tmp) / "request.json"
        events_path = Path(tmp) / "events.jsonl"
        request_path.write_text(request.model_dump_json())
        outcome = run_child(module, [str(request_path), str(events_path)], events_path, timeout_s, **options)
        output_path = events_path.with_suffix(".stderr")
        output = output_path.read_text(errors="replace") if output_path.exists() else ""
    return outcome, output


def _kill_leftovers(pgid: int) -> None:
    """A child may leave processes behind in its group (a forked helper); end them."""
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
