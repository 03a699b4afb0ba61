"""Typed results of an evaluation. Everything here serialises to JSON (pydantic).

A record is the whole story of one candidate: each stage's outcome, the
per-shape errors and timings, the environment and a hash of the harness that
produced it, so two records can be compared knowing whether the ruler changed.
"""

from __future__ import annotations

import math
import statistics
from typing import Literal

from pydantic import BaseModel, Field

# e2e: the loop's check that the Llama model's greedy tokens with the candidate match torch's (tools/llama/e2e.py).
StageName = Literal["static", "compile", "correctness", "benchmark", "profile", "e2e"]
STAGES: tuple[StageName, ...] = ("static", "compile", "correctness", "benchmark", "profile", "e2e")
StageStatus = Literal["ok", "failed", "skipped"]
# What a candidate can be timed against besides the current best. liger: Liger-Kernel's kernel for
# the op (tools/liger.py), when it is installed; otherwise the record carries a note.
Baseline = Literal["eager", "compiled", "liger"]
BASELINES: tuple[Baseline, ...] = ("eager", "compiled", "liger")
# How the Liger baseline ended for one shape: timed after matching the spec; its output failed the
# spec (so it was not timed); it raised; or it could not run here (not installed, no kernel, no GPU).
LigerStatus = Literal["ok", "wrong", "failed", "unavailable"]


class StageResult(BaseModel):
    name: StageName
    status: StageStatus
    message: str = ""
    seconds: float = 0.0


class ShapeCorrectness(BaseModel):
    """One (shape, dtype, seed) run against the fp32 reference."""

    shape: str
    dims: list[int]
    dtype: str
    seed: int
    hidden: bool
    ok: bool
    max_abs_err: float
    max_rel_err: float
    first_bad_index: list[int] | None = None
    inputs_unchanged: bool = True
    wrote_into_out: bool = True
    message: str = ""


class Timing(BaseModel):
    """Per-call device time, microseconds, over `reps` L2-flushed calls after warm-up."""

    median_us: float
    p10_us: float
    p90_us: float
    reps: int
    method: Literal["events", "graph", "wall"] = "events"

    @property
    def spread(self) -> float:
        """(p90 - p10) / median: the noise a difference must exceed to mean anything."""
        return (self.p90_us - self.p10_us) / self.median_us if self.median_us else 0.0


class ShapeBenchmark(BaseModel):
    shape: str
    dims: list[int]
    dtype: str
    bytes_moved: int
    candidate: Timing
    eager: Timing | None = None
    compiled: Timing | None = None
    liger: Timing | None = Field(
        default=None, description="Liger-Kernel's kernel for the op (tools/liger.py), only once it matched the spec"
    )
    liger_status: LigerStatus | None = Field(
        default=None, description="how the Liger baseline ended, when it was asked for; the note says why"
    )
    incumbent: Timing | None = Field(default=None, description="the current best, timed in the same process")
    copy_roofline: Timing | None = Field(default=None, description="device-to-device copy of bytes_moved")
    graph: Timing | None = Field(default=None, description="CUDA-graph replay, decode shapes only")
    graph_eager: Timing | None = None
    gbps: float
    copy_gbps: float | None = None
    ceiling_gbps: float | None = Field(default=None, description="1 GiB copy: above this is not from DRAM")
    fraction_of_copy: float | None = None
    speedup_vs_eager: float | None = None
    speedup_vs_compiled: float | None = None
    speedup_vs_liger: float | None = None
    speedup_vs_incumbent: float | None = None
    status: Literal["ok", "measurement_error", "wrong_after_timing"] = "ok"
    note: str = ""


class KernelSource(BaseModel):
    key: str
    language: str
    text: str


class CompileInfo(BaseModel):
    import_seconds: float = 0.0
    first_call_seconds: dict[str, float] = Field(default_factory=dict)
    sources: list[KernelSource] = Field(default_factory=list)


class ShapeProfile(BaseModel):
    shape: str
    dtype: str
    kernel: str
    duration_us: float | None = None
    dram_throughput_pct: float | None = None
    achieved_occupancy_pct: float | None = None
    registers_per_thread: int | None = None
    local_memory_spill_requests: float | None = None
    raw: dict[str, str] = Field(default_factory=dict)


class Environment(BaseModel):
    hostname: str
    platform: str
    python: str
    target: str
    device: str | None = None
    device_count: int = 0
    driver: str | None = None
    cuda_runtime: str | None = None
    l2_bytes: int | None = None
    versions: dict[str, str] = Field(default_factory=dict)
    smi: str | None = None


class EvalRecord(BaseModel):
    op: str
    backend: str
    candidate: str
    candidate_sha256: str
    harness_sha256: str
    started: str
    seconds: float = 0.0
    status: Literal["ok", "failed"] = "failed"
    failed_stage: StageName | None = None
    message: str = ""
    dtypes: list[str]
    shapes: list[str]
    seeds: list[int] = Field(default_factory=list)
    environment: Environment | None = None
    stages: list[StageResult] = Field(default_factory=list)
    compile: CompileInfo | None = None
    correctness: list[ShapeCorrectness] = Field(default_factory=list)
    benchmark: list[ShapeBenchmark] = Field(default_factory=list)
    profile: list[ShapeProfile] = Field(default_factory=list)

    def stage(self, name: StageName) -> StageResult | None:
        return next((s for s in self.stages if s.name == name), None)

    def median_gbps(self) -> float | None:
        """GB/s of the median timed shape; None when nothing was timed."""
        values = [b.gbps for b in self.benchmark]
        return statistics.median(values) if values else None

    def median_fraction_of_copy(self) -> float | None:
        """Fraction of the size-matched copy of the median timed shape; None without a roofline."""
        values = [b.fraction_of_copy for b in self.benchmark if b.fraction_of_copy]
        return statistics.median(values) if values else None

    def geomean_speedup(self, against: Literal["eager", "compiled", "liger", "incumbent"] = "eager") -> float | None:
        values = [getattr(b, f"speedup_vs_{against}") for b in self.benchmark if getattr(b, f"speedup_vs_{against}")]
        if not values:
            return None
        return math.exp(sum(math.log(v) for v in values) / len(values))


class EvalRequest(BaseModel):
    """What the parent asks the child process to do (written as JSON next to the result log)."""

    op: str
    backend: str
    candidate: str | None = Field(default=None, description="kernel file; None = the torch reference op")
    shapes: list[str]
    hidden_shapes: list[str]
    random_hidden_dims: list[int] | None = None
    dtypes: list[str]
    seeds: list[int]
    device: Literal["cuda", "cpu"]
    stages: list[StageName]
    baselines: list[Baseline] = Field(default_factory=lambda: ["eager", "compiled"])
    graph: bool = True
    target: str = "auto"
    incumbent: str | None = Field(default=None, description="kernel file of the current best, timed alongside")
    max_reps: int = Field(default=400, ge=20, description="timed calls per variant at most (fewer when slow)")
