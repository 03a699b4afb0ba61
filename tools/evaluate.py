"""Evaluate one candidate kernel: static check -> compile -> correctness -> benchmark -> profile.

The static check runs here (it only reads the file); everything that executes
candidate code runs in a child process (`tools.worker`) with a timeout, so a
hang, a segfault, `os._exit` or an illegal memory access fails that candidate,
with the reason, and never the caller. Stages stop at the first failure.
"""

from __future__ import annotations

import datetime as dt
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path

import torch

from kernels import registry
from kernels import target as targets
from kernels.spec import DTYPES
from tools.candidate import default_candidate, harness_sha256, sha256_file
from tools.env import collect_environment
from tools.liger import installed_version
from tools.records import EvalRecord, EvalRequest, ShapeBenchmark, ShapeCorrectness, StageResult
from tools.sandbox import run_request
from tools.static_check import check_file

DEFAULT_TIMEOUT_S = 900.0
SEEDS_PER_SHAPE = 3


def _resolve_device(device: str) -> str:
    if device == "auto":
        return "cuda" if torch.cuda.is_available() else "cpu"
    if device == "cuda" and not torch.cuda.is_available():
        raise RuntimeError("--device cuda was asked for, but PyTorch sees no GPU here")
    return device


def evaluate(
    op: str,
    backend: str,
    candidate: str | Path | None = None,
    *,
    shapes: list[str] | None = None,
    dtypes: tuple[str, ...] = ("bf16",),
    benchmark: bool = True,
    profile: bool = False,
    baselines: tuple[str, ...] = ("eager", "compiled"),
    graph: bool = True,
    device: str = "auto",
    target: str = "auto",
    timeout_s: float = DEFAULT_TIMEOUT_S,
    seeds: list[int] | None = None,
    incumbent: str | Path | None = None,
    on_event: Callable[[dict], None] | None = None,
    max_reps: int = 400,
    stage_timeouts: dict[str, float] | None = None,
) -> EvalRecord:
    """Evaluate `candidate` (default: the backend's kernel file) and return the full record.

    `baselines` may add "liger" (Liger-Kernel's kernel for the op, tools/liger.py): timed when
    liger-kernel is installed and its output matches the spec, otherwise a note per shape.
    With `incumbent` (the current best kernel file), the benchmark also times it in the same
    process, shape by shape, so `speedup_vs_incumbent` is a ratio from one run. `max_reps` caps
    the timed calls per variant (the loop uses fewer than `agent eval` to keep iterations short).
    `stage_timeouts` caps single stages of the child (e.g. {"compile": 180}) within `timeout_s`.
    """
    spec = registry.spec(op)
    registry.check_backend(backend)
    for name in dtypes:
        if name not in DTYPES:
            raise ValueError(f"unknown dtype {name!r}; choose from {', '.join(DTYPES)}")
    selected = spec.select(shapes)
    device = _resolve_device(device)
    target_info = targets.select(target)
    path = Path(candidate) if candidate is not None else default_candidate(op, backend)
    if path is not None and not path.exists():
        raise FileNotFoundError(f"candidate file {path} does not exist")
    rng = random.Random(secrets.randbits(64))
    seeds = seeds or [rng.randrange(2**31) for _ in range(SEEDS_PER_SHAPE)]
    record = EvalRecord(
        op=op,
        backend=backend,
        candidate=str(path) if path else "torch reference",
        candidate_sha256=sha256_file(path),
        harness_sha256=harness_sha256(),
        started=dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds"),
        dtypes=list(dtypes),
        shapes=[s.name for s in selected],
        seeds=seeds,
        environment=collect_environment(target_info),
    )
    if "liger" in baselines and record.environment is not None:
        # Only when asked for: other records (and `agent compare`'s version match) stay as they were.
        record.environment.versions["liger_kernel"] = installed_version() or "not installed"
    request = EvalRequest(
        op=op,
        backend=backend,
        candidate=str(path) if path else None,
        shapes=record.shapes,
        hidden_shapes=[s.name for s in spec.hidden_shapes],
        random_hidden_dims=list(spec.random_hidden_shape(rng).dims),
        dtypes=record.dtypes,
        seeds=seeds,
        device=device,
        stages=["compile", "correctness"] + (["benchmark"] if benchmark else []),
        baselines=list(baselines),
        graph=graph,
        target=target,
        incumbent=str(incumbent) if incumbent else None,
        max_reps=max_reps,
    )
    start = time.monotonic()
    try:
        _run_stages(record, path, request, profile, timeout_s, on_event, stage_timeouts)
    finally:
        record.seconds = time.monotonic() - start
    failed = next((s for s in record.stages if s.status == "failed"), None)
    record.status = "failed" if failed else "ok"
    record.failed_stage = failed.name if failed else None
    record.message = f"{failed.name}: {failed.message}" if failed else _summary(record)
    return record


