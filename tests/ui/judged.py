"""A run folder written by hand with records in the judge's schema: two scopes per shape, as on a GPU.

The CPU fixtures (conftest.py) are made by the loop, but a CPU has no CUDA graphs, so their records
carry the eager scope only. This folder has what a GPU run writes: eager and graph timings with their
intervals, the torch op and the copy roofline timed beside the candidate, a confinement, and run.json
summaries with `scope`, `eager_us` and `graph_us`.

- iteration 0: the starting kernel;
- iteration 1: accepted, faster in both scopes;
- iteration 2: rejected; CUDA-graph capture failed on the decode shape, so its decision scope is eager.
"""

from __future__ import annotations

import json
from pathlib import Path

from tools.evaluator.records import (
    Confinement,
    Environment,
    EvalRecord,
    Ratio,
    ScopeResult,
    ShapeBenchmark,
    ShapeCorrectness,
    StageResult,
    Timing,
)

RUN_ID = "20991231-120000-rope-tilelang-j2s0"
DECODE, PREFILL = "llama3.2-1b/decode1/q", "llama3.2-1b/prefill512/q"
BYTES = {DECODE: 8_192, PREFILL: 4_194_304}
COPY_US = {"eager": {DECODE: 6.0, PREFILL: 9.0}, "graph": {DECODE: 2.0, PREFILL: 8.0}}
TORCH_US = {"eager": {DECODE: 30.0, PREFILL: 40.0}, "graph": {DECODE: 10.0, PREFILL: 38.0}}
# The candidate's per-call time per iteration: the decode shape is host-bound (eager well over graph).
CANDIDATE_US = {
    0: {"eager": {DECODE: 12.0, PREFILL: 20.0}, "graph": {DECODE: 4.0, PREFILL: 18.0}},
    1: {"eager": {DECODE: 10.0, PREFILL: 16.0}, "graph": {DECODE: 3.0, PREFILL: 15.0}},
    2: {"eager": {DECODE: 11.0, PREFILL: 17.0}, "graph": {PREFILL: 16.0}},
}
GRAPH_ERROR = "CUDA graph capture failed: operation not permitted when stream is capturing"
COMMIT = "0123456789abcdef0123456789abcdef01234567"


def timing(us: float, method: str, spread: float = 0.02) -> Timing:
    return Timing(
        median_us=us,
        ci_low_us=us * (1 - spread),
        ci_high_us=us * (1 + spread),
        batches=10,
        calls_per_batch=50,
        batch_us=[us] * 10,
        method=method,
    )


def ratio(value: float) -> Ratio:
    return Ratio(median=value, low=value * 0.97, high=value * 1.03, rounds=10, confidence=0.95)


def scope_result(scope: str, shape: str, mine: float, incumbent: float | None) -> ScopeResult:
    result = ScopeResult(
        candidate=timing(mine, scope),
        incumbent=timing(incumbent, scope) if incumbent else None,
        torch=timing(TORCH_US[scope][shape], scope),
        roofline=timing(COPY_US[scope][shape], scope),
        speedup_vs_incumbent=ratio(incumbent / mine) if incumbent else None,
        speedup_vs_torch=ratio(TORCH_US[scope][shape] / mine),
        gbps=BYTES[shape] / mine / 1e3,
        copy_gbps=BYTES[shape] / COPY_US[scope][shape] / 1e3,
        fraction_of_copy=COPY_US[scope][shape] / mine,
        self_reported_us=mine * 0.9 if scope == "eager" else None,
    )
    return result


def record(iteration: int, best: int | None) -> EvalRecord:
    times = CANDIDATE_US[iteration]
    benchmark = []
    for shape in (DECODE, PREFILL):
        scopes = {}
        for scope in ("eager", "graph"):
            if shape in times[scope]:
                theirs = CANDIDATE_US[best][scope].get(shape) if best is not None else None
                scopes[scope] = scope_result(scope, shape, times[scope][shape], theirs)
        bench = ShapeBenchmark(shape=shape, dims=[1, 32, 64], dtype="bf16", bytes_moved=BYTES[shape], **scopes)
        if "graph" not in scopes:
            bench.note = GRAPH_ERROR
            bench.eager.errors = {}
        benchmark.append(bench)
    if iteration == 2:  # graph capture failed for every contestant of the decode shape
        benchmark[0].eager.errors = {"graph": GRAPH_ERROR}
    return EvalRecord(
        op="rope",
        backend="tilelang",
        candidate=f"iterations/{iteration:04d}/candidate.py",
        candidate_sha256="ab" * 32,
        harness_sha256="cd" * 32,
        started=f"2099-12-31T12:0{iteration}:00+00:00",
        status="ok",
        message="4/4 correctness checks passed",
        dtypes=["bf16"],
        shapes=[DECODE, PREFILL],
        seeds=[0, 1],
        environment=Environment(
            hostname="gpu-host", platform="Linux", python="3.11", target="cuda", device="NVIDIA H200", device_count=1
        ),
        confinement=Confinement(
            mode="root", uid_separation=True, network="isolated", judge_dumpable=False, transport="device"
        ),
        stages=[StageResult(name=s, status="ok") for s in ("static", "compile", "correctness", "benchmark")],
        correctness=[
            ShapeCorrectness(
                shape=shape, dims=[1], dtype="bf16", seed=seed, hidden=False, ok=True, max_abs_err=0, max_rel_err=0
            )
            for shape in (DECODE, PREFILL)
            for seed in (0, 1)
        ],
        benchmark=benchmark,
    )


