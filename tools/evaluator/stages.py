"""What every stage of the judge shares: the verdict it raises, its time limits, where its time went.

A stage (compile, correctness, benchmark, dtypes) returns a typed result, or raises `StageFailed`,
whose message is the record's verdict against the candidate. `Deadlines` holds the evaluation's
overall limit and each stage's own (`EvalOptions.stage_limits`); `PhaseClock` adds up wall seconds
by phase, so a slow stage says where its time went.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

from tools.evaluator.process import exception_line


class StageFailed(Exception):
    """A stage's verdict against the candidate; the message is the record's."""


class Deadlines:
    """The evaluation's deadline, and the running stage's: its own limit counted from when it began."""

    def __init__(self, timeout_s: float, stage_limits: dict[str, float]) -> None:
        self.started = time.monotonic()
        self.overall = self.started + timeout_s
        self.limits = dict(stage_limits)
        self.stage_started = self.started

    def begin(self) -> None:
        """The running stage's limit counts from now."""
        self.stage_started = time.monotonic()

    def of(self, stage: str) -> float:
        """When `stage`, begun at the last `begin`, must be done: its own limit or the evaluation's, the sooner."""
        limit = self.limits.get(stage)
        stage_deadline = self.stage_started + limit if limit else self.overall
        return min(self.overall, stage_deadline)

    def note(self, stage: str) -> str:
        """' (past the N s limit of its STAGE stage)' where that limit is what ran out, else ''."""
        limit = self.limits.get(stage)
        if limit and time.monotonic() >= self.stage_started + limit - 0.01:
            return f" (past the {limit:g} s limit of its {stage} stage)"
        return ""


class PhaseClock:
    """Wall seconds per phase of a stage, so a slow evaluation says where its time went."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    @contextmanager
    def phase(self, name: str) -> Iterator[None]:
        start = time.perf_counter()
        try:
            yield
        finally:
            self.seconds[name] += time.perf_counter() - start

    def summary(self, total: float) -> str:
        parts = sorted(self.seconds.items(), key=lambda kv: -kv[1])
        return ", ".join(f"{name} {seconds:.1f} s" for name, seconds in parts if seconds >= 0.05 * total)


def brief_error(text: str | None) -> str:
    """A runner's error in a line or two: the exception's first line, and where in a kernel file it arose.

    A candidate that imports a missing module shows `ModuleNotFoundError: No module named 'x'` and the file
    and line of its import, not the runner's traceback.
    """
    lines = [line for line in (text or "").strip().splitlines() if line.strip()]
    if not lines:
        return "no reason given"
    last = exception_line(text)
    places = [line.strip() for line in lines if line.strip().startswith('File "')]
    ours = ("tools/evaluator/", "importlib", "<frozen ")
    theirs = [p for p in places if not any(mark in p for mark in ours)]
    if not theirs:
        return last
    where = theirs[-1].removeprefix("File ").replace('", line ', ":").replace('"', "")
    return f"{last} (at {where.split(', in ')[0]})"


def crash_hint(message: str) -> str:
    """A runner's crash, with why a write into an input faults."""
    if "SIGSEGV" in message or "illegal memory access" in message:
        message += " (its inputs are mapped read-only: a write into an input faults)"
    return message


def out_of_memory(err: BaseException) -> str:
    """The judge ran out of GPU memory in its own allocation: what a record says (torch's first sentences)."""
    return f"the judge ran out of GPU memory: {' '.join(str(err).split())[:300]}"