def _run_stages(
    record: EvalRecord,
    path: Path | None,
    request: EvalRequest,
    profile: bool,
    timeout_s: float,
    on_event: Callable[[dict], None] | None,
    stage_timeouts: dict[str, float] | None = None,
) -> None:
    emit = on_event or (lambda event: None)
    emit({"event": "stage_start", "stage": "static"})
    t0 = time.monotonic()
    if path is None:
        static = StageResult(name="static", status="ok", message="torch reference: nothing to check")
    else:
        report = check_file(path, record.op, allow_torch_math=record.backend == "torch")
        static = StageResult(name="static", status="ok" if report.ok else "failed", message=report.message)
    static.seconds = time.monotonic() - t0
    record.stages.append(static)
    emit({"event": "stage_end", "stage": "static", "result": static.model_dump()})
    if static.status == "failed":
        return
    outcome, _output = run_request("tools.worker", request, timeout_s, on_event=on_event, stage_limits=stage_timeouts)
    _absorb(record, outcome, request.stages)
    if profile and record.stages[-1].status == "ok":
        from tools.profile import profile_candidate

        record.stages.append(profile_candidate(record, request, timeout_s, on_event))


def _absorb(record: EvalRecord, outcome, stages: list[str]) -> None:
    """Fold the child's events into the record; a stage that started but never ended failed."""
    running = None
    for event in outcome.events:
        kind = event.get("event")
        if kind == "stage_start":
            running = event["stage"]
        elif kind == "stage_end":
            running = None
            record.stages.append(StageResult.model_validate(event["result"]))
            if "compile" in event:
                from tools.records import CompileInfo

                record.compile = CompileInfo.model_validate(event["compile"])
            if "correctness" in event:
                record.correctness = [ShapeCorrectness.model_validate(c) for c in event["correctness"]]
            if "benchmark" in event:
                record.benchmark = [ShapeBenchmark.model_validate(b) for b in event["benchmark"]]
    finished = {s.name for s in record.stages}
    if running is None and outcome.returncode == 0 and not outcome.timed_out:
        return
    stage = running or next((s for s in stages if s not in finished), stages[-1])
    if stage in finished:
        return
    last_progress = next((e for e in reversed(outcome.events) if e.get("event") == "progress"), None)
    where = f" while on {last_progress['label']}" if last_progress and last_progress.get("stage") == stage else ""
    tail = _last_lines(outcome.stderr_tail)
    message = f"the candidate process {outcome.how_it_ended} during {stage}{where}"
    if tail:
        message += f"; last output: {tail}"
    record.stages.append(StageResult(name=stage, status="failed", message=message, seconds=outcome.seconds))


def _last_lines(text: str, n: int = 3) -> str:
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return " | ".join(lines[-n:])[-600:]


def _summary(record: EvalRecord) -> str:
    passed = sum(c.ok for c in record.correctness)
    parts = [f"{passed}/{len(record.correctness)} correctness checks passed"]
    speedup = record.geomean_speedup("eager")
    if speedup:
        parts.append(f"geomean {speedup:.2f}x over torch eager")
    over_liger = record.geomean_speedup("liger")
    if over_liger:
        parts.append(f"{over_liger:.2f}x over Liger-Kernel")
    fraction = record.median_fraction_of_copy()
    if fraction:
        parts.append(f"median {fraction:.2f} of copy bandwidth")
    return "; ".join(parts)