def summary(r: EvalRecord) -> dict:
    """run.json's `start`/`best`, as the loop writes them (agent/graph.py)."""
    scope = r.decision_scope()
    shapes = {}
    for b in r.benchmark:
        result = b.scope(scope)
        shapes[b.shape] = {
            "gbps": result.gbps,
            "fraction_of_copy": result.fraction_of_copy,
            "median_us": result.candidate.median_us,
            "eager_us": b.eager.candidate.median_us if b.eager else None,
            "graph_us": b.graph.candidate.median_us if b.graph else None,
        }
    return {
        "status": r.status,
        "scope": scope,
        "median_gbps": r.median_gbps(),
        "median_fraction_of_copy": r.median_fraction_of_copy(),
        "geomean_vs_eager": r.geomean_speedup("torch"),
        "shapes": shapes,
    }


def write_run(root: Path) -> Path:
    """The run folder under `root`; returns its path."""
    path = Path(root) / RUN_ID
    records = {0: record(0, None), 1: record(1, 0), 2: record(2, 1)}
    for iteration, r in records.items():
        folder = path / "iterations" / f"{iteration:04d}"
        folder.mkdir(parents=True)
        (folder / "candidate.py").write_text(f'CONFIG = {{"block_rows": {2**iteration}}}\n')
        (folder / "eval.json").write_text(r.model_dump_json(indent=1))
        if iteration:
            (folder / "diff.patch").write_text(
                f'-CONFIG = {{"block_rows": 1}}\n+CONFIG = {{"block_rows": {2**iteration}}}\n'
            )
    decisions = {
        1: {
            "accepted": True,
            "reason": "geomean 1.250x over the best (graph scope, lower bound 1.200x)",
            "scope": "graph",
        },
        2: {"accepted": False, "reason": "geomean 0.950x (eager scope) is within the noise", "scope": "eager"},
    }
    geomeans = {1: 1.25, 2: 0.95}
    time = "2099-12-31T12:00:00+00:00"
    events = [
        {"time": time, "event": "run_start", "run_id": RUN_ID, "op": "rope", "backend": "tilelang", "policy": "search"},
        {"time": time, "event": "baseline_end", "status": "ok", "message": records[0].message},
    ]
    for iteration in (1, 2):
        events += [
            {
                "time": time,
                "event": "proposal",
                "iteration": iteration,
                "index": 0,
                "rationale": f"block_rows 1 -> {2**iteration}",
                "model": None,
                "usage": None,
                "reasks": 0,
            },
            {"time": time, "event": "evaluate_start", "iteration": iteration, "index": 0},
            {
                "time": time,
                "event": "decide",
                "iteration": iteration,
                "accepted": 0 if iteration == 1 else None,
                "decisions": [decisions[iteration] | {"geomean_speedup": geomeans[iteration], "noise": 0.02}],
                "outcomes": ["accepted" if iteration == 1 else "rejected"],
            },
        ]
        if iteration == 1:
            events.append({"time": time, "event": "commit", "iteration": 1, "sha": COMMIT, "message": "rope: 1.25x"})
    (path / "events.jsonl").write_text("".join(json.dumps(e) + "\n" for e in events))
    run = {
        "run_id": RUN_ID,
        "created": time,
        "status": "finished",
        "config": {
            "op": "rope",
            "backend": "tilelang",
            "policy": "search",
            "iterations": 2,
            "candidates": 1,
            "model": None,
            "shapes": [DECODE, PREFILL],
            "dtypes": ["bf16"],
            "device": "cuda",
            "target": "cuda",
            "baselines": ["eager"],
        },
        "environment": records[0].environment.model_dump(),
        "start": summary(records[0]),
        "best": summary(records[1]) | {"iteration": 1, "commit": COMMIT},
        "stop_reason": "reached --iterations 2",
        "iterations": 2,
        "commits": [COMMIT],
        "branch": "agent/rope-tilelang",
    }
    (path / "run.json").write_text(json.dumps(run, indent=1))
    return path
