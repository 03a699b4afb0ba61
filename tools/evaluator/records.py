"""Typed results of an evaluation. Everything here serialises to JSON (pydantic).

A record is the whole story of one candidate: each stage's outcome, the per-shape errors and
timings, the environment, how the runners were confined, and a hash of the evaluator and specs
that produced it, so two records can be compared knowing whether the ruler changed.

Timings come from the judge's clock (tools/evaluator/judge.py) in two scopes per shape:
`eager` (the runner calls the op once per input set, back to back: host launch cost included,
what a model's eager forward pays) and `graph` (the same calls replayed from a CUDA graph: device
time).
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Iterable
from typing import Literal

from pydantic import BaseModel, Field

# e2e: the loop's check that the Llama model's greedy tokens with the candidate match torch's (tools/llama/e2e.py).
# judge: the judge process itself was lost (a worker of `agent optimize --workers` died).
StageName = Literal["static", "compile", "correctness", "benchmark", "dtypes", "profile", "e2e", "judge"]
STAGES: tuple[StageName, ...] = (
    "static",
    "compile",
    "correctness",
    "benchmark",
    "dtypes",
    "profile",
    "e2e",
    "judge",
)
StageStatus = Literal["ok", "failed", "skipped"]
# What a candidate can be timed against besides the current best. eager: the torch reference op run
# eagerly; compiled: torch.compile of it; liger: Liger-Kernel's kernel for the op (tools/liger.py);
# native: torch's own ops in the model dtype, as a user would write them (kernels/<op>/native.py: F.rms_norm,
# rotate-half RoPE, F.silu(gate) * up), the ruler of a kernel's host cost per call.
Baseline = Literal["eager", "compiled", "liger", "native"]
BASELINES: tuple[Baseline, ...] = ("eager", "compiled", "liger", "native")
# How the Liger baseline ended for one shape: timed after matching the spec; its output failed the
# spec (so it was not timed); it raised; or it could not run here (not installed, no kernel, no GPU).
LigerStatus = Literal["ok", "wrong", "failed", "unavailable"]
Scope = Literal["eager", "graph"]
SCOPES: tuple[Scope, ...] = ("eager", "graph")
ScopeName = Literal["eager", "graph"]
# Who is timed in a scope. torch: the reference op run eagerly (the `eager` baseline); roofline: a
# device-to-device copy of the shape's bytes.
Contestant = Literal["candidate", "incumbent", "torch", "compiled", "liger", "native", "roofline"]
# Those a candidate's speedup is taken over (ScopeResult.speedup_vs_<name>): every contestant but itself and the copy.
RIVALS: tuple[Contestant, ...] = ("incumbent", "torch", "compiled", "liger", "native")
CONTESTANTS: tuple[Contestant, ...] = ("candidate", *RIVALS, "roofline")
BASELINE_CONTESTANT: dict[str, Contestant] = {
    "eager": "torch",
    "compiled": "compiled",
    "liger": "liger",
    "native": "native",
}


def geomean(values: Iterable[float | None]) -> float | None:
    """The geometric mean of the positive values (speedups, ratios of times); None when there is none."""
    logs = [math.log(v) for v in values if v is not None and v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


class StageResult(BaseModel):
    name: StageName
    status: StageStatus
    message: str = ""
    seconds: float = 0.0
    # Where the stage's wall time went (the judge's own clock), for the stages that measure it.
    phases: dict[str, float] = Field(default_factory=dict)


class ShapeCorrectness(BaseModel):
    """One (shape, dtype, seed) run against the fp32 reference, checked by the judge in its own buffers."""

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
    hazards: bool = Field(default=False, description="inputs with rows of zeros and of extreme magnitudes")
    bias_ulps: float | None = Field(
        default=None,
        description="the case's mean signed error toward zero, in ulp of the output dtype (bf16, fp16); "
        "round-to-nearest gives about 0 (workbench.kernels.spec.rounding_bias)",
    )
    message: str = ""


class HostUse(BaseModel):
    """A runner's CPU use in one eager batch, per call (µs), as the kernel's scheduler counted it."""

    main_us: float  # the main thread on a CPU: the calls themselves
    others_us: float  # its other threads on a CPU
    waited_us: float  # its threads runnable but waiting for a CPU
    steal_us: float | None = None  # the hypervisor's steal on the timing core (10 ms ticks: a sum is the figure)


class Timing(BaseModel):
    """Per-call time of one contestant in one scope, microseconds: the median over batches and its CI."""

    median_us: float
    ci_low_us: float | None = Field(default=None, description="confidence interval of the median (batches)")
    ci_high_us: float | None = None
    batches: int = 0
    calls_per_batch: int = 0
    batch_us: list[float] = Field(default_factory=list, description="per-call time of each batch, in order")
    method: Literal["eager", "graph", "wall", "events"] = "eager"
    host: list[HostUse] = Field(default_factory=list, description="eager: the runner's CPU use in each batch")
    # Records from before the judge: percentiles of single calls timed in the candidate's process.
    p10_us: float | None = None
    p90_us: float | None = None
    reps: int | None = None

    @property
    def half_width(self) -> float | None:
        """Half the confidence interval relative to the median: the noise of this timing."""
        if self.ci_low_us is None or self.ci_high_us is None or not self.median_us:
            return None
        return (self.ci_high_us - self.ci_low_us) / 2 / self.median_us


class Ratio(BaseModel):
    """How many times faster the candidate is than another contestant: the median of per-round ratios.

    Each round times every contestant once, in a random order, so a ratio comes from batches timed
    moments apart; `low`/`high` bound the median with the stated confidence (order statistics).
    """

    median: float
    low: float | None = None
    high: float | None = None
    rounds: int = 0
    confidence: float | None = None


class ScopeResult(BaseModel):
    """One scope of one shape: every contestant's timing, and the candidate's ratios over the others."""

    candidate: Timing | None = None
    incumbent: Timing | None = None
    torch: Timing | None = Field(default=None, description="the torch reference op, run eagerly")
    compiled: Timing | None = None
    liger: Timing | None = None
    native: Timing | None = Field(default=None, description="torch's own ops in the model dtype (F.rms_norm, ...)")
    roofline: Timing | None = Field(default=None, description="a copy of bytes_moved, chained and timed as the op")
    speedup_vs_incumbent: Ratio | None = None
    speedup_vs_torch: Ratio | None = None
    speedup_vs_compiled: Ratio | None = None
    speedup_vs_liger: Ratio | None = None
    speedup_vs_native: Ratio | None = None
    gbps: float | None = None
    copy_gbps: float | None = None
    fraction_of_copy: float | None = None
    errors: dict[str, str] = Field(default_factory=dict, description="contestant -> why it has no timing here")
    self_reported_us: float | None = Field(
        default=None, description="the candidate runner's own CUDA-event time per call: diagnosis only, never judged"
    )

    def timing(self, contestant: Contestant) -> Timing | None:
        return getattr(self, contestant)

    def speedup(self, against: str) -> float | None:
        ratio = getattr(self, f"speedup_vs_{against}", None)
        return ratio.median if ratio else None


class ShapeBenchmark(BaseModel):
    shape: str
    dims: list[int]
    dtype: str
    bytes_moved: int
    eager: ScopeResult | None = Field(default=None, description="per-call time with host launch cost")
    graph: ScopeResult | None = Field(default=None, description="per-call time under CUDA-graph replay")
    ceiling_gbps: float | None = Field(default=None, description="a large copy: above this is not from DRAM")
    liger_status: LigerStatus | None = Field(
        default=None, description="how the Liger baseline ended, when it was asked for; the note says why"
    )
    status: Literal["ok", "measurement_error", "wrong_after_timing", "failed"] = "ok"
    note: str = ""

    def scope(self, name: ScopeName | None = None) -> ScopeResult | None:
        """A scope by name; None: the one decisions use (graph where it exists, else eager)."""
        if name is not None:
            return getattr(self, name)
        return self.graph or self.eager

    def scope_name(self) -> ScopeName | None:
        return next((n for n in ("graph", "eager") if getattr(self, n) is not None), None)

    def bound(self) -> Literal["host", "device"] | None:
        """host: the eager call costs well over its graph replay (launch overhead dominates); else device."""
        if not (self.eager and self.graph and self.eager.candidate and self.graph.candidate):
            return None
        return "host" if self.eager.candidate.median_us > 1.5 * self.graph.candidate.median_us else "device"


class KernelSource(BaseModel):
    key: str
    language: str
    text: str


class CompileInfo(BaseModel):
    import_seconds: float = 0.0
    first_call_seconds: dict[str, float] = Field(default_factory=dict)
    sources: list[KernelSource] = Field(default_factory=list)
    reported_by: Literal["runner"] = Field(
        default="runner", description="import and first-call times and sources come from the candidate's runner"
    )


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


class Confinement(BaseModel):
    """How the runners that imported candidate code were confined (tools/evaluator/sandbox.py)."""

    mode: Literal["namespaces", "landlock", "none", "root", "user"] = Field(
        description="namespaces: a bubblewrap sandbox plus Landlock and seccomp per runner; landlock: Landlock and "
        "seccomp alone; none: unconfined (only with --allow-unconfined); root and user: records from before the "
        "sandbox (root: runners of their own uid; user: runners as the judge's user)"
    )
    parts: list[str] = Field(default_factory=list, description="each mechanism in force, in a line")
    uid_separation: bool = False
    network: Literal["isolated", "no TCP", "open"] = "open"
    env: Literal["allow-list"] = "allow-list"
    judge_dumpable: bool = True
    transport: Literal["device", "host"] = "host"
    limits: dict[str, int] = Field(default_factory=dict, description="each runner's limits (sandbox.limits)")
    unconfined: bool = Field(default=False, description="judged without any confinement: the user allowed it")
    notes: list[str] = Field(default_factory=list)

    @property
    def headline(self) -> str:
        """The confinement in one line, as the CLI, the export and the UI show it."""
        if self.unconfined or self.mode == "none":
            return "UNCONFINED: candidate code ran as the judge's user (allowed with --allow-unconfined)"
        kind = {
            "namespaces": "runners in a bubblewrap sandbox",
            "landlock": "runners under Landlock alone (no sandbox)",
            "root": "runners from before the sandbox, started by a root judge",
            "user": "runners from before the sandbox, as the judge's user",
        }[self.mode]
        parts = [kind]
        if self.uid_separation:
            parts.append("a uid of their own")
        parts.append(f"network {self.network}")
        if self.limits:
            gib = self.limits.get("memory_bytes", 0) / 2**30
            parts.append(f"limits {gib:.0f} GiB, {self.limits.get('processes', 0)} tasks")
        return ", ".join(parts)


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
    candidate: str = Field(
        description="the file evaluated: relative to the repository root, or in a run folder's eval.json to the "
        "run folder; absolute outside both (tools/paths.py); 'torch reference' for the reference itself"
    )
    candidate_sha256: str
    harness_sha256: str = Field(
        description="sha256 over the project modules the judge's process had loaded when it decided (path and "
        "content of each, `harness_modules`): two records with one hash were measured and judged by one code"
    )
    harness_modules: list[str] = Field(default_factory=list, description="the modules `harness_sha256` covers")
    started: str
    seconds: float = 0.0
    status: Literal["ok", "failed"] = "failed"
    failed_stage: StageName | None = None
    message: str = ""
    dtypes: list[str]
    shapes: list[str]
    seeds: list[int] = Field(default_factory=list)
    environment: Environment | None = None
    confinement: Confinement | None = None
    stages: list[StageResult] = Field(default_factory=list)
    compile: CompileInfo | None = None
    correctness: list[ShapeCorrectness] = Field(default_factory=list)
    benchmark: list[ShapeBenchmark] = Field(default_factory=list)
    dtypes_checked: list[ShapeCorrectness] = Field(
        default_factory=list, description="the `dtypes` stage: correctness in the dtypes that were not timed"
    )
    profile: list[ShapeProfile] = Field(default_factory=list)
    compiled_per_shape: bool = Field(
        default=False,
        description="the torch.compile baseline compiled each shape on its own (tools/evaluator/contestants.py); "
        "records without it compiled one function for every shape, which went dynamic and fell back to eager, so "
        "their compile column is not to be read",
    )

    def stage(self, name: StageName) -> StageResult | None:
        return next((s for s in self.stages if s.name == name), None)

    def timed_on_cpu(self) -> bool:
        """The benchmark ran on the CPU (the judge's wall clock): its timings check the evaluator, not a kernel.

        A CPU run has no graph scope and no torch.compile or Liger baseline (each is timed on a
        GPU only: tools/evaluator/judge.py). Without timings (no benchmark stage): whether a GPU was seen.
        """
        methods = {r.candidate.method for b in self.benchmark for r in (b.eager, b.graph) if r and r.candidate}
        if methods:
            return methods == {"wall"}
        return self.environment is not None and self.environment.device is None

    def decision_scope(self) -> ScopeName | None:
        """The scope decisions use: graph where every timed shape has one, else eager."""
        for name in ("graph", "eager"):
            if self.benchmark and all(b.scope(name) and b.scope(name).candidate for b in self.benchmark):
                return name
        return None

    def _scopes(self, scope: ScopeName | None) -> list[ScopeResult]:
        scope = scope or self.decision_scope()
        results = [b.scope(scope) for b in self.benchmark] if scope else []
        return [r for r in results if r is not None]

    def median_gbps(self, scope: ScopeName | None = None) -> float | None:
        """GB/s of the median timed shape; None when nothing was timed."""
        values = [r.gbps for r in self._scopes(scope) if r.gbps]
        return statistics.median(values) if values else None

    def median_fraction_of_copy(self, scope: ScopeName | None = None) -> float | None:
        """Fraction of the size-matched copy of the median timed shape; None without a roofline."""
        values = [r.fraction_of_copy for r in self._scopes(scope) if r.fraction_of_copy]
        return statistics.median(values) if values else None

    def geomean_speedup(
        self,
        against: Literal["torch", "compiled", "liger", "native", "incumbent"] = "torch",
        scope: ScopeName | None = None,
    ) -> float | None:
        return geomean([r.speedup(against) for r in self._scopes(scope)])
